package app

import (
	"net/http"
	"path"
	"strings"

	"signals/internal/api"
	"signals/internal/mcp"
	"signals/internal/problem"
	"signals/internal/quota"
)

// routes is the whole route table of the service.
func (a *App) routes() http.Handler {
	mux := &routeTable{ServeMux: http.NewServeMux()}
	key := func(h http.HandlerFunc) http.Handler { return a.auth.Require(a.limiter.Count(h)) }
	methods := func(h map[string]http.Handler) http.Handler {
		return api.Methods{Handlers: h, Problems: a.problems}
	}

	// JSON read API (API key).
	mux.Handle(api.SignalsPath, methods(map[string]http.Handler{
		http.MethodGet: key(a.api.HandleList),
	}))
	mux.Handle(api.SignalsPath+"/", methods(map[string]http.Handler{
		http.MethodGet: key(a.api.HandleGet),
	}))
	mux.Handle(api.SearchPath, methods(map[string]http.Handler{
		http.MethodGet:  key(a.api.HandleGet), // a signal whose id is "search"
		http.MethodPost: key(a.api.HandleSearch),
	}))
	mux.Handle(api.UsagePath, methods(map[string]http.Handler{
		http.MethodGet: key(a.api.HandleUsage),
	}))
	for _, p := range []string{"/api", "/api/", api.Prefix, api.Prefix + "/"} {
		mux.HandleFunc(p, a.api.NotFound)
	}

	// MCP (Streamable HTTP, stateless; API key).
	mux.Handle(mcp.Path, a.mcp)

	// Developer pages: HTML, or Markdown on request.
	for _, p := range a.site.Paths() {
		mux.Handle(p, methods(map[string]http.Handler{http.MethodGet: a.site}))
	}

	// Discovery documents, health checks and /.well-known.
	for _, rt := range a.discovery.Routes() {
		mux.Handle(rt.Pattern, rt.Handler)
	}

	// Everything else is a JSON 404, never an HTML shell or a sign-in page.
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		a.problems.Write(w, r, problem.NotFound("nothing at "+r.URL.Path+"; the developer documentation is at "+
			strings.TrimRight(a.cfg.BaseURL, "/")+"/developers"))
	})

	a.table = mux.routes
	return requestID(accessLog(a.log, withPolicy(jsonAPIPaths(a.api.NotFound, mux))))
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
