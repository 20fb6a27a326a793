package auth

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"signals/internal/failure"
	"signals/internal/model"
	"signals/internal/problem"
	"signals/internal/store"
)

// Principal is who a request acts for.
type Principal struct {
	Account model.Account
	KeyID   string
	// GrantID is the OAuth connection of a request made with an access
	// token; Scopes are what that connection allows.
	GrantID string
	Scopes  []string

	// signals is the signals' generation read with the credentials' as
	// the key was checked (0 when not read).
	signals int64
}

// SignalsGeneration returns the signals' generation read as the request's
// key was checked, so that a handler need not read it again.
func (p Principal) SignalsGeneration() (int64, bool) {
	return p.signals, p.signals != 0
}

// Allows reports whether the principal may use scope: an API key has every
// permission; an OAuth token only the scopes the account granted.
func (p Principal) Allows(scope string) bool {
	return p.GrantID == "" || slices.Contains(p.Scopes, scope)
}

type principalKey struct{}

// WithPrincipal returns ctx carrying p.
func WithPrincipal(ctx context.Context, p Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// PrincipalFrom returns the principal of an authenticated request.
func PrincipalFrom(ctx context.Context) (Principal, bool) {
	p, ok := ctx.Value(principalKey{}).(Principal)
	return p, ok
}

// Authenticator checks API keys sent as "Authorization: Bearer <key>". Keys
// are never read from the URL.
type Authenticator struct {
	Store    store.Accounts
	Problems problem.Renderer
	// Challenge returns the WWW-Authenticate value of a 401 answering f
	// (missing_credentials or invalid_credentials).
	Challenge func(f *failure.Error) string
	Now       func() time.Time
	// OAuthToken reports whether a credential is an OAuth access token,
	// which is refused here with a word on where it belongs instead of
	// as an unknown key.
	OAuthToken func(token string) bool

	touched sync.Map // key id -> time.Time of the last recorded use
	keys    keyCache

	// The writes of last-used times run beside the requests; Close cancels
	// and awaits them.
	mu        sync.Mutex
	closed    bool
	touches   sync.WaitGroup
	stopTouch context.CancelFunc
	touchCtx  context.Context
}

// touchEvery bounds how often a key's last-used time is written.
const touchEvery = time.Minute

// APIChallenge is the WWW-Authenticate challenge of the HTTP API.
func APIChallenge(f *failure.Error) string {
	if f.Code == failure.CodeMissingCredentials {
		return `Bearer realm="signals"`
	}
	return `Bearer realm="signals", error="invalid_token", error_description=` + strconv.Quote(f.Detail)
}

// Unauthenticated returns the failure of err when it is an authentication
// failure, which HTTP answers with 401 and a WWW-Authenticate challenge.
func Unauthenticated(err error) (*failure.Error, bool) {
	f, ok := failure.As(err)
	if ok && (f.Code == failure.CodeMissingCredentials || f.Code == failure.CodeInvalidCredentials) {
		return f, true
	}
	return nil, false
}

// sendKey says how to send a key and where one is made, in every
// authentication failure that is not about the key itself.
func (a *Authenticator) sendKey() string {
	return "send Authorization: Bearer <API_KEY>, with a key made at " + a.keysPage()
}

// keysPage is the page where a signed-in person makes API keys.
func (a *Authenticator) keysPage() string { return a.Problems.BaseURL + "/account" }

// Authenticate resolves the request's bearer key. The error is a
// missing_credentials or invalid_credentials failure when the request
// carries no valid key, saying what is wrong with what it carries.
func (a *Authenticator) Authenticate(r *http.Request) (Principal, error) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return Principal{}, failure.New(failure.CodeMissingCredentials,
			"send an API key as Authorization: Bearer <API_KEY>; sign in at "+a.keysPage()+" to make one")
	}
	token, err := bearerToken(h, a.sendKey())
	if err != nil {
		return Principal{}, err
	}
	if a.OAuthToken != nil && a.OAuthToken(token) {
		return Principal{}, failure.New(failure.CodeInvalidCredentials,
			"OAuth access tokens are for "+a.Problems.BaseURL+"/mcp only; the HTTP API takes an API key, made at "+
				a.Problems.BaseURL+"/account")
	}
	invalid := func() error {
		return failure.New(failure.CodeInvalidCredentials, "the API key is not valid or was revoked; make a new one at "+a.keysPage())
	}
	if !WellFormed(token) {
		return Principal{}, invalid()
	}
	hash := Hash(token)
	signals, credentials, err := a.Store.Generations(r.Context())
	if err != nil {
		return Principal{}, err
	}
	p, ok := a.keys.get(hash, credentials)
	if !ok {
		key, stored, acct, err := a.Store.KeyByHash(r.Context(), hash)
		if errors.Is(err, store.ErrNotFound) || (err == nil && !Equal(stored, hash)) {
			return Principal{}, invalid()
		}
		if err != nil {
			return Principal{}, err
		}
		p = Principal{Account: acct, KeyID: key.ID}
		// Kept under the generation read before the lookup: a change
		// committed since has moved it, and the next request looks again.
		a.keys.put(hash, credentials, p)
	}
	a.touch(p.KeyID)
	p.signals = signals
	return p, nil
}

