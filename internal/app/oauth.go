package app

import (
	"net/http"
	"strings"

	"signals/internal/auth"
	"signals/internal/oauth"
)

// authenticateMCP resolves the bearer credential of a request to /mcp: an
// OAuth access token, or an API key.
func (a *App) authenticateMCP(r *http.Request) (auth.Principal, error) {
	scheme, token, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	if token = strings.TrimSpace(token); strings.EqualFold(scheme, "Bearer") && oauth.IsToken(token) {
		return a.oauth.Authenticate(r.Context(), token)
	}
	return a.auth.Authenticate(r)
}
