package app

import (
	"fmt"
	"net/http"
	"path"
	"strings"

	"signals/internal/account"
	"signals/internal/consent"
	"signals/internal/desk"
	"signals/internal/digest"
	"signals/internal/failure"
	"signals/internal/mcp"
	"signals/internal/oauth"
	"signals/internal/quota"
	"signals/internal/reads"
	"signals/internal/session"
)

// routes is the whole route table of the service: one line per route,
// its method and path, then its handler behind its guards. The guards:
// key needs an API key and counts the request against the account's
// allowances; withSession loads the visitor's session, and signedIn needs
// one; changes reads a form that changes something and refuses it
// cross-site, and form only reads it; the desk's routes (deskRoutes) add
// editors. Each group is named by how its routes refuse (a 404, a 405 with
// Allow, a failure): problemJSON with application/problem+json (the API,
// MCP, discovery and the OAuth JSON endpoints), privatePage with a private
// HTML page (sign-in, the account area, OAuth consent, the desk),
// publicPage and publicFile with the website's error page (publicPage
// loads the visitor's session for its navigation; feeds, assets and the
// like do not).
func (a *App) routes() http.Handler {
	t := newRouteTable()
	problemJSON := t.group(a.problems.Write)
	privatePage := t.group(a.privateError)
	publicPage := t.group(a.site.Error, a.sessions.Load)
	publicFile := t.group(a.site.Error)
	key := func(h http.HandlerFunc) http.Handler { return a.auth.Require(a.limiter.Count(h)) }
	withSession := func(h http.HandlerFunc) http.Handler { return a.sessions.Load(h) }
	signedIn := func(h http.HandlerFunc) http.Handler { return a.sessions.Load(session.Require(h)) }
	changes, form := a.forms.changes, a.forms.read

	// JSON read API (API key); any other path under /api is a JSON 404.
	problemJSON.handle("GET "+reads.SignalsPath, key(a.api.HandleList))
	problemJSON.handle("GET "+reads.SignalsPath+"/", key(a.api.HandleGet)) // "search" too: a signal's id
	problemJSON.handle("POST "+reads.SearchPath, key(a.api.HandleSearch))
	problemJSON.handle("GET "+reads.UsagePath, key(a.api.HandleUsage))
	for _, p := range []string{"/api", "/api/", reads.Prefix, reads.Prefix + "/"} {
		problemJSON.handle(p, http.HandlerFunc(a.api.NotFound))
	}

	// MCP (Streamable HTTP, stateless; API key or OAuth access token).
	problemJSON.handle("POST "+mcp.Path, a.mcp)

	// Discovery documents, health checks and /.well-known.
	for _, rt := range a.discovery.Routes() {
		problemJSON.handle(rt.Pattern, rt.Handler)
	}

	// Sign-in, the account area and unsubscription (HTML; docs/accounts-and-mail.md).
	// One-click unsubscription is posted by mail providers, with the token
	// as its only authority, so no origin check applies to it.
	privatePage.handle("GET "+session.SignInPath, withSession(a.account.SignInForm))
	privatePage.handle("POST "+session.SignInPath, changes(withSession(a.account.RequestLink)))
	privatePage.handle("GET "+account.ConfirmPath, withSession(a.account.ConfirmForm))
	privatePage.handle("POST "+account.ConfirmPath, changes(http.HandlerFunc(a.account.Confirm)))
	privatePage.handle("POST /sign-out", changes(withSession(a.account.SignOut)))
	privatePage.handle("GET /account", signedIn(a.account.Account))
	privatePage.handle("POST /account/keys", changes(signedIn(a.account.CreateKey)))
	privatePage.handle("GET /account/keys/{id}/revoke", signedIn(a.account.RevokeKeyForm))
	privatePage.handle("POST /account/keys/{id}/revoke", changes(signedIn(a.account.RevokeKey)))
	privatePage.handle("POST /account/keys/{id}/rename", changes(signedIn(a.account.RenameKey)))
	privatePage.handle("POST /account/connections/{id}/disconnect", changes(signedIn(a.account.Disconnect)))
	privatePage.handle("POST /account/interests", changes(signedIn(a.account.SaveInterests)))
	privatePage.handle("POST /account/interests/stop", changes(signedIn(a.account.StopInterests)))
	privatePage.handle("POST /account/delete", changes(signedIn(a.account.Delete)))
	privatePage.handle("/account/", withSession(a.account.NotFound))
	a.deskRoutes(privatePage)
	privatePage.handle("GET "+digest.UnsubscribePath, http.HandlerFunc(a.account.UnsubscribeForm))
	privatePage.handle("POST "+digest.UnsubscribePath, form(http.HandlerFunc(a.account.Unsubscribe)))

	// OAuth for MCP (docs/mcp.md and docs/accounts-and-mail.md): metadata; the authorization
	// endpoint, a consent page; the JSON token, registration and revocation.
	problemJSON.handle("GET "+consent.ProtectedResourcePath, http.HandlerFunc(a.oauth.ProtectedResource))
	problemJSON.handle("GET "+oauth.AuthorizationServerPath, http.HandlerFunc(a.oauth.AuthorizationServer))
	privatePage.handle("GET "+oauth.AuthorizePath, withSession(a.oauth.Authorize))
	privatePage.handle("POST "+oauth.AuthorizePath, changes(withSession(a.oauth.Decide)))
	problemJSON.handle("POST "+oauth.TokenPath, http.HandlerFunc(a.oauth.Token))
	problemJSON.handle("POST "+oauth.RegisterPath, http.HandlerFunc(a.oauth.Register))
	problemJSON.handle("POST "+oauth.RevokePath, http.HandlerFunc(a.oauth.Revoke))

	// The website: pages (HTML, or Markdown on request; search by meaning
	// for a signed-in person) name the visitor's account in their
	// navigation; feeds, assets and the like do not.
	for _, rt := range a.site.Pages() {
		publicPage.handle(rt.Pattern, withSession(rt.Handler))
	}
	for _, rt := range a.site.Files() {
		publicFile.handle(rt.Pattern, rt.Handler)
	}
	// Any other path is a 404 page (JSON or Markdown to a client that
	// prefers it); /api and /.well-known answer their own 404s above.
	publicPage.handle("/", withSession(a.site.NotFound))

	a.table = t.routes
	return a.outer(t.handler())
}

