package store

import (
	"context"
	"errors"
	"time"

	"signals/internal/model"
)

// ErrReused: a one-time OAuth secret (an authorization code or a refresh
// token) was presented again. The store has then revoked the grant that the
// secret belonged to, so every token issued from it stops working.
var ErrReused = errors.New("reused")

// OAuthClient is a registered OAuth client (a public client: no secret).
type OAuthClient struct {
	ID           string
	Name         string
	RedirectURIs []string
	CreatedAt    time.Time
}

// OAuthCode is an authorization code, known by the hash of its secret.
type OAuthCode struct {
	Hash        []byte
	ClientID    string
	AccountID   int64
	RedirectURI string
	Challenge   string
	Scopes      []string
	Resource    string
	ConsentedAt time.Time
	ExpiresAt   time.Time
}

// OAuthGrant is one connection: what an account allowed a client, from
// consent until it expires, is revoked, or the account is deleted.
type OAuthGrant struct {
	ID         string
	AccountID  int64
	ClientID   string
	ClientName string
	Scopes     []string
	Resource   string
	CreatedAt  time.Time
	ExpiresAt  time.Time
	LastUsed   *time.Time
}

// Token kinds.
const (
	AccessToken  = "access"
	RefreshToken = "refresh"
)

// OAuthToken is an access or refresh token, known by the hash of its
// secret.
type OAuthToken struct {
	Hash      []byte
	GrantID   string
	Kind      string
	ExpiresAt time.Time
}

// OAuth stores OAuth clients, authorization codes, grants and tokens. Each
// method that uses a one-time secret up does so in one statement or
// transaction, so that of two replicas presenting it at once exactly one
// succeeds and the other sees ErrReused.
type OAuth interface {
	// PutOAuthClient stores a registered client.
	PutOAuthClient(ctx context.Context, c OAuthClient) error
	// OAuthClient finds a client by id; ErrNotFound if there is none.
	OAuthClient(ctx context.Context, id string) (OAuthClient, error)
	// PutOAuthCode stores an authorization code.
	PutOAuthCode(ctx context.Context, c OAuthCode) error
	// OAuthCode returns the unexpired, unused code with this hash;
	// ErrReused (after revoking the grant it issued) if it was used,
	// ErrNotFound otherwise.
	OAuthCode(ctx context.Context, hash []byte, now time.Time) (OAuthCode, error)
	// RedeemOAuthCode marks the code used and creates the grant with its
	// first tokens, at once; ErrReused (after revoking the grant that the
	// first use created) if the code was used meanwhile.
	RedeemOAuthCode(ctx context.Context, hash []byte, g OAuthGrant, tokens []OAuthToken, now time.Time) error
	// OAuthToken returns the token with this hash and its live grant and
	// account: unexpired, unrevoked and, for a refresh token, unused.
	// A refresh token that was used already gives ErrReused, after its
	// grant was revoked; anything else ErrNotFound.
	OAuthToken(ctx context.Context, hash []byte, now time.Time) (OAuthToken, OAuthGrant, model.Account, error)
	// RotateOAuthRefresh uses the refresh token up and stores its
	// successors, at once; ErrReused (after revoking the grant) if it was
	// used meanwhile.
	RotateOAuthRefresh(ctx context.Context, hash []byte, tokens []OAuthToken, now time.Time) error
	// RevokeOAuthGrant ends the account's grant and deletes its tokens;
	// ErrNotFound if the account has no such live grant.
	RevokeOAuthGrant(ctx context.Context, accountID int64, grantID string, now time.Time) error
	// TouchOAuthGrant records when a grant was last used.
	TouchOAuthGrant(ctx context.Context, grantID string, at time.Time) error
	// OAuthGrants lists the account's live grants, newest first.
	OAuthGrants(ctx context.Context, accountID int64, now time.Time) ([]OAuthGrant, error)
	// SweepOAuth deletes what OAuth no longer needs, as sweep says.
	SweepOAuth(ctx context.Context, sweep OAuthSweep) error
}

// OAuthSweep says what SweepOAuth deletes.
type OAuthSweep struct {
	// Now: codes and tokens that expired by now, and the tokens of
	// revoked grants, are deleted.
	Now time.Time
	// EndedBefore: grants that expired or were revoked before it are
	// deleted, with their codes. Until then a client that had them is
	// kept, so that its people can connect it again.
	EndedBefore time.Time
	// UnusedBefore: clients registered before it that hold no grant and
	// no code are deleted: those that never completed an authorization,
	// and those whose last grant was deleted.
	UnusedBefore time.Time
}
