package metrics

import (
	"context"
	"time"

	"signals/internal/model"
	"signals/internal/store"
)

// The codes of quota refusals, as the API reports them.
var refusalCodes = map[string]string{
	model.LimitMinute:    "minute_limit_reached",
	model.LimitDay:       "daily_limit_reached",
	model.LimitSearchDay: "search_limit_reached",
}

// Store counts the quota refusals of the store it wraps: the requests and
// fresh searches its counters refuse and the searches refused because the
// account already runs its concurrent searches. Everything else passes
// through.
func (m *Metrics) Store(st store.Store) store.Store { return &quotaStore{Store: st, m: m} }

type quotaStore struct {
	store.Store
	m *Metrics
}

func (s *quotaStore) refused(denied string) {
	if code, ok := refusalCodes[denied]; ok {
		s.m.quotaRefusals.WithLabelValues(code).Inc()
	}
}

func (s *quotaStore) TakeRequest(ctx context.Context, accountID int64, l model.Limits, now time.Time) (model.Usage, error) {
	u, err := s.Store.TakeRequest(ctx, accountID, l, now)
	if err == nil {
		s.refused(u.Denied)
	}
	return u, err
}

func (s *quotaStore) ReserveSearch(ctx context.Context, accountID int64, dailyLimit int, now time.Time) (model.Usage, error) {
	u, err := s.Store.ReserveSearch(ctx, accountID, dailyLimit, now)
	if err == nil {
		s.refused(u.Denied)
	}
	return u, err
}

func (s *quotaStore) AcquireSearchSlot(ctx context.Context, accountID int64, max int, now time.Time, lease time.Duration) (func(), bool, error) {
	release, ok, err := s.Store.AcquireSearchSlot(ctx, accountID, max, now, lease)
	if err == nil && !ok {
		s.m.quotaRefusals.WithLabelValues("search_in_progress").Inc()
	}
	return release, ok, err
}
