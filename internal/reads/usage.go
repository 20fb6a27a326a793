package reads

import (
	"signals/internal/model"
	"signals/internal/wire"
	"time"
)

// Counter is one limit with its use in the current window.
type Counter struct {
	Limit     int `json:"limit"`
	Used      int `json:"used"`
	Remaining int `json:"remaining"`
}

// MinuteCounter is the minute limit with its use and when it resets.
type MinuteCounter struct {
	Counter
	ResetAt string `json:"reset_at"`
}

func counter(limit, used int) Counter {
	return Counter{Limit: limit, Used: used, Remaining: max(limit-used, 0)}
}

// UsageResponse is the body of GET /api/v1/usage. The camelCase fields are
// deprecated aliases carrying identical values.
type UsageResponse struct {
	DailyRequests  Counter       `json:"daily_requests"`
	MinuteRequests MinuteCounter `json:"minute_requests"`
	DailySearches  Counter       `json:"daily_searches"`
	// ResetAt is the next UTC midnight, when the daily counters reset.
	ResetAt string `json:"reset_at"`

	DailyRequestsAlias  Counter       `json:"dailyRequests"`
	MinuteRequestsAlias MinuteCounter `json:"minuteRequests"`
	DailySearchesAlias  Counter       `json:"dailySearches"`
	ResetAtAlias        string        `json:"resetAt"`
}

func init() {
	wire.Describe[Counter]("A limit of the account with its use in the current window.", wire.Fields{
		"limit":     {Doc: "The account's actual limit.", Range: wire.AtLeast(0)},
		"used":      {Doc: "Used in the current window, this request included.", Range: wire.AtLeast(0)},
		"remaining": {Doc: "Left in the current window.", Range: wire.AtLeast(0)},
	})
	wire.Describe[MinuteCounter]("The minute limit of the account with its use in the current UTC minute.", wire.Fields{
		"reset_at": {Doc: "Start of the next UTC minute, when this counter resets.", Format: "date-time"},
	})
	wire.Describe[UsageResponse]("Usage and actual limits of the account.", wire.Fields{
		"daily_requests":  {Doc: "Requests this UTC day, HTTP and MCP together."},
		"minute_requests": {Doc: "Requests this UTC minute, HTTP and MCP together."},
		"daily_searches":  {Doc: "Fresh semantic searches this UTC day."},
		"reset_at":        {Doc: "Next UTC midnight, when the daily counters reset.", Format: "date-time"},
		"dailyRequests":   {AliasOf: "daily_requests"},
		"minuteRequests":  {AliasOf: "minute_requests"},
		"dailySearches":   {AliasOf: "daily_searches"},
		"resetAt":         {AliasOf: "reset_at"},
	})
}

// NewUsage describes usage u under limits l.
func NewUsage(u model.Usage, l model.Limits) UsageResponse {
	day := u.DayStart.Add(24 * time.Hour).Format(time.RFC3339)
	minute := u.MinuteStart.Add(time.Minute).Format(time.RFC3339)
	r := UsageResponse{
		DailyRequests:  counter(l.DailyRequests, u.DayUsed),
		MinuteRequests: MinuteCounter{counter(l.MinuteRequests, u.MinuteUsed), minute},
		DailySearches:  counter(l.DailySearches, u.SearchesUsed),
		ResetAt:        day,
	}
	r.DailyRequestsAlias, r.MinuteRequestsAlias, r.DailySearchesAlias, r.ResetAtAlias =
		r.DailyRequests, r.MinuteRequests, r.DailySearches, r.ResetAt
	return r
}
