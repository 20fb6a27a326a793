package search_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"signals/internal/failure"
	"signals/internal/model"
	"signals/internal/problem"
	"signals/internal/search"
	"signals/internal/store"
	"signals/internal/store/sqlite"
	"signals/internal/store/storetest"
)

// scripted is a scorer whose relevances, failures and timing a test sets.
type scripted struct {
	relevance map[string]float64 // by signal id; others score 0.1
	gate      chan struct{}      // when set, Score waits for it
	started   chan struct{}      // when set, Score signals here first
	err       error
	calls     atomic.Int32
	released  atomic.Int32 // calls of Release
	mu        sync.Mutex
	lastTexts []string
}

func (s *scripted) Model() string { return "scripted" }

func (s *scripted) Release() error {
	s.released.Add(1)
	return nil
}

func (s *scripted) EmbedDocuments(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i := range out {
		out[i] = []float32{1, 0}
	}
	return out, nil
}

func (s *scripted) Score(ctx context.Context, query string, cands []search.Candidate) ([]float64, error) {
	s.calls.Add(1)
	s.mu.Lock()
	s.lastTexts = nil
	for _, c := range cands {
		s.lastTexts = append(s.lastTexts, c.Text)
	}
	s.mu.Unlock()
	if s.started != nil {
		s.started <- struct{}{}
	}
	if s.gate != nil {
		select {
		case <-s.gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if s.err != nil {
		return nil, s.err
	}
	out := make([]float64, len(cands))
	for i, c := range cands {
		out[i] = 0.1
		if r, ok := s.relevance[c.ID]; ok {
			out[i] = r
		}
	}
	return out, nil
}

type env struct {
	svc   *search.Service
	db    *sqlite.DB
	sc    *scripted
	alice model.Account
	bob   model.Account
}

var day = time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)

func newEnv(t *testing.T, signals int) *env {
	t.Helper()
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	var list []model.Signal
	for i := range signals {
		list = append(list, storetest.Sig(fmt.Sprintf("s%03d", i), i))
	}
	storetest.Put(t, db, list...)
	e := &env{db: db, sc: &scripted{relevance: map[string]float64{}}}
	e.svc = &search.Service{Store: db, Scorer: e.sc, Now: func() time.Time { return day },
		Timeout: 5 * time.Second, CacheTTL: 10 * time.Minute, Capacity: 4}
	for _, email := range []string{"alice@example.com", "bob@example.com"} {
		a, err := db.CreateAccount(context.Background(), email, day)
		if err != nil {
			t.Fatal(err)
		}
		if e.alice.ID == 0 {
			e.alice = a
		} else {
			e.bob = a
		}
	}
	return e
}

func req(q string) search.Request {
	return search.Request{Query: search.NormalizeQuery(q), Limit: search.DefaultLimit}
}

func wantCode(t *testing.T, err error, code failure.Code) *failure.Error {
	t.Helper()
	p, ok := failure.As(err)
	if !ok || p.Code != code {
		t.Fatalf("error = %v, want problem %s", err, code)
	}
	return p
}

func TestFreshSearchThenCacheHit(t *testing.T) {
	e := newEnv(t, 10)
	e.sc.relevance = map[string]float64{"s001": 0.9, "s005": 0.97, "s007": 0.85, "s008": 0.8499}
	ctx := context.Background()
	res, err := e.svc.Search(ctx, e.alice, req("humanoid robots"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range res.Matches {
		got = append(got, fmt.Sprintf("%s=%.4f", m.Signal.ID, m.Relevance))
	}
	if want := "s005=0.9700 s001=0.9000 s007=0.8500"; strings.Join(got, " ") != want {
		t.Errorf("matches = %v, want %s (cutoff 0.85 inclusive, best first)", got, want)
	}
	if res.CacheHit || res.SearchesRemaining != 9 || res.CandidatesConsidered != 10 {
		t.Errorf("fresh result: hit=%v remaining=%d considered=%d", res.CacheHit, res.SearchesRemaining, res.CandidatesConsidered)
	}
	if !res.ExpiresAt.Equal(day.Add(10 * time.Minute)) {
		t.Errorf("expires_at = %s", res.ExpiresAt)
	}
	for _, q := range []string{"humanoid robots", "  humanoid \t robots ", "humanoid\nrobots"} {
		res, err = e.svc.Search(ctx, e.bob, req(q))
		if err != nil {
			t.Fatal(err)
		}
		if !res.CacheHit || res.SearchesRemaining != 10 || len(res.Matches) != 3 {
			t.Errorf("%q: hit=%v remaining=%d matches=%d; want a cache hit that reserves nothing", q, res.CacheHit, res.SearchesRemaining, len(res.Matches))
		}
	}
	r := req("humanoid robots")
	r.Limit = 2
	res, _ = e.svc.Search(ctx, e.alice, r)
	if len(res.Matches) != 2 || res.Matches[0].Signal.ID != "s005" {
		t.Errorf("limit 2 from the cache = %d matches", len(res.Matches))
	}
	if e.sc.calls.Load() != 1 {
		t.Errorf("scored %d times, want once", e.sc.calls.Load())
	}
	// A signal hidden after the search disappears from cached answers.
	if err := e.db.SetStatus(ctx, "s005", model.StatusHidden, nil); err != nil {
		t.Fatal(err)
	}
	res, _ = e.svc.Search(ctx, e.alice, req("humanoid robots"))
	if len(res.Matches) != 2 || res.Matches[0].Signal.ID != "s001" {
		t.Errorf("after hiding s005: %d matches, first %s", len(res.Matches), res.Matches[0].Signal.ID)
	}
}

func TestFiltersAreOfTheKey(t *testing.T) {
	e := newEnv(t, 3)
	ctx := context.Background()
	a := req("x")
	b := req("x")
	b.Filter.Tags = []string{"job"}
	if e.svc.Key(a) == e.svc.Key(b) {
		t.Fatal("different filters share a cache key")
	}
	c := req("x")
	c.Filter.ObservedAfter = &model.Time{NS: 1}
	if e.svc.Key(a) == e.svc.Key(c) {
		t.Fatal("observed_after is not part of the cache key")
	}
	e.svc.Search(ctx, e.alice, a)
	e.svc.Search(ctx, e.alice, b)
	if e.sc.calls.Load() != 2 {
		t.Errorf("scored %d times, want 2", e.sc.calls.Load())
	}
}

func TestWindowIsNewest512AndTextIsCut(t *testing.T) {
	e := newEnv(t, 520)
	storetest.Put(t, e.db, storetest.Sig("long", 10_000, func(s *model.Signal) { s.Text = strings.Repeat("é", 1500) }))
	res, err := e.svc.Search(context.Background(), e.alice, req("anything"))
	if err != nil {
		t.Fatal(err)
	}
	if res.CandidatesConsidered != search.WindowSize {
		t.Errorf("considered %d, want %d", res.CandidatesConsidered, search.WindowSize)
	}
	e.sc.mu.Lock()
	defer e.sc.mu.Unlock()
	if first := e.sc.lastTexts[0]; first != strings.Repeat("é", 1000) {
		t.Errorf("newest candidate's text has %d code points, want 1000", model.Chars(first))
	}
}

// outcome is what a search returned.
type outcome struct {
	res search.Result
	err error
}

func TestJoinInFlightReservesNothing(t *testing.T) {
	e := newEnv(t, 5)
	e.sc.relevance = map[string]float64{"s002": 0.95}
	e.sc.gate, e.sc.started = make(chan struct{}), make(chan struct{}, 1)
	ctx := context.Background()
	lead, join := make(chan outcome, 1), make(chan outcome, 1)
	go func() { r, err := e.svc.Search(ctx, e.alice, req("q")); lead <- outcome{r, err} }()
	<-e.sc.started
	go func() { r, err := e.svc.Search(ctx, e.bob, req("  q ")); join <- outcome{r, err} }()
	// The joiner must be waiting on the flight before the leader finishes.
	waitFor(t, func() bool { return e.svc.Waiting("q") == 1 })
	close(e.sc.gate)
	l, j := <-lead, <-join
	if l.err != nil || j.err != nil {
		t.Fatal(l.err, j.err)
	}
	if e.sc.calls.Load() != 1 {
		t.Errorf("scored %d times; the identical search should have joined", e.sc.calls.Load())
	}
	if l.res.SearchesRemaining != 9 || j.res.SearchesRemaining != 10 || j.res.CacheHit || len(j.res.Matches) != 1 {
		t.Errorf("leader remaining=%d, joiner remaining=%d hit=%v matches=%d", l.res.SearchesRemaining, j.res.SearchesRemaining, j.res.CacheHit, len(j.res.Matches))
	}
}

func TestAccountBusyAndServiceBusyConsumeNothing(t *testing.T) {
	e := newEnv(t, 5)
	e.svc.Capacity = 1
	e.sc.gate, e.sc.started = make(chan struct{}), make(chan struct{}, 1)
	ctx := context.Background()
	done := make(chan error, 1)
	go func() { _, err := e.svc.Search(ctx, e.alice, req("first")); done <- err }()
	<-e.sc.started

	_, err := e.svc.Search(ctx, e.alice, req("second"))
	if p := wantCode(t, err, failure.CodeSearchInProgress); problem.Status(p.Code) != 429 {
		t.Errorf("status %d", problem.Status(p.Code))
	}
	_, err = e.svc.Search(ctx, e.bob, req("third"))
	if p := wantCode(t, err, failure.CodeServiceBusy); problem.Status(p.Code) != 503 || p.RetryAfterSeconds == 0 {
		t.Errorf("service busy: %+v", p)
	}
	close(e.sc.gate)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	for _, a := range []model.Account{e.alice, e.bob} {
		u, _ := e.db.Usage(ctx, a.ID, day)
		want := map[int64]int{e.alice.ID: 1, e.bob.ID: 0}[a.ID]
		if u.SearchesUsed != want {
			t.Errorf("%s used %d searches, want %d", a.Email, u.SearchesUsed, want)
		}
	}
}

func TestDailySearchCap(t *testing.T) {
	e := newEnv(t, 5)
	e.alice.Limits.DailySearches = 2
	ctx := context.Background()
	for _, q := range []string{"a", "b"} {
		if _, err := e.svc.Search(ctx, e.alice, req(q)); err != nil {
			t.Fatal(err)
		}
	}
	_, err := e.svc.Search(ctx, e.alice, req("c"))
	p := wantCode(t, err, failure.CodeSearchLimitReached)
	if problem.Status(p.Code) != 429 || p.RetryAfterSeconds != 14*3600 {
		t.Errorf("search cap: status %d retry %v, want 429 and 50400 s to midnight UTC", problem.Status(p.Code), p.RetryAfterSeconds)
	}
	if res, err := e.svc.Search(ctx, e.alice, req("a")); err != nil || !res.CacheHit || res.SearchesRemaining != 0 {
		t.Errorf("a cached search still works at the cap: %+v, %v", res, err)
	}
}

func TestFailureAndTimeoutKeepTheReservation(t *testing.T) {
	ctx := context.Background()
	t.Run("failure", func(t *testing.T) {
		e := newEnv(t, 3)
		e.sc.err = errors.New("model crashed")
		_, err := e.svc.Search(ctx, e.alice, req("q"))
		p := wantCode(t, err, failure.CodeSearchFailed)
		if problem.Status(p.Code) != 503 || strings.Contains(p.Detail, "crashed") {
			t.Errorf("failure problem: %+v", p)
		}
		if u, _ := e.db.Usage(ctx, e.alice.ID, day); u.SearchesUsed != 1 {
			t.Errorf("failed search used %d reservations, want 1", u.SearchesUsed)
		}
		// Failures are not cached: the next attempt searches again.
		e.sc.err = nil
		if res, err := e.svc.Search(ctx, e.alice, req("q")); err != nil || res.CacheHit {
			t.Errorf("after a failure: %+v %v", res, err)
		}
	})
	t.Run("timeout", func(t *testing.T) {
		e := newEnv(t, 3)
		e.svc.Timeout = 50 * time.Millisecond
		e.sc.gate = make(chan struct{}) // never opens
		_, err := e.svc.Search(ctx, e.alice, req("q"))
		p := wantCode(t, err, failure.CodeSearchTimeout)
		if problem.Status(p.Code) != 503 || p.RetryAfterSeconds != 0 {
			t.Errorf("timeout problem: %+v; want 503 without Retry-After", p)
		}
		if u, _ := e.db.Usage(ctx, e.alice.ID, day); u.SearchesUsed != 1 {
			t.Errorf("timed-out search used %d reservations, want 1", u.SearchesUsed)
		}
		if _, err := e.svc.Search(ctx, e.alice, req("other")); err != nil && errors.Is(err, context.DeadlineExceeded) {
			t.Error(err)
		}
	})
}

func TestIndexEmbedsOnce(t *testing.T) {
	e := newEnv(t, 300)
	ctx := context.Background()
	n, err := e.svc.IndexOnce(ctx)
	if err != nil || n != 300 {
		t.Fatalf("first index: %d, %v", n, err)
	}
	if n, _ := e.svc.IndexOnce(ctx); n != 0 {
		t.Errorf("second index embedded %d, want 0", n)
	}
	storetest.Put(t, e.db, storetest.Sig("s001", 1, func(s *model.Signal) { s.Text = "changed" }))
	if n, _ := e.svc.IndexOnce(ctx); n != 1 {
		t.Errorf("after a text change embedded %d, want 1", n)
	}
}

// TestIndexSaysHowFarItIs checks the progress a long pass logs: here
// after every batch of 256.
func TestIndexSaysHowFarItIs(t *testing.T) {
	e := newEnv(t, 600)
	var log bytes.Buffer
	e.svc.Log = slog.New(slog.NewTextHandler(&log, nil))
	e.svc.ProgressEvery = time.Nanosecond
	if n, err := e.svc.IndexOnce(context.Background()); err != nil || n != 600 {
		t.Fatalf("index: %d, %v", n, err)
	}
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], `msg="embedding signals" signals=256`) ||
		!strings.Contains(lines[2], "signals=600") || !strings.Contains(lines[2], "per_second=") {
		t.Errorf("progress log:\n%s", log.String())
	}
}

// TestIndexGivesBackAfterAPass: the background indexer releases the
// scorer's resources for passes, then calls AfterPass, once after a pass
// that embedded signals, and not after one that found nothing to embed.
func TestIndexGivesBackAfterAPass(t *testing.T) {
	e := newEnv(t, 10)
	var passes atomic.Int32
	e.svc.AfterPass = func() {
		// The scorer gives back what it held for the pass first.
		if r, p := e.sc.released.Load(), passes.Load(); r != p+1 {
			t.Errorf("AfterPass %d ran after %d releases of the scorer, want %d", p+1, r, p+1)
		}
		passes.Add(1)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); e.svc.Index(ctx, time.Millisecond) }()
	waitFor(t, func() bool { return passes.Load() == 1 })
	time.Sleep(50 * time.Millisecond) // ticks with nothing new to embed
	if n := passes.Load(); n != 1 {
		t.Errorf("AfterPass ran %d times with nothing new, want once", n)
	}
	storetest.Put(t, e.db, storetest.Sig("s001", 1, func(s *model.Signal) { s.Text = "changed" }))
	waitFor(t, func() bool { return passes.Load() == 2 })
	cancel()
	<-done
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached")
		}
		time.Sleep(time.Millisecond)
	}
}

