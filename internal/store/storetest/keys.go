// Package storetest is the behaviour every store implementation must have:
// one suite that the SQLite and PostgreSQL stores both run.
package storetest

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"signals/internal/model"
	"signals/internal/store"
)

func testAccountsAndKeys(t *testing.T, st store.Store) {
	ctx := context.Background()
	now := base
	a, err := st.CreateAccount(ctx, "Ada@Example.com", now)
	if err != nil {
		t.Fatal(err)
	}
	if a.Limits != model.InitialLimits || a.Email != "ada@example.com" {
		t.Errorf("new account = %+v", a)
	}
	if _, err := st.CreateAccount(ctx, "ada@example.com", now); !errors.Is(err, store.ErrExists) {
		t.Errorf("duplicate email: %v, want ErrExists", err)
	}
	got, err := st.AccountByEmail(ctx, "ADA@example.com")
	if err != nil || got.ID != a.ID {
		t.Fatalf("AccountByEmail = %+v, %v", got, err)
	}
	l := model.Limits{DailyRequests: 5, MinuteRequests: 2, DailySearches: 1, ConcurrentSearches: 3}
	if err := st.SetLimits(ctx, a.ID, l); err != nil {
		t.Fatal(err)
	}
	if got, _ := st.AccountByEmail(ctx, a.Email); got.Limits != l {
		t.Errorf("limits = %+v, want %+v", got.Limits, l)
	}
	hash := []byte("0123456789abcdef0123456789abcdef")
	k := model.APIKey{ID: "key_1", AccountID: a.ID, Name: "laptop", Hint: "sig_abc…", CreatedAt: now}
	if err := st.CreateKey(ctx, k, hash); err != nil {
		t.Fatal(err)
	}
	key, stored, acct, err := st.KeyByHash(ctx, hash)
	if err != nil || key.ID != "key_1" || acct.ID != a.ID || string(stored) != string(hash) || acct.Limits != l {
		t.Fatalf("KeyByHash = %+v %+v, %v", key, acct, err)
	}
	if err := st.TouchKey(ctx, "key_1", now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	keys, err := st.Keys(ctx, a.ID)
	if err != nil || len(keys) != 1 || keys[0].LastUsed == nil || !keys[0].LastUsed.Equal(now.Add(time.Hour)) {
		t.Fatalf("Keys = %+v, %v", keys, err)
	}
	if err := st.RenameKey(ctx, a.ID, "key_1", "work laptop"); err != nil {
		t.Fatal(err)
	}
	if key, _, _, err := st.KeyByHash(ctx, hash); err != nil || key.Name != "work laptop" {
		t.Errorf("renamed key = %+v, %v", key, err)
	}
	if err := st.RenameKey(ctx, a.ID+1000, "key_1", "stolen"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("rename by another account = %v, want ErrNotFound", err)
	}
	if err := st.RenameKey(ctx, a.ID, "key_none", "x"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("rename of an unknown key = %v, want ErrNotFound", err)
	}
	revokedAt := now.Add(2 * time.Hour)
	if err := st.RevokeKey(ctx, "key_1", revokedAt); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := st.KeyByHash(ctx, hash); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("revoked key still found: %v", err)
	}
	if err := st.RevokeKey(ctx, "key_1", now); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("second revoke = %v, want ErrNotFound", err)
	}
	if err := st.RenameKey(ctx, a.ID, "key_1", "again"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("rename of a revoked key = %v, want ErrNotFound", err)
	}
	// A revoked key stays listed, marked with its revocation.
	keys, err = st.Keys(ctx, a.ID)
	if err != nil || len(keys) != 1 || keys[0].Name != "work laptop" || keys[0].RevokedAt == nil || !keys[0].RevokedAt.Equal(revokedAt) {
		t.Errorf("Keys after revoking = %+v, %v", keys, err)
	}
}

func testKeyConflicts(t *testing.T, st store.Store) {
	ctx := context.Background()
	a := newAccount(t, st, "keys@example.com")
	k := model.APIKey{ID: "key_1", AccountID: a.ID, Name: "laptop", Hint: "sig_abc…", CreatedAt: base}
	if err := st.CreateKey(ctx, k, []byte("hash-1")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		key  model.APIKey
		hash string
		want error
	}{
		{"id taken", model.APIKey{ID: "key_1", AccountID: a.ID, CreatedAt: base}, "hash-2", store.ErrExists},
		{"hash taken", model.APIKey{ID: "key_2", AccountID: a.ID, CreatedAt: base}, "hash-1", store.ErrExists},
		{"no such account", model.APIKey{ID: "key_3", AccountID: a.ID + 1000, CreatedAt: base}, "hash-3", store.ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := st.CreateKey(ctx, tt.key, []byte(tt.hash)); !errors.Is(err, tt.want) {
				t.Errorf("CreateKey = %v, want %v", err, tt.want)
			}
		})
	}
	if keys, err := st.Keys(ctx, a.ID); err != nil || len(keys) != 1 {
		t.Errorf("Keys = %+v, %v; want the first key alone", keys, err)
	}
}

// Uses may be reported out of order (by several processes): the latest
// one stays.
func testTouchKeyOrder(t *testing.T, st store.Store) {
	ctx := context.Background()
	a := newAccount(t, st, "touch@example.com")
	if err := st.CreateKey(ctx, model.APIKey{ID: "key_t", AccountID: a.ID, CreatedAt: base}, []byte("hash-t")); err != nil {
		t.Fatal(err)
	}
	for _, at := range []time.Time{base.Add(2 * time.Hour), base.Add(time.Hour)} {
		if err := st.TouchKey(ctx, "key_t", at); err != nil {
			t.Fatal(err)
		}
	}
	keys, err := st.Keys(ctx, a.ID)
	if err != nil || len(keys) != 1 || keys[0].LastUsed == nil || !keys[0].LastUsed.Equal(base.Add(2*time.Hour)) {
		t.Errorf("Keys = %+v, %v; want last used at the later time", keys, err)
	}
}

