package search

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/text/unicode/norm"

	"signals/internal/failure"
	"signals/internal/model"
	"signals/internal/store"
)

// Limits of the search flow.
const (
	// MaxMatches is the most matches a search returns and caches.
	MaxMatches = 50
	// DefaultLimit is the number of matches returned when none is asked.
	DefaultLimit = 20
)

// Request is a validated search.
type Request struct {
	// Query is normalised: NFC, trimmed, inner whitespace folded to one space.
	Query  string
	Filter model.Filter
	Limit  int
}

// Result is what a search found, for one account.
type Result struct {
	Matches              []Matched
	CacheHit             bool
	SearchesRemaining    int
	CandidatesConsidered int
	SearchedAt           time.Time
	ExpiresAt            time.Time

	fresh bool // this request ran the search (for the Observer)
}

// Spent reports whether this request used one of the account's daily
// searches: false for an answer from the cache or joined to another
// request's search.
func (r Result) Spent() bool { return r.fresh }

// Matched is one signal that reached the cutoff, Text cut to CandidateChars.
type Matched struct {
	Signal    model.Signal
	Relevance float64
	// Why lists why it matched, when the scorer is an Explainer.
	Why []string
}

// Service runs searches under the contract's flow: cache, joins, per-account
// concurrency, global model capacity, daily reservations, then scoring.
type Service struct {
	Store interface {
		store.Searches
		store.Quotas
		Generation(ctx context.Context) (int64, error)
	}
	Scorer Scorer
	Now    func() time.Time
	Log    *slog.Logger
	// Failed, when set, is told of each failed run of a background job
	// instead of the log (the app counts them and logs an outage once).
	Failed func(op string, err error)
	// Timeout bounds one fresh search.
	Timeout time.Duration
	// CacheTTL is how long a result serves identical searches.
	CacheTTL time.Duration
	// Capacity is how many fresh searches this process scores at once.
	Capacity int
	// Observer, when set, learns how searches end (metrics).
	Observer Observer
	// ProgressEvery is how often a long indexing pass logs how far it is
	// (30 seconds when 0).
	ProgressEvery time.Duration
	// AfterPass, when set, is called after an indexing pass that embedded
	// signals, once the scorer has released what it held for the pass (see
	// Releaser), to give back to the system the memory the pass took.
	AfterPass func()
	// Unreachable, when set, tells the store errors that mean the database
	// cannot be reached: a search that fails so before it is scored gives
	// its reservation back.
	Unreachable func(error) bool

	once     sync.Once
	capacity chan struct{}
	mu       sync.Mutex
	flights  map[string]*flight
}

// flight is a fresh search in progress that identical searches join.
//
// Its outcome is its joiners' only once it is a search: once its leader
// has reserved it, or found the result of another process's identical
// search. From the reservation on it runs detached from the leader's
// client, bounded by Timeout: it is paid for, its joiners wait for it and
// its result serves later identical searches from the cache. Before that,
// nothing is paid: when the leader is refused (busy, no reservation left),
// fails, or its client leaves, the flight is not shared and its joiners go
// through the flow themselves (one of them leads, on its own account).
type flight struct {
	done    chan struct{}
	waiters int // guarded by Service.mu
	shared  bool
	result  store.CachedSearch
	err     error
}

func (s *Service) init() {
	s.once.Do(func() {
		s.capacity = make(chan struct{}, max(s.Capacity, 1))
		s.flights = map[string]*flight{}
	})
}

// NormalizeQuery is the form of a query that scoring and the cache key use.
func NormalizeQuery(q string) string {
	return strings.Join(strings.Fields(norm.NFC.String(q)), " ")
}