// otherProcess returns a second service on e's store, as another process
// runs it, with a scorer of its own that scores like e's.
func (e *env) otherProcess() (*search.Service, *scripted) {
	sc := &scripted{relevance: e.sc.relevance}
	return &search.Service{Store: e.db, Scorer: sc, Now: e.svc.Now, Timeout: 5 * time.Second,
		CacheTTL: 10 * time.Minute, Capacity: 4}, sc
}

// Two services on one store behave like two processes on one database: an
// identical search in the second waits for the first's result instead of
// scoring again, and reserves nothing.
func TestJoinAcrossProcesses(t *testing.T) {
	e := newEnv(t, 5)
	e.sc.relevance = map[string]float64{"s003": 0.91}
	e.sc.gate, e.sc.started = make(chan struct{}), make(chan struct{}, 1)
	second, other := e.otherProcess()
	ctx := context.Background()
	lead := make(chan error, 1)
	go func() { _, err := e.svc.Search(ctx, e.alice, req("same")); lead <- err }()
	<-e.sc.started
	joined := make(chan search.Result, 1)
	go func() {
		res, err := second.Search(ctx, e.bob, req("same"))
		if err != nil {
			t.Error(err)
		}
		joined <- res
	}()
	close(e.sc.gate)
	if err := <-lead; err != nil {
		t.Fatal(err)
	}
	res := <-joined
	if other.calls.Load() != 0 {
		t.Errorf("the second process scored %d times; it should have waited for the first", other.calls.Load())
	}
	if res.SearchesRemaining != 10 || len(res.Matches) != 1 {
		t.Errorf("joined across processes: remaining=%d matches=%d", res.SearchesRemaining, len(res.Matches))
	}
}