// keyCache keeps the principals of keys looked up, each with the
// credentials' generation read before its lookup; one is used only while
// the generation has not moved, so a revocation or an account change by
// any process is seen by the next request.
type keyCache struct {
	mu      sync.RWMutex
	entries map[[32]byte]cachedKey
}

type cachedKey struct {
	generation int64
	principal  Principal
}

// keyCacheMax bounds the keys kept; past it, an arbitrary one makes room.
const keyCacheMax = 10_000

func (c *keyCache) get(hash []byte, generation int64) (Principal, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	e, ok := c.entries[[32]byte(hash)]
	if !ok || e.generation != generation {
		return Principal{}, false
	}
	return e.principal, true
}

func (c *keyCache) put(hash []byte, generation int64, p Principal) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil {
		c.entries = map[[32]byte]cachedKey{}
	}
	if _, ok := c.entries[[32]byte(hash)]; !ok && len(c.entries) >= keyCacheMax {
		for k := range c.entries {
			delete(c.entries, k)
			break
		}
	}
	c.entries[[32]byte(hash)] = cachedKey{generation, p}
}

// bearerToken returns the token of an Authorization header value, or the
// invalid_credentials failure that says how the value is not "Bearer
// <token>", ending with sendKey. It never repeats what the client sent:
// that may be a key.
func bearerToken(h, sendKey string) (string, error) {
	scheme, token, ok := strings.Cut(h, " ")
	token = strings.TrimSpace(token)
	switch {
	case ok && strings.EqualFold(scheme, "Bearer") && token != "":
		return token, nil
	case strings.EqualFold(strings.TrimSpace(h), "Bearer"):
		return "", failure.New(failure.CodeInvalidCredentials,
			"the Authorization header names the Bearer scheme but carries no key; "+sendKey)
	case !ok && strings.HasPrefix(h, KeyPrefix):
		return "", failure.New(failure.CodeInvalidCredentials,
			"the API key was sent without the Bearer scheme; "+sendKey)
	case ok && isSchemeName(scheme):
		return "", failure.New(failure.CodeInvalidCredentials,
			"the Authorization header uses the "+scheme+" scheme, which this service does not take; "+sendKey)
	}
	return "", failure.New(failure.CodeInvalidCredentials,
		"the Authorization header is not the Bearer scheme followed by an API key; "+sendKey)
}

// isSchemeName reports whether s reads as the name of an HTTP
// authentication scheme (Basic, Digest, Token…) rather than a credential.
func isSchemeName(s string) bool {
	if len(s) == 0 || len(s) > 16 || strings.HasPrefix(s, KeyPrefix) {
		return false
	}
	for _, c := range s {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '-') {
			return false
		}
	}
	return true
}

// touch records that a key was used, at most every touchEvery, off the
// request's path: a write may wait for another process's import to
// release the database. After Close it does nothing.
func (a *Authenticator) touch(keyID string) {
	now := a.Now()
	if last, ok := a.touched.Load(keyID); ok && now.Sub(last.(time.Time)) < touchEvery {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closed {
		return
	}
	if a.touchCtx == nil {
		a.touchCtx, a.stopTouch = context.WithCancel(context.Background())
	}
	a.touched.Store(keyID, now)
	a.touches.Go(func() {
		ctx, cancel := context.WithTimeout(a.touchCtx, 30*time.Second)
		defer cancel()
		_ = a.Store.TouchKey(ctx, keyID, now)
	})
}

// Close cancels the last-used writes still running and waits for them, so
// that none outlives the store; later requests record none.
func (a *Authenticator) Close() {
	a.mu.Lock()
	a.closed = true
	if a.stopTouch != nil {
		a.stopTouch()
	}
	a.mu.Unlock()
	a.touches.Wait()
}

// Require lets only requests with a valid key through.
func (a *Authenticator) Require(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, err := a.Authenticate(r)
		if err != nil {
			if f, ok := Unauthenticated(err); ok {
				w.Header().Set("WWW-Authenticate", a.Challenge(f))
			}
			a.Problems.Write(w, r, err)
			return
		}
		next.ServeHTTP(w, r.WithContext(WithPrincipal(r.Context(), p)))
	})
}