// Key identifies identical searches: same scorer, normalised query, sorted
// filters and observed_after. The limit is not part of it: results are
// cached up to MaxMatches and sliced.
func (s *Service) Key(r Request) string {
	var after int64
	if r.Filter.ObservedAfter != nil {
		after = r.Filter.ObservedAfter.NS
	}
	b, _ := json.Marshal([]any{s.Scorer.Model(), r.Query, model.Sorted(r.Filter.Tags),
		model.Sorted(r.Filter.Sources), model.Sorted(r.Filter.Languages),
		model.Sorted(r.Filter.Countries), r.Filter.ObservedAfter != nil, after})
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// Search answers r for acct. If ctx ends first (the client left), the error
// is ctx's, whatever failed because of it.
func (s *Service) Search(ctx context.Context, acct model.Account, r Request) (Result, error) {
	res, err := s.search(ctx, acct, r)
	if err != nil && ctx.Err() != nil {
		return Result{}, ctx.Err()
	}
	s.observe(res, err)
	return res, err
}

func (s *Service) search(ctx context.Context, acct model.Account, r Request) (Result, error) {
	s.init()
	key := s.Key(r)
	for {
		cached, ok, err := s.Store.CachedSearch(ctx, key, s.Now())
		if err != nil {
			return Result{}, err
		}
		if ok {
			return s.answer(ctx, acct, r, cached, true, nil)
		}
		s.mu.Lock()
		if f, ok := s.flights[key]; ok {
			f.waiters++
			s.mu.Unlock()
			select {
			case <-f.done:
			case <-ctx.Done():
				return Result{}, ctx.Err()
			}
			if !f.shared {
				continue
			}
			if f.err != nil {
				return Result{}, f.err
			}
			return s.answer(ctx, acct, r, f.result, false, nil)
		}
		f := &flight{done: make(chan struct{})}
		s.flights[key] = f
		s.mu.Unlock()

		result, usage, err := s.claim(ctx, acct, r, key, f)
		s.mu.Lock()
		delete(s.flights, key)
		s.mu.Unlock()
		f.result, f.err = result, err
		close(f.done)
		if err != nil {
			return Result{}, err
		}
		return s.answer(ctx, acct, r, result, false, usage)
	}
}

// pollEvery is how often a search waiting on another process's identical
// search looks for its result.
const pollEvery = 50 * time.Millisecond

// lease bounds how long a claim or a concurrency slot outlives a process
// that died while holding it: a search never runs longer than Timeout.
func (s *Service) lease() time.Duration { return s.Timeout + 5*time.Second }

// claim makes this process the one running key, or waits for the process
// that is: its result in the cache answers this search as a join (usage is
// nil then: nothing was reserved). If that process stops without a result,
// this one claims the search itself.
func (s *Service) claim(ctx context.Context, acct model.Account, r Request, key string, f *flight) (store.CachedSearch, *model.Usage, error) {
	for {
		release, ok, err := s.Store.ClaimSearch(ctx, key, s.Now(), s.lease())
		if err != nil {
			return store.CachedSearch{}, nil, err
		}
		if ok {
			// The process that held the claim may have cached its result
			// and let go since this one last looked: then it is a join.
			cached, hit, err := s.Store.CachedSearch(ctx, key, s.Now())
			if err != nil || hit {
				release()
				f.shared = hit
				return cached, nil, err
			}
			defer release()
			result, usage, err := s.lead(ctx, acct, r, key, f)
			return result, &usage, err
		}
		t := time.NewTimer(pollEvery)
		select {
		case <-ctx.Done():
			t.Stop()
			return store.CachedSearch{}, nil, ctx.Err()
		case <-t.C:
		}
		cached, hit, err := s.Store.CachedSearch(ctx, key, s.Now())
		if err != nil {
			return store.CachedSearch{}, nil, err
		}
		if hit {
			f.shared = true
			return cached, nil, nil
		}
	}
}

// lead runs a fresh search for key: it takes the account's slot, a share of
// the model's capacity and a daily reservation, in that order; when any of
// them is refused nothing is consumed and the flight is not shared.
func (s *Service) lead(ctx context.Context, acct model.Account, r Request, key string, f *flight) (store.CachedSearch, model.Usage, error) {
	now := s.Now()
	refuse := func(err error) (store.CachedSearch, model.Usage, error) {
		return store.CachedSearch{}, model.Usage{}, err
	}
	release, ok, err := s.Store.AcquireSearchSlot(ctx, acct.ID, acct.Limits.ConcurrentSearches, now, s.lease())
	if err != nil {
		return refuse(err)
	}
	if !ok {
		return refuse(failure.New(failure.CodeSearchInProgress,
			fmt.Sprintf("the account already runs %d semantic search at a time; wait for it to finish", acct.Limits.ConcurrentSearches)))
	}
	defer release()
	select {
	case s.capacity <- struct{}{}:
		defer func() { <-s.capacity }()
	default:
		return refuse(failure.New(failure.CodeServiceBusy,
			"the search model is at capacity; nothing was counted against the search allowance").WithRetryAfter(2))
	}
	usage, err := s.Store.ReserveSearch(ctx, acct.ID, acct.Limits.DailySearches, now)
	if err != nil {
		return refuse(err)
	}
	if usage.Denied != "" {
		wait := model.SecondsUntil(now, usage.DayStart.Add(24*time.Hour))
		return refuse(failure.New(failure.CodeSearchLimitReached,
			fmt.Sprintf("the account's %d fresh semantic searches of this UTC day are used; cached and joined searches still work", acct.Limits.DailySearches)).
			WithRetryAfter(wait))
	}
	// The reservation is consumed from here on, whatever happens (but for
	// an unreachable database before scoring), and the search is its
	// joiners' too: it outlives the leader's client.
	f.shared = true
	runCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.Timeout)
	defer cancel()
	started := time.Now()
	cands, err := s.Store.Candidates(runCtx, r.Filter, s.Scorer.Model(), CandidateChars, WindowSize)
	if err != nil && s.Unreachable != nil && s.Unreachable(err) {
		// Nothing was scored: the database, not the search, failed (its
		// connection was retried already), so the search costs nothing.
		if _, rerr := s.Store.ReturnSearch(context.WithoutCancel(ctx), acct.ID, now, s.Now()); rerr != nil && s.Log != nil {
			s.Log.Warn("returning a search reservation", "err", rerr)
		}
		return store.CachedSearch{}, model.Usage{}, err
	}
	var result store.CachedSearch
	if err == nil {
		result, err = s.run(runCtx, r, key, cands)
	}
	if s.Observer != nil {
		s.Observer.Scored(time.Since(started))
	}
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return result, usage, failure.New(failure.CodeSearchTimeout,
				"the semantic search timed out; its reservation is used. Do not retry it automatically")
		}
		if s.Log != nil {
			s.Log.Error("semantic search failed", "err", err)
		}
		return result, usage, failure.New(failure.CodeSearchFailed,
			"the semantic search failed; its reservation is used")
	}
	return result, usage, nil
}

