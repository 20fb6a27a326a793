package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"signals/internal/model"
	"signals/internal/store"
)

// testDigestClaims: a daily digest is due once its period begins after the
// interests were chosen; one replica claims it, under a lease that another
// may take over once it passes; finishing it moves the interests on, never
// back; and unsubscribe tokens find their account.
func testDigestClaims(t *testing.T, st store.Store) {
	ctx := context.Background()
	a := newAccount(t, st, "d@example.com")
	weekly := newAccount(t, st, "w@example.com")
	newAccount(t, st, "none@example.com")
	put := func(id int64, f string) {
		if err := st.PutInterests(ctx, id, model.Interests{Tags: []string{"funding"}, Frequency: f, Since: base}); err != nil {
			t.Fatal(err)
		}
	}
	put(a.ID, model.Daily)
	put(weekly.ID, model.Weekly)
	start := base.Add(time.Hour) // the period begins after the interests were chosen
	checkDailyDigestsDue(t, st, start)
	winner := checkOneOfTenClaimsWins(t, st, a.ID)
	checkLostLeaseCannotFinish(t, st, a.ID, winner)
	checkFinishedDigestIsDone(t, st, a.ID, start)
	checkEarlierPeriodNeverMovesBack(t, st, a.ID, start)
	checkUnsubscribeTokens(t, st, a.ID)
}

// dailyDigestsDue returns the emails of the accounts whose daily digest of
// period is due, checking that each comes with its interests.
func dailyDigestsDue(t *testing.T, st store.Store, period string, start time.Time) []string {
	t.Helper()
	targets, err := st.DigestsDue(context.Background(), model.Daily, period, start, 10)
	if err != nil {
		t.Fatal(err)
	}
	var emails []string
	for _, tg := range targets {
		emails = append(emails, tg.Account.Email)
		if tg.Interests.Frequency != model.Daily || !slices.Equal(tg.Interests.Tags, []string{"funding"}) {
			t.Errorf("target interests %+v", tg.Interests)
		}
	}
	return emails
}

// Only the daily account is due, and only for a period that began after
// its interests were chosen.
func checkDailyDigestsDue(t *testing.T, st store.Store, start time.Time) {
	if got := dailyDigestsDue(t, st, "daily:2026-10-01", start); !slices.Equal(got, []string{"d@example.com"}) {
		t.Fatalf("due = %v", got)
	}
	if got := dailyDigestsDue(t, st, "daily:2026-09-30", base.Add(-time.Hour)); len(got) != 0 {
		t.Errorf("due for a period that began before the interests were chosen: %v", got)
	}
}

