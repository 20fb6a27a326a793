// Package session provides browser sessions: the one-time secrets behind
// sign-in links and session cookies, the cookie itself, and the middleware
// that finds who a request is signed in as.
package session

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"net/http"
	"net/url"
	"time"

	"signals/internal/auth"
	"signals/internal/model"
	"signals/internal/store"
)

// Lifetime is how long a session lasts after its last renewal.
const Lifetime = 30 * 24 * time.Hour

// renewEvery bounds how often a session in use is renewed (one write, and a
// new cookie), so that a busy page does not write on every request.
const renewEvery = time.Hour

// Cookie names: the __Host- prefix makes browsers refuse the cookie unless
// it is Secure, host-only and for the whole site, which only https allows.
const (
	CookieName       = "signals_session"
	SecureCookieName = "__Host-signals_session"
)

// tokenBytes is the randomness of a token: 256 bits, nothing to guess.
const tokenBytes = 32

// NewToken returns a fresh random token, URL-safe, and the hash to store.
// Tokens are as strong as API keys, so they are hashed the same way.
func NewToken() (token string, hash []byte) {
	b := make([]byte, tokenBytes)
	rand.Read(b)
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, auth.Hash(token)
}

// WellFormed reports whether s has the shape of a token, so that anything
// else is refused before the store is asked.
func WellFormed(s string) bool {
	if len(s) != base64.RawURLEncoding.EncodedLen(tokenBytes) {
		return false
	}
	_, err := base64.RawURLEncoding.DecodeString(s)
	return err == nil
}

// Manager starts, finds and ends sessions.
type Manager struct {
	Store store.Sessions
	Now   func() time.Time
	// Secure is true when the service is served over https: the cookie is
	// then Secure and named SecureCookieName.
	Secure bool
	// Fail answers a request whose session could not be read (the store
	// failed): it is neither signed in nor out.
	Fail func(w http.ResponseWriter, r *http.Request, err error)
}

// Current is who a request is signed in as.
type Current struct {
	Account model.Account
	// SignedInAt is when this session began: when its link was confirmed.
	// Renewal moves the session's expiry, never this.
	SignedInAt time.Time
	hash       []byte
}

// Fresh reports whether the session began within maxAge of now: actions
// that need a recent sign-in (step-up) ask for a new one otherwise.
func (c Current) Fresh(now time.Time, maxAge time.Duration) bool {
	return now.Sub(c.SignedInAt) < maxAge
}

type currentKey struct{}

// FromContext returns the session of a signed-in request.
func FromContext(ctx context.Context) (Current, bool) {
	c, ok := ctx.Value(currentKey{}).(Current)
	return c, ok
}

// CookieName returns the name of the session cookie.
func (m *Manager) CookieName() string {
	if m.Secure {
		return SecureCookieName
	}
	return CookieName
}

// Start creates a session for the account and sets its cookie, ending the
// session the request carried, if any: a session never survives signing
// in, so a cookie planted before cannot ride on it.
func (m *Manager) Start(w http.ResponseWriter, r *http.Request, accountID int64) error {
	ctx := r.Context()
	if old := m.token(r); old != "" {
		if err := m.Store.DeleteSession(ctx, auth.Hash(old)); err != nil {
			return err
		}
	}
	token, hash := NewToken()
	now := m.Now()
	s := store.Session{Hash: hash, AccountID: accountID, CreatedAt: now, ExpiresAt: now.Add(Lifetime)}
	if err := m.Store.CreateSession(ctx, s); err != nil {
		return err
	}
	m.setCookie(w, token, Lifetime)
	return nil
}

func (m *Manager) setCookie(w http.ResponseWriter, token string, maxAge time.Duration) {
	c := &http.Cookie{
		Name: m.CookieName(), Value: token, Path: "/",
		HttpOnly: true, Secure: m.Secure, SameSite: http.SameSiteLaxMode,
		MaxAge: int(maxAge / time.Second),
	}
	if maxAge <= 0 {
		c.MaxAge = -1
	}
	http.SetCookie(w, c)
}

