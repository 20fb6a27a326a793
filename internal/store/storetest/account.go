package storetest

import (
	"bytes"
	"context"
	"crypto/sha256"
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
	due := func(period string, start time.Time) []string {
		t.Helper()
		targets, err := st.DigestsDue(ctx, model.Daily, period, start, 10)
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
	start := base.Add(time.Hour) // the period begins after the interests were chosen
	if got := due("daily:2026-10-01", start); !slices.Equal(got, []string{"d@example.com"}) {
		t.Fatalf("due = %v", got)
	}
	if got := due("daily:2026-09-30", base.Add(-time.Hour)); len(got) != 0 {
		t.Errorf("due for a period that began before the interests were chosen: %v", got)
	}

	// Of ten replicas claiming at once, one gets the digest.
	now := base
	var wg sync.WaitGroup
	var mu sync.Mutex
	var winners [][]byte
	for i := range 10 {
		wg.Go(func() {
			claim := []byte(fmt.Sprint("claim", i))
			ok, err := st.ClaimDigest(ctx, a.ID, "daily:2026-10-01", claim, now, 10*time.Minute)
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
	// Its lease passes: another may take over, and the first holder's
	// claim is lost.
	if ok, _ := st.ClaimDigest(ctx, a.ID, "daily:2026-10-01", []byte("late"), now.Add(9*time.Minute), time.Minute); ok {
		t.Error("claimed under an unexpired lease")
	}
	if ok, err := st.ClaimDigest(ctx, a.ID, "daily:2026-10-01", []byte("takeover"), now.Add(10*time.Minute), time.Minute); err != nil || !ok {
		t.Fatalf("claim after the lease passed: %v, %v", ok, err)
	}
	if err := st.FinishDigest(ctx, a.ID, "daily:2026-10-01", winners[0], now, now); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("finishing a lost claim: %v, want ErrNotFound", err)
	}
	until := now.Add(10 * time.Minute)
	if err := st.FinishDigest(ctx, a.ID, "daily:2026-10-01", []byte("takeover"), until, until); err != nil {
		t.Fatal(err)
	}
	if got := due("daily:2026-10-01", start); len(got) != 0 {
		t.Errorf("due after it was sent: %v", got)
	}
	if ok, _ := st.ClaimDigest(ctx, a.ID, "daily:2026-10-01", []byte("again"), now.Add(time.Hour), time.Minute); ok {
		t.Error("claimed a finished digest")
	}
	if in, _ := st.Interests(ctx, a.ID); !in.Since.Equal(until) {
		t.Errorf("since = %v, want %v", in.Since, until)
	}
	// A digest finished late, of an earlier period, never moves the
	// interests back.
	if ok, err := st.ClaimDigest(ctx, a.ID, "daily:2026-09-30", []byte("old"), now, time.Minute); err != nil || !ok {
		t.Fatalf("claim of an earlier period: %v, %v", ok, err)
	}
	if err := st.FinishDigest(ctx, a.ID, "daily:2026-09-30", []byte("old"), now, until); err != nil {
		t.Fatal(err)
	}
	if in, _ := st.Interests(ctx, a.ID); !in.Since.Equal(until) {
		t.Errorf("since after an earlier period = %v, want %v", in.Since, until)
	}
	if got := due("daily:2026-10-02", start.Add(24*time.Hour)); !slices.Equal(got, []string{"d@example.com"}) {
		t.Errorf("next period due = %v", got)
	}

	// Unsubscribe tokens find their account.
	if err := st.PutUnsubscribe(ctx, hashOf("u"), a.ID, now); err != nil {
		t.Fatal(err)
	}
	id, stored, err := st.AccountByUnsubscribe(ctx, hashOf("u"))
	if err != nil || id != a.ID || !bytes.Equal(stored, hashOf("u")) {
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
		{"account", func() error { _, err := st.Account(ctx, a.ID); return err }()},
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
	if _, err := st.Account(ctx, other.ID); err != nil {
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