// The credentials' generation moves whenever what a key authenticates as
// may have changed, and not when a key's use is recorded; the signals'
// generation read with it is Generation's.
func testCredentialGeneration(t *testing.T, st store.Store) {
	ctx := context.Background()
	a := newAccount(t, st, "gen@example.com")
	if err := st.CreateKey(ctx, model.APIKey{ID: "key_g", AccountID: a.ID, CreatedAt: base}, []byte("hash-g")); err != nil {
		t.Fatal(err)
	}
	Put(t, st, Sig("g1", 1))
	read := func() (int64, int64) {
		t.Helper()
		signals, credentials, err := st.Generations(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if g, err := st.Generation(ctx); err != nil || g != signals {
			t.Fatalf("Generations read signals %d, Generation %d (%v)", signals, g, err)
		}
		return signals, credentials
	}
	steps := []struct {
		name  string
		moves bool
		do    func() error
	}{
		{"touch key", false, func() error { return st.TouchKey(ctx, "key_g", base.Add(time.Hour)) }},
		{"import", false, func() error { Put(t, st, Sig("g2", 2)); return nil }},
		{"set limits", true, func() error {
			return st.SetLimits(ctx, a.ID, model.Limits{DailyRequests: 9, MinuteRequests: 3, DailySearches: 1, ConcurrentSearches: 1})
		}},
		{"rename key", false, func() error { return st.RenameKey(ctx, a.ID, "key_g", "renamed") }},
		{"revoke key", true, func() error { return st.RevokeKey(ctx, "key_g", base.Add(2*time.Hour)) }},
		{"delete account", true, func() error { return st.DeleteAccount(ctx, a.ID) }},
	}
	for _, step := range steps {
		_, before := read()
		if err := step.do(); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		if _, after := read(); (after != before) != step.moves {
			t.Errorf("%s: credentials' generation %d → %d, want moved=%v", step.name, before, after, step.moves)
		}
	}
}

// Every failure says which operation failed, and stays matchable.
func testErrorsNameTheOperation(t *testing.T, st store.Store) {
	ctx := context.Background()
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	now := base
	calls := []struct {
		op   string
		call func() error
	}{
		{"ping", func() error { return st.Ping(ctx) }},
		{"list signals", func() error { _, _, err := st.ListSignals(ctx, model.ListQuery{Page: 1, PageSize: 5}); return err }},
		{"get signal", func() error { _, err := st.GetSignal(ctx, "a"); return err }},
		{"count signals", func() error { _, err := st.CountSignals(ctx); return err }},
		{"read generation", func() error { _, err := st.Generation(ctx); return err }},
		{"read generations", func() error { _, _, err := st.Generations(ctx); return err }},
		{"begin import", func() error { _, err := st.BeginImport(ctx, ""); return err }},
		{"set status", func() error { return st.SetStatus(ctx, "a", model.StatusHidden, nil) }},
		{"create account", func() error { _, err := st.CreateAccount(ctx, "e@example.com", now); return err }},
		{"account by email", func() error { _, err := st.AccountByEmail(ctx, "e@example.com"); return err }},
		{"set limits", func() error { return st.SetLimits(ctx, 1, model.InitialLimits) }},
		{"create key", func() error { return st.CreateKey(ctx, model.APIKey{ID: "k", AccountID: 1}, []byte("h")) }},
		{"list keys", func() error { _, err := st.Keys(ctx, 1); return err }},
		{"revoke key", func() error { return st.RevokeKey(ctx, "k", now) }},
		{"rename key", func() error { return st.RenameKey(ctx, 1, "k", "n") }},
		{"key by hash", func() error { _, _, _, err := st.KeyByHash(ctx, []byte("h")); return err }},
		{"touch key", func() error { return st.TouchKey(ctx, "k", now) }},
		{"take request", func() error { _, err := st.TakeRequest(ctx, 1, model.InitialLimits, now); return err }},
		{"read usage", func() error { _, err := st.Usage(ctx, 1, now); return err }},
		{"reserve search", func() error { _, err := st.ReserveSearch(ctx, 1, 10, now); return err }},
		{"search candidates", func() error { _, err := st.Candidates(ctx, model.Filter{}, "m", 10, 10); return err }},
		{"signal vector", func() error { _, err := st.SignalVector(ctx, "a", "m"); return err }},
		{"signals by id", func() error { _, err := st.SignalsByID(ctx, []string{"a"}, 10); return err }},
		{"signals needing vectors", func() error { _, err := st.SignalsNeedingVectors(ctx, "m", 10, 10, nil); return err }},
		{"put vectors", func() error { return st.PutVectors(ctx, "m", map[string][]float32{"a": {1}}) }},
		{"cached search", func() error { _, _, err := st.CachedSearch(ctx, "k", now); return err }},
		{"put cached search", func() error { return st.PutCachedSearch(ctx, "k", store.CachedSearch{ExpiresAt: now}) }},
	}
	for _, c := range calls {
		t.Run(c.op, func(t *testing.T) {
			err := c.call()
			if want := "store: " + c.op + ": "; err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("on a closed store: %v; want an error starting %q", err, want)
			}
		})
	}
}
