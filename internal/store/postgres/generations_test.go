package postgres

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"signals/internal/model"
	"signals/internal/store/postgres/pgtest"
)

// waitUntil polls cond for up to 5 seconds.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("waited 5s for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// generationsListened reports whether the listener holds the generations.
func (db *DB) generationsListened() bool { return db.gens.Load() != nil }

// The generations every request checks come from memory while the
// listener holds them: a change by another process arrives by
// announcement, one by this process is seen by its next request, and
// while the listener is cut off requests read them from the database.
func TestGenerationsFollowAnnouncements(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := pgtest.FreshSchema(t)
	db := open(t, url)
	admin, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	waitUntil(t, "the listener", db.generationsListened)
	signals, credentials, err := db.Generations(ctx)
	if err != nil {
		t.Fatal(err)
	}

	// From memory: with the generation tables locked, a read would wait.
	tx, err := admin.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `LOCK TABLE signal_generation, credential_generation IN ACCESS EXCLUSIVE MODE`); err != nil {
		t.Fatal(err)
	}
	quick, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	s, c, err := db.Generations(quick)
	cancel()
	tx.Rollback(ctx)
	if err != nil || s != signals || c != credentials {
		t.Fatalf("with the tables locked: %d %d %v; want %d %d from memory", s, c, err, signals, credentials)
	}

	// Another process's change arrives by announcement.
	if _, err := admin.Exec(ctx, `UPDATE credential_generation SET n = n + 1`); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the announced credentials' generation", func() bool {
		_, c, err := db.Generations(ctx)
		return err == nil && c == credentials+1
	})

	// This process's change is seen by the very next read.
	now := time.Now()
	acct, err := db.CreateAccount(ctx, "gen@example.com", now)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.CreateKey(ctx, model.APIKey{ID: "k1", AccountID: acct.ID, Name: "k", Hint: "sig_x", CreatedAt: now}, []byte("0123456789abcdef0123456789abcdef")); err != nil {
		t.Fatal(err)
	}
	_, before, _ := db.Generations(ctx)
	if err := db.RevokeKey(ctx, "k1", now); err != nil {
		t.Fatal(err)
	}
	if _, after, err := db.Generations(ctx); err != nil || after <= before {
		t.Errorf("right after a revocation here: credentials' generation %d (%v), was %d", after, err, before)
	}

	// Recording a key's last use moves no generation, and leaves them in
	// memory.
	waitUntil(t, "the generations in memory again", func() bool { _, ok := db.remembered(); return ok })
	if err := db.TouchKey(ctx, "k1", now.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, ok := db.remembered(); !ok {
		t.Error("a key's last-used time marked the generations stale")
	}

	// With the listener cut off, requests read the generations themselves,
	// and the listener comes back.
	pid := db.listener.Load()
	if _, err := admin.Exec(ctx, `SELECT pg_terminate_backend($1)`, int32(pid)); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the listener to notice", func() bool { return !db.generationsListened() || db.listener.Load() != pid })
	if !db.generationsListened() {
		if _, err := admin.Exec(ctx, `UPDATE signal_generation SET n = n + 1`); err != nil {
			t.Fatal(err)
		}
		if s, _, err := db.Generations(ctx); err != nil || s <= signals {
			t.Errorf("without the listener, the signals' generation read %d (%v); want more than %d", s, err, signals)
		}
	}
	waitUntil(t, "the listener to come back", func() bool { return db.generationsListened() && db.listener.Load() != pid })
	latest, _, _ := db.Generations(ctx)
	if _, err := admin.Exec(ctx, `UPDATE signal_generation SET n = n + 1`); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "an announcement to the new listener", func() bool {
		s, _, err := db.Generations(ctx)
		return err == nil && s > latest
	})
}