// Load finds the request's session, renews it when due, and passes the
// request on, signed in or not.
func (m *Manager) Load(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := m.find(w, r)
		if err != nil && m.Fail != nil {
			m.Fail(w, r, err)
			return
		}
		if err != nil {
			http.Error(w, "the session could not be read", http.StatusInternalServerError)
			return
		}
		if c != nil {
			r = r.WithContext(context.WithValue(r.Context(), currentKey{}, *c))
		}
		next.ServeHTTP(w, r)
	})
}

func (m *Manager) find(w http.ResponseWriter, r *http.Request) (*Current, error) {
	token := m.token(r)
	if token == "" {
		return nil, nil
	}
	hash := auth.Hash(token)
	now := m.Now()
	s, acct, err := m.Store.SessionByHash(r.Context(), hash, now)
	if errors.Is(err, store.ErrNotFound) || (err == nil && !auth.Equal(s.Hash, hash)) {
		m.setCookie(w, "", 0) // a stale cookie goes away
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if s.ExpiresAt.Sub(now) < Lifetime-renewEvery {
		if err := m.Store.RenewSession(r.Context(), hash, now.Add(Lifetime)); err == nil {
			m.setCookie(w, token, Lifetime)
		}
	}
	return &Current{Account: acct, SignedInAt: s.CreatedAt, hash: hash}, nil
}

// token returns the request's well-formed session token, or "".
func (m *Manager) token(r *http.Request) string {
	c, err := r.Cookie(m.CookieName())
	if err != nil || !WellFormed(c.Value) {
		return ""
	}
	return c.Value
}

// End ends the request's session on the server and clears its cookie.
func (m *Manager) End(w http.ResponseWriter, r *http.Request) error {
	token := m.token(r)
	if token == "" {
		return nil
	}
	m.setCookie(w, "", 0)
	return m.Store.DeleteSession(r.Context(), auth.Hash(token))
}

// SignInPath is where a request without a session is sent to sign in.
const SignInPath = "/sign-in"

// Require lets only signed-in requests through (after Load); others are
// sent to sign in, and come back here afterwards.
func Require(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, ok := FromContext(r.Context()); ok {
			next.ServeHTTP(w, r)
			return
		}
		SignIn(w, r, "")
	})
}

// NoticeSignInAgain is the sign-in page's notice for a person whose
// sign-in is too old for what they asked (step-up).
const NoticeSignInAgain = "sign-in-again"

// RequireFresh lets through only requests signed in within maxAge of now
// (after Load): step-up for actions that must not ride on an old session.
// Others are sent to sign in (again), and come back here afterwards.
func RequireFresh(maxAge time.Duration, now func() time.Time, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, ok := FromContext(r.Context())
		switch {
		case !ok:
			SignIn(w, r, "")
		case !c.Fresh(now(), maxAge):
			SignIn(w, r, NoticeSignInAgain)
		default:
			next.ServeHTTP(w, r)
		}
	})
}

// SignIn answers with a redirect (303) to the sign-in page, whose notice
// is notice ("" for none) and which leads back to this page after: a GET's
// address, never a form's, which a redirect cannot replay.
func SignIn(w http.ResponseWriter, r *http.Request, notice string) {
	back := r.URL.Path
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		back = ""
	}
	if q := r.URL.RawQuery; back != "" && q != "" {
		back += "?" + q
	}
	v := url.Values{}
	if back != "" {
		v.Set("next", back)
	}
	if notice != "" {
		v.Set("notice", notice)
	}
	target := SignInPath
	if len(v) > 0 {
		target += "?" + v.Encode()
	}
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, target, http.StatusSeeOther)
}

// Ended returns ctx without its session, for the answer to a request that
// ended it.
func Ended(ctx context.Context) context.Context {
	return context.WithValue(ctx, currentKey{}, nil)
}