// failingCache is the store with a cache that cannot be written.
type failingCache struct{ *sqlite.DB }

func (failingCache) PutCachedSearch(context.Context, string, store.CachedSearch) error {
	return errors.New("database is locked")
}

func TestCacheWriteFailureStillAnswers(t *testing.T) {
	e := newEnv(t, 5)
	e.sc.relevance = map[string]float64{"s001": 0.9}
	e.svc.Store = failingCache{e.db}
	ctx := context.Background()
	for i, want := range []int{9, 8} {
		res, err := e.svc.Search(ctx, e.alice, req("q"))
		if err != nil || len(res.Matches) != 1 || res.CacheHit || res.SearchesRemaining != want {
			t.Fatalf("search %d: %+v, %v; want an answer that could not be cached", i, res, err)
		}
	}
}

// A leader whose client leaves while its search waits for another process's
// identical search abandons the flight: its joiner goes on by itself and
// gets the other process's result, not the leader's cancellation.
func TestLeaderLeavingBeforeItsSearchDoesNotFailJoiners(t *testing.T) {
	e := newEnv(t, 5)
	e.sc.relevance = map[string]float64{"s003": 0.91}
	e.sc.gate, e.sc.started = make(chan struct{}), make(chan struct{}, 1)
	second, other := e.otherProcess()
	carol, err := e.db.CreateAccount(context.Background(), "carol@example.com", day)
	if err != nil {
		t.Fatal(err)
	}
	first := make(chan error, 1)
	go func() { _, err := e.svc.Search(context.Background(), e.alice, req("same")); first <- err }()
	<-e.sc.started // the first process runs the search

	leaderCtx, leave := context.WithCancel(context.Background())
	lead := make(chan error, 1)
	go func() { _, err := second.Search(leaderCtx, e.bob, req("same")); lead <- err }()
	waitFor(t, func() bool { return second.InFlight("same") })
	joined := make(chan outcome, 1)
	go func() {
		res, err := second.Search(context.Background(), carol, req("same"))
		joined <- outcome{res, err}
	}()
	waitFor(t, func() bool { return second.Waiting("same") == 1 })
	leave()
	if err := <-lead; !errors.Is(err, context.Canceled) {
		t.Errorf("the leader whose client left: %v, want context.Canceled", err)
	}
	close(e.sc.gate)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	j := <-joined
	if j.err != nil || len(j.res.Matches) != 1 || j.res.SearchesRemaining != 10 {
		t.Fatalf("joiner: %+v, %v; want the first process's result, nothing reserved", j.res, j.err)
	}
	if other.calls.Load() != 0 {
		t.Errorf("the second process scored %d times", other.calls.Load())
	}
}

