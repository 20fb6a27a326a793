// Package oauth is the OAuth 2.1 authorization server of the MCP endpoint
// (and of nothing else): protected resource metadata (RFC 9728),
// authorization server metadata (RFC 8414), dynamic registration of public
// clients (RFC 7591), the authorization code grant with PKCE S256 and
// resource binding (RFC 7636, RFC 8707) behind a consent page, rotating
// refresh tokens with reuse detection, and revocation (RFC 7009). Codes
// and tokens are opaque random strings stored as hashes.
package oauth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"signals/internal/auth"
	"signals/internal/consent"
	"signals/internal/failure"
	"signals/internal/store"
	"signals/internal/throttle"
)

// Paths of the authorization server and of the metadata documents.
const (
	AuthorizationServerPath = "/.well-known/oauth-authorization-server"
	AuthorizePath           = "/oauth/authorize"
	TokenPath               = "/oauth/token"
	RegisterPath            = "/oauth/register"
	RevokePath              = "/oauth/revoke"
)

// Lifetimes.
const (
	CodeLifetime       = 60 * time.Second
	AccessLifetime     = time.Hour
	ConnectionLifetime = 30 * 24 * time.Hour
	// UnusedClientLifetime is how long a registered client that never
	// completed an authorization is kept: clients register just before
	// they send the person to consent, and anyone may register.
	UnusedClientLifetime = 24 * time.Hour
	// EndedGrantRetention is how long a connection is kept after it
	// expired or was revoked, and so its client, which the person may
	// connect again without registering anew.
	EndedGrantRetention = 30 * 24 * time.Hour
)

// Prefixes of the secrets this server issues; they tell a leaked secret's
// kind at a glance and never look like an API key.
const (
	codePrefix    = "sigoc_"
	accessPrefix  = "sigoa_"
	refreshPrefix = "sigor_"
)

// Pages renders the HTML pages of the authorization endpoint.
type Pages interface {
	// Consent shows the consent page.
	Consent(w http.ResponseWriter, r *http.Request, c consent.Consent)
	// Fail shows the error page of err under the heading title: its
	// status and code are those of err's failure code, and any other
	// error is an internal_error.
	Fail(w http.ResponseWriter, r *http.Request, title string, err error)
}

// Config is what the server needs.
type Config struct {
	// BaseURL is the issuer; the protected resource is BaseURL + "/mcp".
	BaseURL string
	Store   store.OAuth
	// Throttle counts registrations per client address; the store's
	// sign-in throttle is one, and holds across replicas.
	Throttle throttle.Counter
	Pages    Pages
	Log      *slog.Logger
	Now      func() time.Time
	// Unreachable, when set, tells the store errors that mean the
	// database cannot be reached: they are answered 503, not 500.
	Unreachable func(error) bool
}

// Server serves the OAuth endpoints and checks the access tokens that /mcp
// receives.
type Server struct {
	cfg      Config
	issuer   string
	resource string

	touched sync.Map // grant id -> time.Time of the last recorded use
}

// New returns a server for cfg.
func New(cfg Config) *Server {
	issuer := strings.TrimRight(cfg.BaseURL, "/")
	return &Server{cfg: cfg, issuer: issuer, resource: issuer + "/mcp"}
}

// Resource is the protected resource that tokens are bound to.
func (s *Server) Resource() string { return s.resource }

// newSecret returns a random secret with prefix (256 bits) and its hash.
func newSecret(prefix string) (string, []byte) {
	b := make([]byte, 32)
	rand.Read(b)
	secret := prefix + base64.RawURLEncoding.EncodeToString(b)
	return secret, auth.Hash(secret)
}

// s256 is the PKCE S256 transformation of a verifier.
func s256(verifier string) string {
	h := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(h[:])
}

// IsToken reports whether a bearer credential looks like an OAuth access
// token of this server, so that /mcp knows which way to check it.
func IsToken(s string) bool { return strings.HasPrefix(s, accessPrefix) }

// Authenticate checks an OAuth access token sent to /mcp: issued by this
// server, unexpired, of a live connection, for this resource. The
// principal carries the connection's scopes.
func (s *Server) Authenticate(ctx context.Context, token string) (auth.Principal, error) {
	invalid := failure.New(failure.CodeInvalidCredentials,
		"the access token is not valid, expired or was revoked; refresh it or authorize again")
	if !IsToken(token) || len(token) > maxToken {
		return auth.Principal{}, invalid
	}
	hash := auth.Hash(token)
	t, g, acct, err := s.cfg.Store.OAuthToken(ctx, hash, s.cfg.Now())
	if errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrReused) {
		return auth.Principal{}, invalid
	}
	if err != nil {
		return auth.Principal{}, err
	}
	if !auth.Equal(t.Hash, hash) || t.Kind != store.AccessToken || g.Resource != s.resource {
		return auth.Principal{}, invalid
	}
	s.touch(ctx, g.ID)
	return auth.Principal{Account: acct, GrantID: g.ID, Scopes: g.Scopes}, nil
}

// touchEvery bounds how often a connection's last-used time is written.
const touchEvery = time.Minute

func (s *Server) touch(ctx context.Context, grantID string) {
	now := s.cfg.Now()
	if last, ok := s.touched.Load(grantID); ok && now.Sub(last.(time.Time)) < touchEvery {
		return
	}
	s.touched.Store(grantID, now)
	// Best effort and off the request's path, as for API keys.
	go func() {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		_ = s.cfg.Store.TouchOAuthGrant(ctx, grantID, now)
	}()
}

// Connections lists the account's connections for the account area.
func (s *Server) Connections(ctx context.Context, accountID int64) ([]consent.Connection, error) {
	grants, err := s.cfg.Store.OAuthGrants(ctx, accountID, s.cfg.Now())
	if err != nil {
		return nil, err
	}
	out := make([]consent.Connection, 0, len(grants))
	for _, g := range grants {
		out = append(out, consent.Connection{ID: g.ID, ClientName: displayName(g.ClientName),
			Scopes: g.Scopes, ConnectedAt: g.CreatedAt, LastUsed: g.LastUsed})
	}
	return out, nil
}

// AppAsking names the app whose authorization request the local path next
// is, for the sign-in page on the way to consent: only a registered client
// with one of its own redirect URIs is named.
func (s *Server) AppAsking(ctx context.Context, next string) string {
	u, err := url.Parse(next)
	if err != nil || u.Path != AuthorizePath {
		return ""
	}
	q := u.Query()
	c, err := s.cfg.Store.OAuthClient(ctx, q.Get("client_id"))
	if err != nil || !slices.Contains(c.RedirectURIs, q.Get("redirect_uri")) {
		return ""
	}
	return displayName(c.Name)
}

// Disconnect ends a connection: its access and refresh tokens stop working
// for the next request.
func (s *Server) Disconnect(ctx context.Context, accountID int64, id string) error {
	return s.cfg.Store.RevokeOAuthGrant(ctx, accountID, id, s.cfg.Now())
}

// Sweep deletes expired codes and tokens, connections that ended
// EndedGrantRetention ago, and clients without a connection registered
// UnusedClientLifetime ago.
func (s *Server) Sweep(ctx context.Context) error {
	now := s.cfg.Now()
	return s.cfg.Store.SweepOAuth(ctx, store.OAuthSweep{Now: now,
		EndedBefore: now.Add(-EndedGrantRetention), UnusedBefore: now.Add(-UnusedClientLifetime)})
}

// displayName is how a client is named to people.
func displayName(name string) string {
	if name == "" {
		return "An app without a name"
	}
	return name
}