// Of ten replicas claiming at once, one gets the digest; its claim is
// returned.
func checkOneOfTenClaimsWins(t *testing.T, st store.Store, account int64) []byte {
	ctx := context.Background()
	now := base
	var wg sync.WaitGroup
	var mu sync.Mutex
	var winners [][]byte
	for i := range 10 {
		wg.Go(func() {
			claim := []byte(fmt.Sprint("claim", i))
			ok, err := st.ClaimDigest(ctx, account, "daily:2026-10-01", claim, now, 10*time.Minute)
			if err != nil {
				t.Error(err)
			}
			if ok {
				mu.Lock()
				winners = append(winners, claim)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(winners) != 1 {
		t.Fatalf("%d claims won, want 1", len(winners))
	}
	return winners[0]
}

// The winner's lease passes: another may take over, and the first holder's
// claim is lost and cannot finish.
func checkLostLeaseCannotFinish(t *testing.T, st store.Store, account int64, winner []byte) {
	ctx := context.Background()
	now := base
	if ok, _ := st.ClaimDigest(ctx, account, "daily:2026-10-01", []byte("late"), now.Add(9*time.Minute), time.Minute); ok {
		t.Error("claimed under an unexpired lease")
	}
	if ok, err := st.ClaimDigest(ctx, account, "daily:2026-10-01", []byte("takeover"), now.Add(10*time.Minute), time.Minute); err != nil || !ok {
		t.Fatalf("claim after the lease passed: %v, %v", ok, err)
	}
	if err := st.FinishDigest(ctx, account, "daily:2026-10-01", winner, now, now); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("finishing a lost claim: %v, want ErrNotFound", err)
	}
}

// The takeover finishes: the digest is no longer due nor claimable, and
// the interests start from when it was sent.
func checkFinishedDigestIsDone(t *testing.T, st store.Store, account int64, start time.Time) {
	ctx := context.Background()
	now := base
	until := now.Add(10 * time.Minute)
	if err := st.FinishDigest(ctx, account, "daily:2026-10-01", []byte("takeover"), until, until); err != nil {
		t.Fatal(err)
	}
	if got := dailyDigestsDue(t, st, "daily:2026-10-01", start); len(got) != 0 {
		t.Errorf("due after it was sent: %v", got)
	}
	if ok, _ := st.ClaimDigest(ctx, account, "daily:2026-10-01", []byte("again"), now.Add(time.Hour), time.Minute); ok {
		t.Error("claimed a finished digest")
	}
	if in, _ := st.Interests(ctx, account); !in.Since.Equal(until) {
		t.Errorf("since = %v, want %v", in.Since, until)
	}
}

// A digest finished late, of an earlier period, never moves the interests
// back, and the next period is due.
func checkEarlierPeriodNeverMovesBack(t *testing.T, st store.Store, account int64, start time.Time) {
	ctx := context.Background()
	now := base
	until := now.Add(10 * time.Minute) // when the later period's digest was sent
	if ok, err := st.ClaimDigest(ctx, account, "daily:2026-09-30", []byte("old"), now, time.Minute); err != nil || !ok {
		t.Fatalf("claim of an earlier period: %v, %v", ok, err)
	}
	if err := st.FinishDigest(ctx, account, "daily:2026-09-30", []byte("old"), now, until); err != nil {
		t.Fatal(err)
	}
	if in, _ := st.Interests(ctx, account); !in.Since.Equal(until) {
		t.Errorf("since after an earlier period = %v, want %v", in.Since, until)
	}
	if got := dailyDigestsDue(t, st, "daily:2026-10-02", start.Add(24*time.Hour)); !slices.Equal(got, []string{"d@example.com"}) {
		t.Errorf("next period due = %v", got)
	}
}

// Unsubscribe tokens find their account; an unknown one finds none.
func checkUnsubscribeTokens(t *testing.T, st store.Store, account int64) {
	ctx := context.Background()
	if err := st.PutUnsubscribe(ctx, hashOf("u"), account, base); err != nil {
		t.Fatal(err)
	}
	id, stored, err := st.AccountByUnsubscribe(ctx, hashOf("u"))
	if err != nil || id != account || !bytes.Equal(stored, hashOf("u")) {
		t.Errorf("unsubscribe token: %d %x %v", id, stored, err)
	}
	if _, _, err := st.AccountByUnsubscribe(ctx, hashOf("x")); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown token: %v", err)
	}
}

func testDeleteAccount(t *testing.T, st store.Store) {
	ctx := context.Background()
	// The account deleted is the newest: SQLite may give its id to the
	// next one.
	other := newAccount(t, st, "stays@example.com")
	a := newAccount(t, st, "gone@example.com")
	key := model.APIKey{ID: "key_gone", AccountID: a.ID, Name: "k", Hint: "sig_x…", CreatedAt: base}
	if err := st.CreateKey(ctx, key, hashOf("key")); err != nil {
		t.Fatal(err)
	}
	steps := []error{
		st.CreateSession(ctx, store.Session{Hash: hashOf("sess"), AccountID: a.ID, CreatedAt: base, ExpiresAt: base.Add(time.Hour)}),
		st.PutSignInLink(ctx, store.SignInLink{Hash: hashOf("link"), Email: "gone@example.com", ExpiresAt: base.Add(time.Hour)}),
		st.PutSignInLink(ctx, store.SignInLink{Hash: hashOf("link2"), Email: "stays@example.com", ExpiresAt: base.Add(time.Hour)}),
		st.PutInterests(ctx, a.ID, model.Interests{Tags: []string{"job"}, Frequency: model.Daily, Since: base}),
		st.AddDailyUsage(ctx, []store.DayUsage{{AccountID: a.ID, Day: model.DayOf(base), Requests: 4}}),
		st.PutUnsubscribe(ctx, hashOf("unsub"), a.ID, base),
	}
	if err := errors.Join(steps...); err != nil {
		t.Fatal(err)
	}
	if _, err := st.TakeRequest(ctx, a.ID, model.InitialLimits, base); err != nil {
		t.Fatal(err)
	}
	if _, err := st.ClaimDigest(ctx, a.ID, "daily:2026-10-01", []byte("c"), base, time.Minute); err != nil {
		t.Fatal(err)
	}

	if err := st.DeleteAccount(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if err := st.DeleteAccount(ctx, a.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("deleting twice: %v, want ErrNotFound", err)
	}
	checks := []struct {
		name string
		err  error
	}{
		{"account", func() error { _, err := st.AccountByEmail(ctx, a.Email); return err }()},
		{"key", func() error { _, _, _, err := st.KeyByHash(ctx, hashOf("key")); return err }()},
		{"session", func() error { _, _, err := st.SessionByHash(ctx, hashOf("sess"), base); return err }()},
		{"sign-in link", func() error { _, err := st.TakeSignInLink(ctx, hashOf("link"), base); return err }()},
		{"interests", func() error { _, err := st.Interests(ctx, a.ID); return err }()},
		{"unsubscribe token", func() error { _, _, err := st.AccountByUnsubscribe(ctx, hashOf("unsub")); return err }()},
	}
	for _, c := range checks {
		if !errors.Is(c.err, store.ErrNotFound) {
			t.Errorf("%s after deletion: %v, want ErrNotFound", c.name, c.err)
		}
	}
	if days, err := st.DailyUsage(ctx, a.ID, base.AddDate(0, 0, -1), base.AddDate(0, 0, 1)); err != nil || len(days) != 0 {
		t.Errorf("daily usage after deletion: %v, %v", days, err)
	}
	if _, err := st.TakeSignInLink(ctx, hashOf("link2"), base); err != nil {
		t.Errorf("another account's link went too: %v", err)
	}
	if _, err := st.AccountByEmail(ctx, other.Email); err != nil {
		t.Errorf("another account went too: %v", err)
	}

	// The email signs up again as a new account, starting from zero.
	again := newAccount(t, st, "gone@example.com")
	if u, err := st.Usage(ctx, again.ID, base); err != nil || u.DayUsed != 0 {
		t.Errorf("the new account's usage = %+v, %v; want none", u, err)
	}
	if keys, err := st.Keys(ctx, again.ID); err != nil || len(keys) != 0 {
		t.Errorf("the new account's keys = %v, %v", keys, err)
	}
}

// Every failure of the account area says which operation failed, and
// ErrNotFound stays matchable through it.
func testAccountErrors(t *testing.T, st store.Store) {
	ctx := context.Background()
	a := newAccount(t, st, "ada@example.com")
	checkOp := func(t *testing.T, err error, op string) {
		t.Helper()
		if want := "store: " + op + ": "; err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%v; want an error starting %q", err, want)
		}
	}
	notFound := []struct {
		op   string
		call func() error
	}{
		{"take sign-in link", func() error { _, err := st.TakeSignInLink(ctx, hashOf("none"), base); return err }},
		{"read sign-in link", func() error { _, err := st.SignInLink(ctx, hashOf("none"), base); return err }},
		{"session by hash", func() error { _, _, err := st.SessionByHash(ctx, hashOf("none"), base); return err }},
		{"delete account", func() error { return st.DeleteAccount(ctx, a.ID+1) }},
		{"interests", func() error { _, err := st.Interests(ctx, a.ID); return err }},
		{"finish digest", func() error { return st.FinishDigest(ctx, a.ID, "p", []byte("c"), base, base) }},
		{"account by unsubscribe token", func() error { _, _, err := st.AccountByUnsubscribe(ctx, hashOf("none")); return err }},
	}
	for _, c := range notFound {
		t.Run("not found/"+c.op, func(t *testing.T) {
			err := c.call()
			if !errors.Is(err, store.ErrNotFound) {
				t.Errorf("%v; want ErrNotFound", err)
			}
			checkOp(t, err, c.op)
		})
	}

	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	now := base
	closed := []struct {
		op   string
		call func() error
	}{
		{"put sign-in link", func() error { return st.PutSignInLink(ctx, store.SignInLink{Hash: hashOf("l")}) }},
		{"take sign-in link", func() error { _, err := st.TakeSignInLink(ctx, hashOf("l"), now); return err }},
		{"read sign-in link", func() error { _, err := st.SignInLink(ctx, hashOf("l"), now); return err }},
		{"create session", func() error { return st.CreateSession(ctx, store.Session{Hash: hashOf("s"), AccountID: a.ID}) }},
		{"session by hash", func() error { _, _, err := st.SessionByHash(ctx, hashOf("s"), now); return err }},
		{"renew session", func() error { return st.RenewSession(ctx, hashOf("s"), now) }},
		{"delete session", func() error { return st.DeleteSession(ctx, hashOf("s")) }},
		{"throttle", func() error { _, err := st.Throttle(ctx, []byte("k"), now, now.Add(time.Minute), 1); return err }},
		{"sweep sessions", func() error { return st.SweepSessions(ctx, now) }},
		{"add daily usage", func() error {
			return st.AddDailyUsage(ctx, []store.DayUsage{{AccountID: a.ID, Day: model.DayOf(now), Requests: 1}})
		}},
		{"daily usage", func() error { _, err := st.DailyUsage(ctx, a.ID, now, now.AddDate(0, 0, 1)); return err }},
		{"delete account", func() error { return st.DeleteAccount(ctx, a.ID) }},
		{"interests", func() error { _, err := st.Interests(ctx, a.ID); return err }},
		{"put interests", func() error { return st.PutInterests(ctx, a.ID, model.Interests{Frequency: model.Daily}) }},
		{"delete interests", func() error { return st.DeleteInterests(ctx, a.ID) }},
		{"digests due", func() error { _, err := st.DigestsDue(ctx, model.Daily, "p", now, 10); return err }},
		{"claim digest", func() error { _, err := st.ClaimDigest(ctx, a.ID, "p", []byte("c"), now, time.Minute); return err }},
		{"finish digest", func() error { return st.FinishDigest(ctx, a.ID, "p", []byte("c"), now, now) }},
		{"put unsubscribe token", func() error { return st.PutUnsubscribe(ctx, hashOf("u"), a.ID, now) }},
		{"account by unsubscribe token", func() error { _, _, err := st.AccountByUnsubscribe(ctx, hashOf("u")); return err }},
	}
	for _, c := range closed {
		t.Run("closed/"+c.op, func(t *testing.T) { checkOp(t, c.call(), c.op) })
	}
}
