package auth

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"signals/internal/store"
	"signals/internal/store/sqlite"
)

// slowTouches holds every last-used write until its context ends, as a
// write waiting for a busy database does.
type slowTouches struct {
	store.Accounts
	started chan struct{}

	mu            sync.Mutex
	writes, ended int
}

func (s *slowTouches) TouchKey(ctx context.Context, keyID string, at time.Time) error {
	s.mu.Lock()
	s.writes++
	s.mu.Unlock()
	s.started <- struct{}{}
	<-ctx.Done()
	s.mu.Lock()
	s.ended++
	s.mu.Unlock()
	return ctx.Err()
}

func TestCloseAwaitsLastUsedWrites(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "signals.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	acct, err := st.CreateAccount(ctx, "dev@example.com", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	key, _, err := Issue(ctx, st, acct.ID, "test", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	touches := &slowTouches{Accounts: st, started: make(chan struct{}, 2)}
	now := time.Now()
	a := &Authenticator{Store: touches, Challenge: APIChallenge, Now: func() time.Time { return now }}
	r := httptest.NewRequest(http.MethodGet, "/api/v1/signals", nil)
	r.Header.Set("Authorization", "Bearer "+key)
	if _, err := a.Authenticate(r); err != nil {
		t.Fatal(err)
	}
	<-touches.started
	a.Close()
	touches.mu.Lock()
	ended := touches.ended
	touches.mu.Unlock()
	if ended != 1 {
		t.Fatal("Close returned while a last-used write was still running")
	}

	// A request after Close (one that was already running) writes nothing.
	now = now.Add(2 * touchEvery)
	if _, err := a.Authenticate(r); err != nil {
		t.Fatal(err)
	}
	a.Close()
	touches.mu.Lock()
	defer touches.mu.Unlock()
	if touches.writes != 1 {
		t.Errorf("%d last-used writes, want none after Close", touches.writes-1)
	}
}
