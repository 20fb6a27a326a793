package storetest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"signals/internal/model"
	"signals/internal/store"
)

// runAccountArea is the suite of sign-in, sessions and the account area.
func runAccountArea(t *testing.T, open Opener) {
	t.Run("SignInLinksAreUsedOnce", func(t *testing.T) { testSignInLinks(t, open(t)) })
	t.Run("Sessions", func(t *testing.T) { testSessions(t, open(t)) })
	t.Run("ThrottleExactUnderConcurrency", func(t *testing.T) { testThrottle(t, open(t)) })
	t.Run("DailyUsage", func(t *testing.T) { testDailyUsage(t, open(t)) })
	t.Run("Interests", func(t *testing.T) { testInterests(t, open(t)) })
	t.Run("DigestOncePerPeriod", func(t *testing.T) { testDigestClaims(t, open(t)) })
	t.Run("DeleteAccountRemovesEverything", func(t *testing.T) { testDeleteAccount(t, open(t)) })
	t.Run("AccountErrorsNameTheOperation", func(t *testing.T) { testAccountErrors(t, open(t)) })
}

func hashOf(s string) []byte {
	h := sha256.Sum256([]byte(s))
	return h[:]
}

func testSignInLinks(t *testing.T, st store.Store) {
	ctx := context.Background()
	link := store.SignInLink{Hash: hashOf("a"), Email: "ada@example.com", Next: "/account?x=1", ExpiresAt: base.Add(15 * time.Minute)}
	if err := st.PutSignInLink(ctx, link); err != nil {
		t.Fatal(err)
	}
	expired := store.SignInLink{Hash: hashOf("old"), Email: "ada@example.com", ExpiresAt: base.Add(time.Minute)}
	if err := st.PutSignInLink(ctx, expired); err != nil {
		t.Fatal(err)
	}
	if _, err := st.TakeSignInLink(ctx, hashOf("other"), base); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown link: %v, want ErrNotFound", err)
	}
	// Reading a link, as the page that asks to confirm it does, leaves it
	// to be taken; an expired or unknown one reads as not found.
	for _, tt := range []struct {
		name string
		hash []byte
		at   time.Time
		want error
	}{
		{"unexpired", hashOf("a"), base.Add(14 * time.Minute), nil},
		{"read again", hashOf("a"), base, nil},
		{"expired", hashOf("old"), base.Add(time.Minute), store.ErrNotFound},
		{"unknown", hashOf("other"), base, store.ErrNotFound},
	} {
		got, err := st.SignInLink(ctx, tt.hash, tt.at)
		if !errors.Is(err, tt.want) || (tt.want == nil && (got.Email != link.Email || got.Next != link.Next || !got.ExpiresAt.Equal(link.ExpiresAt))) {
			t.Errorf("read %s link = %+v, %v; want %v", tt.name, got, err, tt.want)
		}
	}
	got, err := st.TakeSignInLink(ctx, hashOf("a"), base.Add(14*time.Minute))
	if err != nil || !bytes.Equal(got.Hash, link.Hash) || got.Email != link.Email || got.Next != link.Next || !got.ExpiresAt.Equal(link.ExpiresAt) {
		t.Fatalf("take = %+v, %v; want %+v", got, err, link)
	}
	if _, err := st.TakeSignInLink(ctx, hashOf("a"), base); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("second take: %v, want ErrNotFound", err)
	}
	if _, err := st.TakeSignInLink(ctx, hashOf("old"), base.Add(time.Minute)); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("expired link: %v, want ErrNotFound", err)
	}

	// Of links taken at once, each is taken exactly once.
	for i := range 10 {
		l := store.SignInLink{Hash: hashOf(fmt.Sprint("race", i)), Email: "ada@example.com", ExpiresAt: base.Add(time.Hour)}
		if err := st.PutSignInLink(ctx, l); err != nil {
			t.Fatal(err)
		}
	}
	var taken sync.Map
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for i := range 10 {
				if _, err := st.TakeSignInLink(ctx, hashOf(fmt.Sprint("race", i)), base); err == nil {
					if _, again := taken.LoadOrStore(i, true); again {
						t.Errorf("link %d taken twice", i)
					}
				} else if !errors.Is(err, store.ErrNotFound) {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
}

func testSessions(t *testing.T, st store.Store) {
	ctx := context.Background()
	a := newAccount(t, st, "s@example.com")
	s := store.Session{Hash: hashOf("s"), AccountID: a.ID, CreatedAt: base, ExpiresAt: base.Add(time.Hour)}
	if err := st.CreateSession(ctx, s); err != nil {
		t.Fatal(err)
	}
	got, acct, err := st.SessionByHash(ctx, hashOf("s"), base.Add(time.Minute))
	if err != nil || got.AccountID != a.ID || !bytes.Equal(got.Hash, s.Hash) || !got.ExpiresAt.Equal(s.ExpiresAt) ||
		acct.Email != "s@example.com" || acct.Limits != model.InitialLimits {
		t.Fatalf("session = %+v %+v, %v", got, acct, err)
	}
	if _, _, err := st.SessionByHash(ctx, hashOf("s"), base.Add(time.Hour)); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("at expiry: %v, want ErrNotFound", err)
	}
	if err := st.RenewSession(ctx, hashOf("s"), base.Add(3*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := st.SessionByHash(ctx, hashOf("s"), base.Add(2*time.Hour)); err != nil {
		t.Errorf("renewed session: %v", err)
	}
	if err := st.DeleteSession(ctx, hashOf("s")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := st.SessionByHash(ctx, hashOf("s"), base); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("deleted session: %v, want ErrNotFound", err)
	}
	if err := st.DeleteSession(ctx, hashOf("s")); err != nil {
		t.Errorf("deleting a deleted session: %v", err)
	}

	// Sweeping removes what expired, and only that.
	for _, s := range []store.Session{
		{Hash: hashOf("gone"), AccountID: a.ID, CreatedAt: base, ExpiresAt: base.Add(time.Minute)},
		{Hash: hashOf("kept"), AccountID: a.ID, CreatedAt: base, ExpiresAt: base.Add(time.Hour)},
	} {
		if err := st.CreateSession(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.SweepSessions(ctx, base.Add(2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := st.SessionByHash(ctx, hashOf("kept"), base); err != nil {
		t.Errorf("sweep removed a live session: %v", err)
	}
	if _, _, err := st.SessionByHash(ctx, hashOf("gone"), base); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("swept session: %v, want ErrNotFound", err)
	}
}

func testThrottle(t *testing.T, st store.Store) {
	ctx := context.Background()
	start, end := base, base.Add(time.Hour)
	var wg sync.WaitGroup
	var mu sync.Mutex
	allowed := 0
	for range 20 {
		wg.Go(func() {
			ok, err := st.Throttle(ctx, hashOf("k"), start, end, 6)
			if err != nil {
				t.Error(err)
				return
			}
			if ok {
				mu.Lock()
				allowed++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if allowed != 6 {
		t.Errorf("20 simultaneous events under a limit of 6: %d allowed", allowed)
	}
	for _, tt := range []struct {
		name       string
		key        string
		start, end time.Time
		want       bool
	}{
		{"same window", "k", start, end, false},
		{"another key", "other", start, end, true},
		{"next window", "k", end, end.Add(time.Hour), true},
	} {
		if ok, err := st.Throttle(ctx, hashOf(tt.key), tt.start, tt.end, 6); err != nil || ok != tt.want {
			t.Errorf("%s: %v, %v; want %v", tt.name, ok, err, tt.want)
		}
	}
	if err := st.SweepSessions(ctx, end); err != nil {
		t.Fatal(err)
	}
	if ok, err := st.Throttle(ctx, hashOf("k"), start, end, 6); err != nil || !ok {
		t.Errorf("after its window was swept: %v, %v; want a fresh count", ok, err)
	}
}

func testDailyUsage(t *testing.T, st store.Store) {
	ctx := context.Background()
	a := newAccount(t, st, "u@example.com")
	b := newAccount(t, st, "v@example.com")
	day := model.DayOf(base)
	for _, batch := range [][]store.DayUsage{
		{{AccountID: a.ID, Day: day, Requests: 3, Searches: 1}, {AccountID: b.ID, Day: day, Requests: 9}},
		{{AccountID: a.ID, Day: day, Requests: 2}, {AccountID: a.ID, Day: day.AddDate(0, 0, -1), Requests: 7, Searches: 2}},
		{{AccountID: a.ID, Day: day.AddDate(0, 0, -40), Requests: 1}},
		{{AccountID: 999_999, Day: day, Requests: 5}}, // an account deleted meanwhile
	} {
		if err := st.AddDailyUsage(ctx, batch); err != nil {
			t.Fatal(err)
		}
	}
	got, err := st.DailyUsage(ctx, a.ID, day.AddDate(0, 0, -29), day.AddDate(0, 0, 1))
	if err != nil {
		t.Fatal(err)
	}
	want := []store.DayUsage{
		{AccountID: a.ID, Day: day.AddDate(0, 0, -1), Requests: 7, Searches: 2},
		{AccountID: a.ID, Day: day, Requests: 5, Searches: 1},
	}
	if !slices.EqualFunc(got, want, func(x, y store.DayUsage) bool {
		return x.AccountID == y.AccountID && x.Day.Equal(y.Day) && x.Requests == y.Requests && x.Searches == y.Searches
	}) {
		t.Errorf("daily usage = %+v, want %+v", got, want)
	}
}

func testInterests(t *testing.T, st store.Store) {
	ctx := context.Background()
	a := newAccount(t, st, "i@example.com")
	if _, err := st.Interests(ctx, a.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("interests of a new account: %v, want ErrNotFound (none until chosen)", err)
	}
	in := model.Interests{Tags: []string{"funding", "job"}, Frequency: model.Weekly, Since: base.Add(123 * time.Nanosecond)}
	if err := st.PutInterests(ctx, a.ID, in); err != nil {
		t.Fatal(err)
	}
	got, err := st.Interests(ctx, a.ID)
	if err != nil || !slices.Equal(got.Tags, in.Tags) || len(got.Countries) != 0 || got.Frequency != in.Frequency || !got.Since.Equal(in.Since) {
		t.Fatalf("interests = %+v, %v; want %+v", got, err, in)
	}
	in2 := model.Interests{Countries: []string{"canada"}, Frequency: model.Daily, Since: base}
	if err := st.PutInterests(ctx, a.ID, in2); err != nil {
		t.Fatal(err)
	}
	if got, _ := st.Interests(ctx, a.ID); len(got.Tags) != 0 || !slices.Equal(got.Countries, in2.Countries) || got.Frequency != model.Daily {
		t.Errorf("replaced interests = %+v, want %+v", got, in2)
	}
	for range 2 {
		if err := st.DeleteInterests(ctx, a.ID); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := st.Interests(ctx, a.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("deleted interests: %v", err)
	}
}
