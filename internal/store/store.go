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
	Sessions
	AccountData
	Digests
	Site
	OAuth
	Desk
	// Migrated lists the migrations that opening the store applied, by
	// version, in the order they ran; none when the schema was up to date.
	Migrated() []string
	// Ping checks that the store answers.
	Ping(ctx context.Context) error
	// Close releases the store's resources.
	Close() error
}

// SignalRef names a public signal and when it last changed.
type SignalRef struct {
	ID      string
	Changed time.Time
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
	// SignalRefs returns the ids of the newest limit public signals, in
	// listing order, with when each last changed (its collection time, or
	// its publication time when it has none): the signal pages of a
	// sitemap.
	SignalRefs(ctx context.Context, limit int) ([]SignalRef, error)
	// CountSignals counts all stored signals, public or not.
	CountSignals(ctx context.Context) (int, error)
	// Generation grows whenever an import commits or a status changes; it
	// costs one row to read.
	Generation(ctx context.Context) (int64, error)
	// BeginImport starts one transaction that upserts signals by id, doing
	// to signals already stored what mode allows ("" is
	// ImportKeepDecisions). A taken-down id is skipped whatever the mode.
	BeginImport(ctx context.Context, mode ImportMode) (ImportTx, error)
	// KnownIDs tells which of ids name a stored signal and which a
	// taken-down one (which imports skip).
	KnownIDs(ctx context.Context, ids []string) (existing, takenDown map[string]bool, err error)
	// SetStatus sets a signal's editorial status and, when marketOnly is not
	// nil, its market-only flag.
	SetStatus(ctx context.Context, id, status string, marketOnly *bool) error
}

// Desk stores the editor's desk: roles, decisions on signals of any
// status, takedowns and the append-only record of decisions.
type Desk interface {
	// SetRole makes an account a reader or an editor; ErrNotFound when
	// there is no such account.
	SetRole(ctx context.Context, accountID int64, role string) error
	// DeskSignal returns a signal whatever its status, its text cut to
	// MaxTextChars; ErrNotFound when no signal has the id.
	DeskSignal(ctx context.Context, id string) (model.Signal, error)
	// DeskSignals lists signals for the desk, whatever their status, with
	// Text cut to the list snippet length.
	DeskSignals(ctx context.Context, q model.DeskQuery) ([]model.Signal, error)
	// Decide applies an editor's change, marks the fields it set as
	// decided (imports leave them) and logs it; a change that changes
	// nothing is not logged and returns a decision without After.
	// ErrNotFound when no signal has the id.
	Decide(ctx context.Context, id string, c model.Change, editor, reason string, now time.Time) (model.Decision, error)
	// TakeDown removes a signal from every surface and keeps its id (and
	// the signal) so that imports do not bring it back; logged.
	TakeDown(ctx context.Context, id, editor, reason string, now time.Time) (model.Decision, error)
	// Restore undoes a takedown: the signal comes back as it was; logged.
	// ErrNotFound when the id was not taken down.
	Restore(ctx context.Context, id, editor, reason string, now time.Time) (model.Decision, error)
	// DeskLog returns logged decisions, newest first.
	DeskLog(ctx context.Context, q model.LogQuery) ([]model.Decision, error)
}

// Site stores the website's own content, feed hubs and articles, and
// answers which filter values the public signals use.
type Site interface {
	// CreateHub registers a hub; ErrExists if its slug is taken.
	CreateHub(ctx context.Context, h model.Hub) error
	// Hubs lists the hubs by slug.
	Hubs(ctx context.Context) ([]model.Hub, error)
	// Hub finds a hub by slug; ErrNotFound if there is none.
	Hub(ctx context.Context, slug string) (model.Hub, error)
	// RemoveHub removes a hub; ErrNotFound if there is none.
	RemoveHub(ctx context.Context, slug string) error
	// PutArticles upserts articles by slug in one transaction.
	PutArticles(ctx context.Context, articles []model.Article) error
	// Articles lists every article, newest published first, then by slug.
	Articles(ctx context.Context) ([]model.Article, error)
	// Article finds an article by slug; ErrNotFound if there is none.
	Article(ctx context.Context, slug string) (model.Article, error)
	// PublicCountries lists the countries of public signals, sorted.
	PublicCountries(ctx context.Context) ([]string, error)
}

