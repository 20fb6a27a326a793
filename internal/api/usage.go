package api

import (
	"errors"
	"net/http"
	"time"

	"signals/internal/model"
	"signals/internal/quota"
)

// Counter is one limit with its use in the current window.
type Counter struct {
	Limit     int    `json:"limit"`
	Used      int    `json:"used"`
	Remaining int    `json:"remaining"`
	ResetAt   string `json:"reset_at,omitempty"`
}

func counter(limit, used int, resetAt string) Counter {
	return Counter{Limit: limit, Used: used, Remaining: max(limit-used, 0), ResetAt: resetAt}
}

// UsageResponse is the body of GET /api/v1/usage. The camelCase fields are
// deprecated aliases carrying identical values.
type UsageResponse struct {
	DailyRequests  Counter `json:"daily_requests"`
	MinuteRequests Counter `json:"minute_requests"`
	DailySearches  Counter `json:"daily_searches"`
	// ResetAt is the next UTC midnight, when the daily counters reset.
	ResetAt string `json:"reset_at"`

	DailyRequestsAlias  Counter `json:"dailyRequests"`
	MinuteRequestsAlias Counter `json:"minuteRequests"`
	DailySearchesAlias  Counter `json:"dailySearches"`
	ResetAtAlias        string  `json:"resetAt"`
}

// NewUsage describes usage u under limits l.
func NewUsage(u model.Usage, l model.Limits) UsageResponse {
	day := u.DayStart.Add(24 * time.Hour).Format(time.RFC3339)
	minute := u.MinuteStart.Add(time.Minute).Format(time.RFC3339)
	r := UsageResponse{
		DailyRequests:  counter(l.DailyRequests, u.DayUsed, ""),
		MinuteRequests: counter(l.MinuteRequests, u.MinuteUsed, minute),
		DailySearches:  counter(l.DailySearches, u.SearchesUsed, ""),
		ResetAt:        day,
	}
	r.DailyRequestsAlias, r.MinuteRequestsAlias, r.DailySearchesAlias, r.ResetAtAlias =
		r.DailyRequests, r.MinuteRequests, r.DailySearches, r.ResetAt
	return r
}

// HandleUsage serves GET /api/v1/usage. The request has been counted
// already, so the answer includes it.
func (a *API) HandleUsage(w http.ResponseWriter, r *http.Request) {
	if err := noQuery(r); err != nil {
		a.Problems.Write(w, r, err)
		return
	}
	c, ok := quota.FromContext(r.Context())
	if !ok {
		a.Problems.Write(w, r, errors.New("usage: request was not counted"))
		return
	}
	a.writeJSON(w, r, NewUsage(c.Usage, c.Limits), true)
}
