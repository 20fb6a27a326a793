// Package usage keeps each account's daily history of requests and fresh
// searches, which the account area charts. It watches the counting that
// quotas already do, so no request path changes, and adds what it saw to
// the store in batches: one write per account and day per flush, not one
// per request.
package usage

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"signals/internal/model"
	"signals/internal/store"
)

// FlushEvery is how often recorded counts reach the store. A process that
// crashes loses at most this much history; current usage and limits are
// the quota counters' and lose nothing.
const FlushEvery = 5 * time.Second

// Recorder is a store that records every request and search its quota
// counters count, by account and UTC day; everything else passes through.
type Recorder struct {
	store.Store
	Log *slog.Logger
	// Failed, when set, is told of each failed run of a background job
	// instead of the log (the app counts them and logs an outage once).
	Failed func(op string, err error)

	mu      sync.Mutex
	pending map[key]*store.DayUsage
}

type key struct {
	account int64
	day     int64
}

// TakeRequest counts a request and records it when it was counted.
func (r *Recorder) TakeRequest(ctx context.Context, accountID int64, l model.Limits, now time.Time) (model.Usage, error) {
	u, err := r.Store.TakeRequest(ctx, accountID, l, now)
	if err == nil && u.Denied == "" {
		r.add(accountID, u.DayStart, 1, 0)
	}
	return u, err
}

// ReturnRequest gives back a counted request and takes it out of the day
// it was recorded in.
func (r *Recorder) ReturnRequest(ctx context.Context, accountID int64, at, now time.Time) (model.Usage, error) {
	u, err := r.Store.ReturnRequest(ctx, accountID, at, now)
	if err == nil {
		r.add(accountID, model.DayOf(at), -1, 0)
	}
	return u, err
}

// ReserveSearch reserves a fresh search and records it when it was taken.
func (r *Recorder) ReserveSearch(ctx context.Context, accountID int64, dailyLimit int, now time.Time) (model.Usage, error) {
	u, err := r.Store.ReserveSearch(ctx, accountID, dailyLimit, now)
	if err == nil && u.Denied == "" {
		r.add(accountID, u.DayStart, 0, 1)
	}
	return u, err
}

// ReturnSearch gives back a reserved search and takes it out of the day it
// was recorded in.
func (r *Recorder) ReturnSearch(ctx context.Context, accountID int64, at, now time.Time) (model.Usage, error) {
	u, err := r.Store.ReturnSearch(ctx, accountID, at, now)
	if err == nil {
		r.add(accountID, model.DayOf(at), 0, -1)
	}
	return u, err
}

func (r *Recorder) add(accountID int64, day time.Time, requests, searches int) {
	k := key{accountID, day.Unix()}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.pending == nil {
		r.pending = map[key]*store.DayUsage{}
	}
	d, ok := r.pending[k]
	if !ok {
		d = &store.DayUsage{AccountID: accountID, Day: day.UTC()}
		r.pending[k] = d
	}
	d.Requests += requests
	d.Searches += searches
}

// Flush adds what was recorded since the last flush to the store. On
// failure the counts are kept for the next flush.
func (r *Recorder) Flush(ctx context.Context) error {
	r.mu.Lock()
	batch := make([]store.DayUsage, 0, len(r.pending))
	for _, d := range r.pending {
		batch = append(batch, *d)
	}
	r.pending = nil
	r.mu.Unlock()
	if len(batch) == 0 {
		return nil
	}
	err := r.Store.AddDailyUsage(ctx, batch)
	if err != nil {
		for _, d := range batch {
			r.add(d.AccountID, d.Day, d.Requests, d.Searches)
		}
	}
	return err
}

// Run flushes every FlushEvery until ctx is done, then once more.
func (r *Recorder) Run(ctx context.Context) {
	t := time.NewTicker(FlushEvery)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			r.logFlush(r.Flush(ctx))
		case <-ctx.Done():
			r.logFlush(r.Flush(context.WithoutCancel(ctx)))
			return
		}
	}
}

func (r *Recorder) logFlush(err error) {
	if err != nil {
		if r.Failed != nil {
			r.Failed("record daily usage", err)
		} else {
			r.Log.Warn("background job failed", "op", "record daily usage", "err", err)
		}
		return
	}
	r.Log.Debug("background job done", "op", "record daily usage")
}

// DeleteAccount forgets what was recorded for the account and deletes it,
// so that no count of it reaches a later account (SQLite may reuse its id).
func (r *Recorder) DeleteAccount(ctx context.Context, id int64) error {
	r.mu.Lock()
	for k := range r.pending {
		if k.account == id {
			delete(r.pending, k)
		}
	}
	r.mu.Unlock()
	return r.Store.DeleteAccount(ctx, id)
}