// A leader whose client leaves once its search runs does not stop it: the
// search is paid for, its joiners get its result and it is cached. The
// leader's error is its client's cancellation, and nothing is logged as an
// error.
func TestLeaderLeavingDuringItsSearchDoesNotFailJoiners(t *testing.T) {
	e := newEnv(t, 5)
	var logs strings.Builder
	e.svc.Log = slog.New(slog.NewTextHandler(&logs, nil))
	e.sc.relevance = map[string]float64{"s002": 0.95}
	e.sc.gate, e.sc.started = make(chan struct{}), make(chan struct{}, 1)
	leaderCtx, leave := context.WithCancel(context.Background())
	lead, join := make(chan outcome, 1), make(chan outcome, 1)
	go func() { r, err := e.svc.Search(leaderCtx, e.alice, req("q")); lead <- outcome{r, err} }()
	<-e.sc.started
	go func() { r, err := e.svc.Search(context.Background(), e.bob, req("q")); join <- outcome{r, err} }()
	waitFor(t, func() bool { return e.svc.Waiting("q") == 1 })
	leave()
	close(e.sc.gate)
	l, j := <-lead, <-join
	if !errors.Is(l.err, context.Canceled) {
		t.Errorf("the leader whose client left: %v, want context.Canceled", l.err)
	}
	if j.err != nil || len(j.res.Matches) != 1 || j.res.CacheHit || j.res.SearchesRemaining != 10 {
		t.Errorf("joiner: %+v, %v; want the leader's result", j.res, j.err)
	}
	if res, err := e.svc.Search(context.Background(), e.bob, req("q")); err != nil || !res.CacheHit {
		t.Errorf("after: %+v, %v; want the result cached", res, err)
	}
	if u, _ := e.db.Usage(context.Background(), e.alice.ID, day); u.SearchesUsed != 1 {
		t.Errorf("the leader's account used %d searches, want 1", u.SearchesUsed)
	}
	if strings.Contains(logs.String(), "level=ERROR") {
		t.Errorf("logged an error:\n%s", logs.String())
	}
}

