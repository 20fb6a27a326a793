package app

import (
	"fmt"
	"net/http"
	"path"
	"strings"

	"signals/internal/consent"
	"signals/internal/digest"
	"signals/internal/failure"
	"signals/internal/mcp"
	"signals/internal/oauth"
	"signals/internal/problem"
	"signals/internal/quota"
	"signals/internal/reads"
	"signals/internal/session"
	"signals/internal/web"
)

// routes is the whole route table of the service.
func (a *App) routes() http.Handler {
	mux := &routeTable{ServeMux: http.NewServeMux()}
	key := func(h http.HandlerFunc) http.Handler { return a.auth.Require(a.limiter.Count(h)) }
	methods := func(h map[string]http.Handler) http.Handler {
		return problem.Methods{Handlers: h, Problems: a.problems}
	}

	// JSON read API (API key).
	mux.Handle(reads.SignalsPath, methods(map[string]http.Handler{
		http.MethodGet: key(a.api.HandleList),
	}))
	mux.Handle(reads.SignalsPath+"/", methods(map[string]http.Handler{
		http.MethodGet: key(a.api.HandleGet),
	}))
	mux.Handle(reads.SearchPath, methods(map[string]http.Handler{
		http.MethodGet:  key(a.api.HandleGet), // a signal whose id is "search"
		http.MethodPost: key(a.api.HandleSearch),
	}))
	mux.Handle(reads.UsagePath, methods(map[string]http.Handler{
		http.MethodGet: key(a.api.HandleUsage),
	}))
	for _, p := range []string{"/api", "/api/", reads.Prefix, reads.Prefix + "/"} {
		mux.HandleFunc(p, a.api.NotFound)
	}

	// MCP (Streamable HTTP, stateless; API key or OAuth access token).
	mux.Handle(mcp.Path, a.mcp)

	// Discovery documents, health checks and /.well-known.
	for _, rt := range a.discovery.Routes() {
		mux.Handle(rt.Pattern, rt.Handler)
	}

	// Sign-in, the account area and unsubscription (HTML; DESIGN §10).
	// Pages read the session cookie; forms that change anything are
	// refused cross-site before they run; the account area needs a
	// session. One-click unsubscription is posted by mail providers, with
	// the token as its only authority, so no origin check applies to it.
	page := a.account.Methods
	form := a.account.Forms
	withSession := func(h http.HandlerFunc) http.Handler { return a.sessions.Load(h) }
	signedIn := func(h http.HandlerFunc) http.Handler { return a.sessions.Load(session.Require(h)) }
	mux.Handle("/sign-in", page(map[string]http.Handler{
		http.MethodGet:  withSession(a.account.SignInForm),
		http.MethodPost: form(withSession(a.account.RequestLink)),
	}))
	mux.Handle("/sign-in/confirm", page(map[string]http.Handler{
		http.MethodGet:  withSession(a.account.ConfirmForm),
		http.MethodPost: form(http.HandlerFunc(a.account.Confirm)),
	}))
	mux.Handle("/sign-out", page(map[string]http.Handler{http.MethodPost: form(withSession(a.account.SignOut))}))
	mux.Handle("/account", page(map[string]http.Handler{http.MethodGet: signedIn(a.account.Account)}))
	mux.Handle("/account/keys", page(map[string]http.Handler{http.MethodPost: form(signedIn(a.account.CreateKey))}))
	mux.Handle("/account/keys/{id}/revoke", page(map[string]http.Handler{
		http.MethodGet:  signedIn(a.account.RevokeKeyForm),
		http.MethodPost: form(signedIn(a.account.RevokeKey)),
	}))
	mux.Handle("/account/keys/{id}/rename", page(map[string]http.Handler{http.MethodPost: form(signedIn(a.account.RenameKey))}))
	mux.Handle("/account/connections/{id}/disconnect", page(map[string]http.Handler{http.MethodPost: form(signedIn(a.account.Disconnect))}))
	mux.Handle("/account/interests", page(map[string]http.Handler{http.MethodPost: form(signedIn(a.account.SaveInterests))}))
	mux.Handle("/account/interests/stop", page(map[string]http.Handler{http.MethodPost: form(signedIn(a.account.StopInterests))}))
	mux.Handle("/account/delete", page(map[string]http.Handler{http.MethodPost: form(signedIn(a.account.Delete))}))
	mux.Handle("/account/", withSession(a.account.NotFound))
	mux.Handle(digest.UnsubscribePath, page(map[string]http.Handler{
		http.MethodGet:  http.HandlerFunc(a.account.UnsubscribeForm),
		http.MethodPost: http.HandlerFunc(a.account.Unsubscribe),
	}))

	// OAuth for MCP (DESIGN §8 and §10) ------------------------------
	// Metadata documents; then the authorization endpoint, which is a
	// page (signed-in consent, its form refused cross-site); then the
	// token, registration and revocation endpoints, which answer RFC 6749
	// JSON to clients.
	mux.Handle(consent.ProtectedResourcePath, methods(map[string]http.Handler{
		http.MethodGet: http.HandlerFunc(a.oauth.ProtectedResource),
	}))
	mux.Handle(oauth.AuthorizationServerPath, methods(map[string]http.Handler{
		http.MethodGet: http.HandlerFunc(a.oauth.AuthorizationServer),
	}))
	mux.Handle(oauth.AuthorizePath, page(map[string]http.Handler{
		http.MethodGet:  withSession(a.oauth.Authorize),
		http.MethodPost: form(withSession(a.oauth.Decide)),
	}))
	mux.Handle(oauth.TokenPath, methods(map[string]http.Handler{http.MethodPost: http.HandlerFunc(a.oauth.Token)}))
	mux.Handle(oauth.RegisterPath, methods(map[string]http.Handler{http.MethodPost: http.HandlerFunc(a.oauth.Register)}))
	mux.Handle(oauth.RevokePath, methods(map[string]http.Handler{http.MethodPost: http.HandlerFunc(a.oauth.Revoke)}))
	// ------------------------------------------------------------------

	// --- Website -------------------------------------------------------
	// The public feed at "/", hubs, articles, About, Contact, the developer
	// pages (HTML, or Markdown on request), the feeds and the site's assets.
	for _, rt := range a.site.Routes() {
		mux.Handle(rt.Pattern, rt.Handler)
	}
	// Semantic search for a signed-in person: the API's search service,
	// spending the account's daily searches but not its requests, which
	// count the API and MCP (CONTRACT §8); a visitor is told how to sign in.
	mux.Handle(web.SearchPath, a.site.SearchPage())
	// Any other path is a 404 page (problem details to a client that
	// prefers JSON, Markdown to one that asks for it); unknown API paths
	// stay JSON above, and /.well-known answers for itself.
	mux.Handle("/", a.site.WithSession(http.HandlerFunc(a.site.NotFound)))
	// --- End of website ------------------------------------------------

	a.table = mux.routes
	return a.measuredRequests(requestID(accessLog(a.log, compressed(withPolicy(jsonAPIPaths(a.api.NotFound, a.bodyLimit(mux)))))))
}

// route is one registered pattern.
type route struct {
	pattern string
	handler http.Handler
}

// routeTable is a ServeMux that remembers what was registered, so that the
// route table can be checked against the OpenAPI document.
type routeTable struct {
	*http.ServeMux
	routes []route
}

func (m *routeTable) Handle(pattern string, h http.Handler) {
	m.ServeMux.Handle(pattern, h)
	m.routes = append(m.routes, route{pattern, h})
}

func (m *routeTable) HandleFunc(pattern string, h func(http.ResponseWriter, *http.Request)) {
	m.Handle(pattern, http.HandlerFunc(h))
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