// run scores the candidate window cands and caches the matches.
func (s *Service) run(ctx context.Context, r Request, key string, cands []store.Candidate) (store.CachedSearch, error) {
	sc := make([]Candidate, len(cands))
	for i, c := range cands {
		sc[i] = Candidate{ID: c.Signal.ID, Text: c.Signal.Text, Vector: c.Vector, Tag: c.Signal.Tag, Country: c.Signal.Country}
	}
	scores, err := s.Scorer.Score(ctx, r.Query, sc)
	if err != nil {
		return store.CachedSearch{}, err
	}
	if err := ctx.Err(); err != nil {
		return store.CachedSearch{}, err
	}
	var matches []store.Match
	at := map[string]int{} // index in sc of each match
	for i, score := range scores {
		if score >= Cutoff {
			// Shown to four decimals, rounded down so that a shown 0.8500
			// was really at or above the cutoff.
			matches = append(matches, store.Match{ID: cands[i].Signal.ID, Relevance: math.Floor(score*1e4) / 1e4})
			at[cands[i].Signal.ID] = i
		}
	}
	// Best first; the window's order (newest first) breaks ties.
	slices.SortStableFunc(matches, func(a, b store.Match) int {
		switch {
		case a.Relevance > b.Relevance:
			return -1
		case a.Relevance < b.Relevance:
			return 1
		}
		return 0
	})
	if len(matches) > MaxMatches {
		matches = matches[:MaxMatches]
	}
	if ex, ok := s.Scorer.(Explainer); ok && len(matches) > 0 {
		sub := make([]Candidate, len(matches))
		for i, m := range matches {
			sub[i] = sc[at[m.ID]]
		}
		why, err := ex.Explain(ctx, r.Query, sub)
		if err != nil {
			return store.CachedSearch{}, err
		}
		for i := range matches {
			matches[i].Matched = why[i]
		}
	}
	now := s.Now()
	result := store.CachedSearch{Matches: matches, CandidatesConsidered: len(cands),
		SearchedAt: now.UTC(), ExpiresAt: now.Add(s.CacheTTL).UTC()}
	// The search succeeded whether or not its result could be cached: a
	// failed cache write (the database busy with a large import, say) costs
	// later identical searches a fresh run, not this one its answer.
	if err := s.Store.PutCachedSearch(ctx, key, result); err != nil && s.Log != nil {
		s.Log.Warn("caching a search result", "err", err)
	}
	return result, nil
}

// answer turns a search outcome into the account's result: it reads the
// matched signals (dropping any that stopped being public) and the
// account's remaining searches.
func (s *Service) answer(ctx context.Context, acct model.Account, r Request, c store.CachedSearch, hit bool, usage *model.Usage) (Result, error) {
	res := Result{CacheHit: hit, CandidatesConsidered: c.CandidatesConsidered,
		SearchedAt: c.SearchedAt, ExpiresAt: c.ExpiresAt, fresh: usage != nil}
	if usage == nil {
		u, err := s.Store.Usage(ctx, acct.ID, s.Now())
		if err != nil {
			return res, err
		}
		usage = &u
	}
	res.SearchesRemaining = max(acct.Limits.DailySearches-usage.SearchesUsed, 0)
	matches := c.Matches
	ids := make([]string, len(matches))
	for i, m := range matches {
		ids[i] = m.ID
	}
	signals, err := s.Store.SignalsByID(ctx, ids, CandidateChars)
	if err != nil {
		return res, err
	}
	byID := make(map[string]model.Signal, len(signals))
	for _, sig := range signals {
		byID[sig.ID] = sig
	}
	for _, m := range matches {
		if sig, ok := byID[m.ID]; ok && len(res.Matches) < r.Limit {
			res.Matches = append(res.Matches, Matched{Signal: sig, Relevance: m.Relevance, Why: m.Matched})
		}
	}
	return res, nil
}