// claimHook is the real store with one interleaving forced: hook runs
// before the first claim of a search, as another process's search might
// finish and let go of its claim just then.
type claimHook struct {
	*sqlite.DB
	once sync.Once
	hook func()
}

func (c *claimHook) ClaimSearch(ctx context.Context, key string, now time.Time, lease time.Duration) (func(), bool, error) {
	c.once.Do(c.hook)
	return c.DB.ClaimSearch(ctx, key, now, lease)
}

// A search that finds no result, then gets the claim because another
// process's identical search has just cached its result and let go, takes
// that result as a join: it neither scores nor reserves.
func TestClaimAfterAnotherProcessFinishedJoinsItsResult(t *testing.T) {
	e := newEnv(t, 5)
	e.sc.relevance = map[string]float64{"s003": 0.91}
	second, other := e.otherProcess()
	second.Store = &claimHook{DB: e.db, hook: func() {
		if _, err := e.svc.Search(context.Background(), e.alice, req("same")); err != nil {
			t.Error(err)
		}
	}}
	res, err := second.Search(context.Background(), e.bob, req("same"))
	if err != nil || len(res.Matches) != 1 || res.SearchesRemaining != 10 {
		t.Fatalf("second process: %+v, %v; want the first process's result, nothing reserved", res, err)
	}
	if other.calls.Load() != 0 {
		t.Errorf("the second process scored %d times", other.calls.Load())
	}
	if u, _ := e.db.Usage(context.Background(), e.bob.ID, day); u.SearchesUsed != 0 {
		t.Errorf("bob's account used %d searches, want 0", u.SearchesUsed)
	}
}