// deskRoutes are the routes of the editor's desk (docs/desk.md), in the
// route table among the private pages: editors lets through only a
// signed-in editor whose sign-in is younger than desk.SignInAge, by the
// session cookie alone, never a key or a token.
func (a *App) deskRoutes(privatePage routeGroup) {
	editors := func(h http.HandlerFunc) http.Handler { return a.sessions.Load(a.desk.Editors(h)) }
	changes := a.forms.changes
	privatePage.handle("GET "+desk.Path, editors(a.desk.Queue))
	privatePage.handle("POST "+desk.DecidePath, changes(editors(a.desk.Decide)))
	privatePage.handle("POST "+desk.DeletePath, changes(editors(a.desk.Delete)))
	privatePage.handle("GET "+desk.LogPath, editors(a.desk.Log))
	privatePage.handle("GET "+desk.ExportPath, editors(a.desk.Export))
	privatePage.handle(desk.Path+"/", a.sessions.Load(http.HandlerFunc(a.desk.NotFound)))
}

// outer is the middleware every request passes before the route table.
func (a *App) outer(routes http.Handler) http.Handler {
	return a.measuredRequests(requestID(accessLog(a.log, compressed(withPolicy(
		jsonAPIPaths(a.api.NotFound, a.bodyLimit(routes)))))))
}

// privateError answers a request for a personal page with the page of err.
func (a *App) privateError(w http.ResponseWriter, r *http.Request, err error) {
	a.site.PrivateError(w, r, "", err)
}

// withPolicy advertises the initial rate-limit policy on the API and MCP
// paths, so that even a 401 or 404 there names it.
func withPolicy(next http.Handler) http.Handler {
	policy := quota.DefaultPolicy(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := r.URL.Path; strings.HasPrefix(p, "/api/") || p == "/api" || p == "/mcp" {
			policy.ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// bodyLimit answers 413 at once, before authentication and counting, when
// a request to the API or MCP declares a body larger than they take:
// reading it would wait for bytes that may never come.
func (a *App) bodyLimit(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > reads.MaxBodyBytes {
			if p := r.URL.Path; strings.HasPrefix(p, "/api/") || p == mcp.Path {
				a.problems.Write(w, r, failure.New(failure.CodePayloadTooLarge,
					fmt.Sprintf("the body is larger than %d bytes", reads.MaxBodyBytes)))
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// jsonAPIPaths answers API paths that the mux would redirect to a cleaned
// form ("/api/v1/./signals", "//") with a JSON 404: the API never answers
// with HTML, and never redirects.
func jsonAPIPaths(notFound http.HandlerFunc, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.EscapedPath()
		if strings.HasPrefix(p, "/api/") {
			clean := path.Clean(p)
			if strings.HasSuffix(p, "/") && clean != "/" {
				clean += "/"
			}
			if clean != p {
				notFound(w, r)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}
