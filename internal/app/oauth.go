package app

import (
	"net/http"
	"strings"

	"signals/internal/auth"
	"signals/internal/consent"
	"signals/internal/oauth"
)

// newOAuth builds the OAuth server of /mcp. Its pages are the account
// area's, which is built after it (the account area lists its
// connections).
func (a *App) newOAuth() {
	a.oauth = oauth.New(oauth.Config{BaseURL: a.cfg.BaseURL, Store: a.store, Throttle: a.store,
		Pages: accountPages{a}, Log: a.log, Now: a.now, Unreachable: a.problems.Unreachable})
}

// accountPages lends the account area's pages to the OAuth server.
type accountPages struct{ a *App }

func (p accountPages) Consent(w http.ResponseWriter, r *http.Request, c consent.Consent) {
	p.a.account.Consent(w, r, c)
}

func (p accountPages) Fail(w http.ResponseWriter, r *http.Request, title string, err error) {
	p.a.account.Fail(w, r, title, err)
}

// authenticateMCP resolves the bearer credential of a request to /mcp: an
// OAuth access token, or an API key.
func (a *App) authenticateMCP(r *http.Request) (auth.Principal, error) {
	scheme, token, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	if token = strings.TrimSpace(token); strings.EqualFold(scheme, "Bearer") && oauth.IsToken(token) {
		return a.oauth.Authenticate(r.Context(), token)
	}
	return a.auth.Authenticate(r)
}