// ImportMode says what an import may do to a signal already stored.
type ImportMode string

// Import modes.
const (
	// ImportKeepDecisions updates a stored signal from the file except the
	// fields an editor decided (status, market-only, kind, country,
	// language): the default, which never undoes an editor's decision.
	ImportKeepDecisions ImportMode = "keep-decisions"
	// ImportNewOnly adds the signals whose id is new and leaves every
	// stored one as it is.
	ImportNewOnly ImportMode = "new-only"
	// ImportOverwrite updates every field from the file, an editor's
	// decisions included (they are forgotten).
	ImportOverwrite ImportMode = "overwrite"
)

// ImportModes are the modes, the default first.
var ImportModes = []ImportMode{ImportKeepDecisions, ImportNewOnly, ImportOverwrite}

// ImportTx is an import in progress: nothing is visible until Commit.
type ImportTx interface {
	// Put upserts one valid signal with its folded forms (s.Folded(),
	// computed by the caller so that folding can run beside the writer).
	Put(ctx context.Context, s model.Signal, f model.Folded) error
	// Commit makes every Put visible at once.
	Commit() error
	// Written returns the ids of the signals the import inserted or
	// changed (complete once committed): a stored signal that the file
	// would leave as it is, or that the mode or an editor's decisions keep
	// as it is, is not written.
	Written() map[string]bool
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
	// SetLimits replaces an account's actual limits.
	SetLimits(ctx context.Context, accountID int64, l model.Limits) error
	// CreateKey stores a key's description and the hash of its secret.
	CreateKey(ctx context.Context, k model.APIKey, hash []byte) error
	// Keys lists an account's keys, newest first, revoked ones included.
	Keys(ctx context.Context, accountID int64) ([]model.APIKey, error)
	// RevokeKey revokes a key; ErrNotFound if it does not exist or is
	// already revoked.
	RevokeKey(ctx context.Context, keyID string, now time.Time) error
	// RenameKey renames one of the account's unrevoked keys; ErrNotFound
	// if the account has no such key or it is revoked.
	RenameKey(ctx context.Context, accountID int64, keyID, name string) error
	// KeyByHash finds an unrevoked key by the hash of its secret, with its
	// account; ErrNotFound otherwise.
	KeyByHash(ctx context.Context, hash []byte) (model.APIKey, []byte, model.Account, error)
	// TouchKey records when a key was last used.
	TouchKey(ctx context.Context, keyID string, at time.Time) error
	// Generations reads the signals' generation (see Generation) and the
	// credentials' generation, which grows whenever a key is revoked or
	// deleted or an account changes or is deleted, in one read.
	Generations(ctx context.Context) (signals, credentials int64, err error)
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
	// ReturnRequest gives back one request that TakeRequest counted at at
	// and that was then refused (a 429 decided after counting): each
	// window containing at that is still the current one counts one fewer.
	ReturnRequest(ctx context.Context, accountID int64, at, now time.Time) (model.Usage, error)
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
	// Matched says why it matched, when the scorer can tell.
	Matched []string `json:"matched,omitempty"`
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
	// SignalVector returns the vector stored under model for the public
	// signal id's current text; nil when none is (not yet embedded, or not
	// public).
	SignalVector(ctx context.Context, id, vectorModel string) ([]float32, error)
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
	// ReturnSearch gives back one fresh search that ReserveSearch took at
	// at, if the UTC day containing at is still the account's search day,
	// and reports the usage in the windows of now.
	ReturnSearch(ctx context.Context, accountID int64, at, now time.Time) (model.Usage, error)
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

// SignInLink is a one-time sign-in link, known by the hash of its token.
type SignInLink struct {
	Hash  []byte
	Email string
	// Next is the local path to go to once signed in ("" for the account).
	Next      string
	ExpiresAt time.Time
}

// Session is a browser session, known by the hash of its cookie's token.
type Session struct {
	Hash      []byte
	AccountID int64
	CreatedAt time.Time
	ExpiresAt time.Time
}

// Sessions stores sign-in links, browser sessions and the counts that
// throttle requests for links.
type Sessions interface {
	// PutSignInLink stores a link.
	PutSignInLink(ctx context.Context, l SignInLink) error
	// TakeSignInLink removes the link with this hash and returns it, so
	// that it is used once; ErrNotFound if there is none or it expired.
	TakeSignInLink(ctx context.Context, hash []byte, now time.Time) (SignInLink, error)
	// SignInLink returns the unexpired link with this hash and leaves it
	// unused; ErrNotFound if there is none or it expired.
	SignInLink(ctx context.Context, hash []byte, now time.Time) (SignInLink, error)
	// CreateSession stores a session.
	CreateSession(ctx context.Context, s Session) error
	// SessionByHash returns the unexpired session with this hash and its
	// account; ErrNotFound otherwise.
	SessionByHash(ctx context.Context, hash []byte, now time.Time) (Session, model.Account, error)
	// RenewSession moves a session's expiry.
	RenewSession(ctx context.Context, hash []byte, expires time.Time) error
	// DeleteSession ends a session; ending one that is gone is no error.
	DeleteSession(ctx context.Context, hash []byte) error
	// Throttle counts one event under key in the window [start, end) if
	// fewer than limit were counted there; ok is false (and nothing is
	// counted) otherwise. It is exact across processes.
	Throttle(ctx context.Context, key []byte, start, end time.Time, limit int) (ok bool, err error)
	// SweepSessions deletes links, sessions and throttle windows that
	// ended before now.
	SweepSessions(ctx context.Context, now time.Time) error
}

// DayUsage is what one account used on one UTC day.
type DayUsage struct {
	AccountID int64
	Day       time.Time
	Requests  int
	Searches  int
}

// AccountData is what the account area keeps and removes of an account
// beyond its keys and current usage.
type AccountData interface {
	// AddDailyUsage adds each entry's counts to its account's day.
	AddDailyUsage(ctx context.Context, add []DayUsage) error
	// DailyUsage returns the account's recorded days in [from, to), oldest
	// first; days without use are absent.
	DailyUsage(ctx context.Context, accountID int64, from, to time.Time) ([]DayUsage, error)
	// DeleteAccount removes the account and everything it owns: keys,
	// sessions, usage, interests, and the sign-in links sent to its
	// email. ErrNotFound if there is no such account.
	DeleteAccount(ctx context.Context, id int64) error
}

// DigestTarget is an account whose digest is due.
type DigestTarget struct {
	Account   model.Account
	Interests model.Interests
}

// Digests stores email interests and the digests sent for them.
type Digests interface {
	// Interests returns the account's interests; ErrNotFound if it chose
	// none.
	Interests(ctx context.Context, accountID int64) (model.Interests, error)
	// PutInterests replaces the account's interests.
	PutInterests(ctx context.Context, accountID int64, in model.Interests) error
	// DeleteInterests removes the account's interests; removing none is no
	// error.
	DeleteInterests(ctx context.Context, accountID int64) error
	// DigestsDue returns up to limit accounts with interests of this
	// frequency, chosen before the period began at start, and no finished
	// digest for period.
	DigestsDue(ctx context.Context, frequency, period string, start time.Time, limit int) ([]DigestTarget, error)
	// ClaimDigest makes this process the sender of the account's digest for
	// period until lease passes; ok is false when that digest is finished
	// or another unexpired claim holds it. claim identifies the holder.
	ClaimDigest(ctx context.Context, accountID int64, period string, claim []byte, now time.Time, lease time.Duration) (ok bool, err error)
	// FinishDigest records the claimed digest as done and moves the
	// interests' Since to until; ErrNotFound if the claim was lost.
	FinishDigest(ctx context.Context, accountID int64, period string, claim []byte, until, now time.Time) error
	// PutUnsubscribe stores the hash of a token that a digest to the
	// account carries, for one-click unsubscription.
	PutUnsubscribe(ctx context.Context, hash []byte, accountID int64, now time.Time) error
	// AccountByUnsubscribe returns the account whose digest carried the
	// unsubscribe token with this hash, and the stored hash; ErrNotFound
	// if there is none.
	AccountByUnsubscribe(ctx context.Context, hash []byte) (accountID int64, stored []byte, err error)
}
