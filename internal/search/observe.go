package search

import (
	"errors"
	"time"

	"signals/internal/failure"
)

// Outcome is how one search request ended, for an Observer.
type Outcome string

// The outcomes of a search request.
const (
	OutcomeFresh    Outcome = "fresh"     // scored by this request
	OutcomeCacheHit Outcome = "cache_hit" // answered from the cache
	OutcomeJoined   Outcome = "joined"    // answered by an identical search in flight
	OutcomeRefused  Outcome = "refused"   // a limit or the model's capacity refused it
	OutcomeFailed   Outcome = "failed"    // the search or the store failed
	OutcomeTimedOut Outcome = "timed_out" // the fresh search ran out of time
)

// Observer learns what the service did; metrics implement it. Its methods
// must be cheap: they run on the request path.
type Observer interface {
	// Searched is called once per search request that got an answer or an
	// error of its own; a search whose client left is not counted.
	Searched(o Outcome)
	// Scored is called after each fresh search with how long it ran,
	// successful or not.
	Scored(took time.Duration)
	// Embedded is called after the indexer stored n vectors.
	Embedded(n int)
}

// observe reports how a search request ended.
func (s *Service) observe(res Result, err error) {
	if s.Observer == nil {
		return
	}
	s.Observer.Searched(outcomeOf(res, err))
}

func outcomeOf(res Result, err error) Outcome {
	if err == nil {
		switch {
		case res.CacheHit:
			return OutcomeCacheHit
		case res.fresh:
			return OutcomeFresh
		}
		return OutcomeJoined
	}
	var f *failure.Error
	if errors.As(err, &f) {
		switch f.Code {
		case failure.CodeSearchTimeout:
			return OutcomeTimedOut
		case failure.CodeSearchFailed:
			return OutcomeFailed
		case failure.CodeSearchLimitReached, failure.CodeSearchInProgress, failure.CodeServiceBusy,
			failure.CodeMinuteLimitReached, failure.CodeDailyLimitReached:
			return OutcomeRefused
		}
	}
	return OutcomeFailed
}
