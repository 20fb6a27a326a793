package app

import (
	"net/http"
	"slices"
	"strings"

	"signals/internal/failure"
)

// route is one registered pattern.
type route struct {
	pattern string
	handler http.Handler
}

// routeTable is a ServeMux whose routes name their methods ("GET /hubs").
// It remembers what was registered, so that the route table can be
// checked against the OpenAPI document, and it answers a method a path
// does not serve with 405 and the Allow list of the methods it does.
type routeTable struct {
	mux    *http.ServeMux
	routes []route
	// methods are the methods routes name, sorted.
	methods []string
	// refusals answer the methods a path does not serve, by path, in the
	// order the paths were first registered.
	paths    []string
	refusals map[string]http.Handler
}

func newRouteTable() *routeTable {
	return &routeTable{mux: http.NewServeMux(), refusals: map[string]http.Handler{}}
}

// routeGroup registers routes whose refusals share a medium.
type routeGroup struct {
	t      *routeTable
	refuse http.Handler
}

// group returns a group whose refusals are written by write, behind the
// guards (such as loading the session) that the group's pages have.
func (t *routeTable) group(write func(http.ResponseWriter, *http.Request, error), guards ...func(http.Handler) http.Handler) routeGroup {
	var refuse http.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		write(w, r, failure.MethodNotAllowed(r.Method, t.allowed(r)))
	})
	for _, g := range slices.Backward(guards) {
		refuse = g(refuse)
	}
	return routeGroup{t: t, refuse: refuse}
}

// handle registers h for pattern. A pattern that names a method makes
// its path refuse the methods that no route of the table serves there; one
// without a method serves every method.
func (g routeGroup) handle(pattern string, h http.Handler) {
	t := g.t
	t.mux.Handle(pattern, h)
	t.routes = append(t.routes, route{pattern, h})
	method, path, ok := strings.Cut(pattern, " ")
	if !ok {
		return
	}
	if !slices.Contains(t.methods, method) {
		t.methods = append(t.methods, method)
		slices.Sort(t.methods)
	}
	if _, seen := t.refusals[path]; !seen {
		t.paths = append(t.paths, path)
		t.refusals[path] = g.refuse
	}
}

// handler registers the refusals and returns the table's handler. A
// pattern with a method is more specific than its path alone, so the
// refusal of a path answers only the methods no route serves there. A
// path inside the subtree of another ("/api/v1/signals/search" in
// "/api/v1/signals/") is refused by the subtree's, as a refusal of its
// own would overlap the subtree's routes.
func (t *routeTable) handler() http.Handler {
	for _, path := range t.paths {
		if !slices.ContainsFunc(t.paths, func(tree string) bool {
			return tree != path && strings.HasSuffix(tree, "/") && strings.HasPrefix(path, tree)
		}) {
			t.mux.Handle(path, t.refusals[path])
		}
	}
	return t.mux
}

// allowed lists the methods the table serves at r's path, HEAD wherever
// GET is, sorted: the routes the mux would pick for each method are asked.
func (t *routeTable) allowed(r *http.Request) []string {
	var allow []string
	for _, m := range t.methods {
		probe := &http.Request{Method: m, Host: r.Host, URL: r.URL}
		if _, pattern := t.mux.Handler(probe); strings.HasPrefix(pattern, m+" ") {
			allow = append(allow, m)
			if m == http.MethodGet {
				allow = append(allow, http.MethodHead)
			}
		}
	}
	slices.Sort(allow)
	return allow
}
