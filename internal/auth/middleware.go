package auth

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"time"

	"signals/internal/model"
	"signals/internal/problem"
	"signals/internal/store"
)

// Principal is who a request acts for.
type Principal struct {
	Account model.Account
	KeyID   string
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
	// Challenge returns the WWW-Authenticate value of a 401; sent tells
	// whether a credential was presented.
	Challenge func(sent bool) string
	Now       func() time.Time

	touched sync.Map // key id -> time.Time of the last recorded use
}

// touchEvery bounds how often a key's last-used time is written.
const touchEvery = time.Minute

// APIChallenge is the WWW-Authenticate challenge of the HTTP API.
func APIChallenge(sent bool) string {
	if sent {
		return `Bearer realm="signals", error="invalid_token", error_description="the API key is not valid or was revoked"`
	}
	return `Bearer realm="signals"`
}

// Authenticate resolves the request's bearer key. The error is a 401 problem
// when the request carries no valid key.
func (a *Authenticator) Authenticate(r *http.Request) (Principal, error) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return Principal{}, problem.New(http.StatusUnauthorized, problem.CodeMissingCredentials,
			"send an API key as Authorization: Bearer <API_KEY>")
	}
	scheme, token, ok := strings.Cut(h, " ")
	token = strings.TrimSpace(token)
	invalid := problem.New(http.StatusUnauthorized, problem.CodeInvalidCredentials,
		"the API key is not valid or was revoked")
	if !ok || !strings.EqualFold(scheme, "Bearer") || !WellFormed(token) {
		return Principal{}, invalid
	}
	hash := Hash(token)
	key, stored, acct, err := a.Store.KeyByHash(r.Context(), hash)
	if errors.Is(err, store.ErrNotFound) || (err == nil && !Equal(stored, hash)) {
		return Principal{}, invalid
	}
	if err != nil {
		return Principal{}, err
	}
	a.touch(r.Context(), key.ID)
	return Principal{Account: acct, KeyID: key.ID}, nil
}

func (a *Authenticator) touch(ctx context.Context, keyID string) {
	now := a.Now()
	if last, ok := a.touched.Load(keyID); ok && now.Sub(last.(time.Time)) < touchEvery {
		return
	}
	a.touched.Store(keyID, now)
	// Best effort and off the request's path: a write may wait for another
	// process's import to release the database.
	go func() {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		_ = a.Store.TouchKey(ctx, keyID, now)
	}()
}

// Require lets only requests with a valid key through.
func (a *Authenticator) Require(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, err := a.Authenticate(r)
		if err != nil {
			var pr *problem.Problem
			if errors.As(err, &pr) && pr.Status == http.StatusUnauthorized {
				w.Header().Set("WWW-Authenticate", a.Challenge(r.Header.Get("Authorization") != ""))
			}
			a.Problems.Write(w, r, err)
			return
		}
		next.ServeHTTP(w, r.WithContext(WithPrincipal(r.Context(), p)))
	})
}