// failingCandidates is the store of env whose candidate reads fail with err.
type failingCandidates struct {
	*sqlite.DB
	err error
}

func (f failingCandidates) Candidates(context.Context, model.Filter, string, int, int) ([]store.Candidate, error) {
	return nil, f.err
}

// TestUnreachableDatabaseBeforeScoringReturnsTheReservation: a search whose
// candidates cannot be read because the database cannot be reached was
// never scored, and costs no search; any other failure keeps its
// reservation.
func TestUnreachableDatabaseBeforeScoringReturnsTheReservation(t *testing.T) {
	dropped := errors.New("connection dropped")
	tests := []struct {
		name     string
		err      error
		wantCode failure.Code // empty: the store's error itself
		wantUsed int
	}{
		{"database unreachable", fmt.Errorf("store: search candidates: %w", dropped), "", 0},
		{"candidates unreadable", errors.New("store: search candidates: a stored vector is not a REAL[]"), failure.CodeSearchFailed, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			e := newEnv(t, 3)
			e.svc.Store = failingCandidates{DB: e.db, err: tt.err}
			e.svc.Unreachable = func(err error) bool { return errors.Is(err, dropped) }
			_, err := e.svc.Search(ctx, e.alice, req("q"))
			if tt.wantCode != "" {
				wantCode(t, err, tt.wantCode)
			} else if !errors.Is(err, dropped) {
				t.Fatalf("error = %v, want the store's", err)
			}
			if u, _ := e.db.Usage(ctx, e.alice.ID, day); u.SearchesUsed != tt.wantUsed {
				t.Errorf("searches used %d, want %d", u.SearchesUsed, tt.wantUsed)
			}
		})
	}
}
