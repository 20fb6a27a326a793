package model

import "time"

// Limits are an account's actual limits. New accounts get InitialLimits.
type Limits struct {
	DailyRequests      int `json:"daily_requests"`
	MinuteRequests     int `json:"minute_requests"`
	DailySearches      int `json:"daily_searches"`
	ConcurrentSearches int `json:"concurrent_searches"`
}

// InitialLimits are the contract's initial account limits.
var InitialLimits = Limits{DailyRequests: 1000, MinuteRequests: 30, DailySearches: 10, ConcurrentSearches: 1}

// Account is a person with a verified email address.
type Account struct {
	ID         int64
	Email      string
	VerifiedAt time.Time
	CreatedAt  time.Time
	Limits     Limits
	// Role is RoleReader, or RoleEditor for those who may use the desk.
	Role string
}

// Roles of an account: every account reads; an operator makes editors,
// who decide what is published (the desk).
const (
	RoleReader = "reader"
	RoleEditor = "editor"
)

// Roles are the roles an account may have.
var Roles = []string{RoleReader, RoleEditor}

// APIKey describes a key without its secret.
type APIKey struct {
	ID        string
	AccountID int64
	Name      string
	// Hint is the non-secret start of the key, enough for a person to tell
	// keys apart.
	Hint      string
	CreatedAt time.Time
	LastUsed  *time.Time
	RevokedAt *time.Time
}
