// Package store defines the persistence the service needs, behind one
// interface that the SQLite and PostgreSQL implementations both satisfy.
package store

import (
	"context"
	"errors"
	"time"

	"signals/internal/model"
)

// Errors the implementations return.
var (
	// ErrNotFound: no such record, or a signal that is not public.
	ErrNotFound = errors.New("not found")
	// ErrExists: a record with the same unique key exists.
	ErrExists = errors.New("already exists")
)

// Store is everything the service persists.
type Store interface {
	Signals
	Accounts
	Quotas
	Searches
	// Ping checks that the store answers.
	Ping(ctx context.Context) error
	// Close releases the store's resources.
	Close() error
}

// Signals stores collected items and answers public reads.
type Signals interface {
	// ListSignals returns one page of public signals matching q, newest
	// published first then id descending, with Text cut to the list snippet
	// length, and whether more pages follow.
	ListSignals(ctx context.Context, q model.ListQuery) ([]model.Signal, bool, error)
	// GetSignal returns a public signal with Text cut to MaxTextChars, or
	// ErrNotFound when it is missing or not public.
	GetSignal(ctx context.Context, id string) (model.Signal, error)
	// CountSignals counts all stored signals, public or not.
	CountSignals(ctx context.Context) (int, error)
	// Generation grows whenever an import commits or a status changes; it
	// costs one row to read.
	Generation(ctx context.Context) (int64, error)
	// BeginImport starts one transaction that upserts signals by id.
	BeginImport(ctx context.Context) (ImportTx, error)
	// SetStatus sets a signal's editorial status and, when marketOnly is not
	// nil, its market-only flag.
	SetStatus(ctx context.Context, id, status string, marketOnly *bool) error
}

// ImportTx is an import in progress: nothing is visible until Commit.
type ImportTx interface {
	// Put upserts one valid signal with its folded forms (s.Folded(),
	// computed by the caller so that folding can run beside the writer).
	Put(ctx context.Context, s model.Signal, f model.Folded) error
	// Commit makes every Put visible at once.
	Commit() error
	// Rollback discards every Put; it is a no-op after Commit.
	Rollback() error
}

// Accounts stores accounts and their API keys.
type Accounts interface {
	// CreateAccount creates an account with a verified email and the initial
	// limits; ErrExists if the email is taken.
	CreateAccount(ctx context.Context, email string, now time.Time) (model.Account, error)
	// AccountByEmail finds an account by email, case-insensitively.
	AccountByEmail(ctx context.Context, email string) (model.Account, error)
	// Account finds an account by id.
	Account(ctx context.Context, id int64) (model.Account, error)
	// SetLimits replaces an account's actual limits.
	SetLimits(ctx context.Context, accountID int64, l model.Limits) error
	// CreateKey stores a key's description and the hash of its secret.
	CreateKey(ctx context.Context, k model.APIKey, hash []byte) error
	// Keys lists an account's keys, newest first, revoked ones included.
	Keys(ctx context.Context, accountID int64) ([]model.APIKey, error)
	// RevokeKey revokes a key; ErrNotFound if it does not exist or is
	// already revoked.
	RevokeKey(ctx context.Context, keyID string, now time.Time) error
	// KeyByHash finds an unrevoked key by the hash of its secret, with its
	// account; ErrNotFound otherwise.
	KeyByHash(ctx context.Context, hash []byte) (model.APIKey, []byte, model.Account, error)
	// TouchKey records when a key was last used.
	TouchKey(ctx context.Context, keyID string, at time.Time) error
}

// Quotas counts requests against an account's limits. Implementations are
// exact under concurrency: of N simultaneous requests with R left, exactly R
// are counted.
type Quotas interface {
	// TakeRequest counts one request in the account's minute and UTC-day
	// windows containing now, if both are under the limits; otherwise it
	// counts nothing and sets Usage.Denied to the limit reached (the day
	// limit first, since waiting a minute does not lift it).
	TakeRequest(ctx context.Context, accountID int64, l model.Limits, now time.Time) (model.Usage, error)
	// Usage reports the account's current usage without counting.
	Usage(ctx context.Context, accountID int64, now time.Time) (model.Usage, error)
}

// Candidate is a public signal in a search window with its stored vector
// (nil when none is stored for the model or the text changed since).
type Candidate struct {
	Signal model.Signal
	Vector []float32
}

// Cursor is a position in listing order: a signal's publication time and id.
type Cursor struct {
	PublishedNS int64
	ID          string
}

// CursorOf returns the position of s in listing order.
func CursorOf(s model.Signal) *Cursor { return &Cursor{PublishedNS: s.PublishedAt.NS, ID: s.ID} }

// Match is one scored signal of a search.
type Match struct {
	ID        string  `json:"id"`
	Relevance float64 `json:"relevance"`
}

// CachedSearch is the outcome of a fresh search, kept for identical ones.
type CachedSearch struct {
	Matches              []Match   `json:"matches"`
	CandidatesConsidered int       `json:"candidates_considered"`
	SearchedAt           time.Time `json:"searched_at"`
	ExpiresAt            time.Time `json:"expires_at"`
}

// Searches stores what semantic search needs: vectors, candidate windows,
// cached results and search reservations.
type Searches interface {
	// Candidates returns the newest limit public signals within f (listing
	// order), Text cut to textChars, with their vectors under model.
	Candidates(ctx context.Context, f model.Filter, vectorModel string, textChars, limit int) ([]Candidate, error)
	// SignalsByID returns the public signals among ids, Text cut to
	// textChars, in no particular order.
	SignalsByID(ctx context.Context, ids []string, textChars int) ([]model.Signal, error)
	// SignalsNeedingVectors returns up to limit public signals without a
	// current vector under model, Text cut to textChars, in listing order
	// (newest published first, then id descending), starting strictly after
	// the signal at cursor (from the start when cursor is nil), so that a
	// pass over the archive reads each signal once.
	SignalsNeedingVectors(ctx context.Context, vectorModel string, textChars, limit int, cursor *Cursor) ([]model.Signal, error)
	// PutVectors stores vectors by signal id for the signals' current text.
	PutVectors(ctx context.Context, vectorModel string, vectors map[string][]float32) error

	// CachedSearch returns an unexpired result by key.
	CachedSearch(ctx context.Context, key string, now time.Time) (CachedSearch, bool, error)
	// PutCachedSearch stores a result until its ExpiresAt.
	PutCachedSearch(ctx context.Context, key string, r CachedSearch) error

	// ReserveSearch takes one of the account's fresh searches of the UTC day
	// containing now; Usage.Denied is LimitSearchDay when none is left.
	ReserveSearch(ctx context.Context, accountID int64, dailyLimit int, now time.Time) (model.Usage, error)
	// AcquireSearchSlot takes one of the account's max concurrent search
	// slots until release is called or until lease passes (so a process that
	// dies mid-search cannot hold it for ever); ok is false when all are
	// taken.
	AcquireSearchSlot(ctx context.Context, accountID int64, max int, now time.Time, lease time.Duration) (release func(), ok bool, err error)
	// ClaimSearch marks the search identified by key as running in this
	// process until release is called or lease passes; ok is false while
	// another process holds it, and that process's result will appear in
	// the cache.
	ClaimSearch(ctx context.Context, key string, now time.Time, lease time.Duration) (release func(), ok bool, err error)
}
