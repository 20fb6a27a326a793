package app

import (
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"signals/internal/discovery/oastest"
	"signals/internal/reads"
)

// validators caches one OpenAPI validator per document.
var validators sync.Map // document text -> *oastest.Validator

func openAPIValidator(t testing.TB, a *App) *oastest.Validator {
	t.Helper()
	doc := a.discovery.OpenAPIDocument()
	if v, ok := validators.Load(string(doc)); ok {
		return v.(*oastest.Validator)
	}
	v, err := oastest.New(doc)
	if err != nil {
		t.Fatalf("OpenAPI document: %v", err)
	}
	validators.Store(string(doc), v)
	return v
}

// checkOpenAPI validates every response to an /api request that a test
// receives against the OpenAPI document the service serves: the status must
// be documented for the operation, the Content-Type declared, the body valid
// for its schema, the required headers present and valid. Undocumented
// methods must be the documented 405 and undocumented paths the shared 404.
func (ta *testApp) checkOpenAPI(req *http.Request, resp *http.Response, body []byte) {
	ta.t.Helper()
	if p := req.URL.Path; p != "/api" && !strings.HasPrefix(p, "/api/") {
		return
	}
	for _, msg := range openAPIValidator(ta.t, ta.App).CheckResponse(req, resp, body) {
		shown := body
		if len(shown) > 600 {
			shown = append(shown[:600:600], "…"...)
		}
		ta.t.Errorf("%s %s -> %d does not match /openapi.json: %s\n%s", req.Method, req.URL.RequestURI(), resp.StatusCode, msg, shown)
	}
}

// notServedYet are documented operations whose handlers are not in the
// route table yet.
var notServedYet = map[string]bool{}

var wildcard = regexp.MustCompile(`\{[^}]*\}`)

// TestRouteTableIsDocumented checks every /api/v1 route of the route table
// against the OpenAPI document, and every documented operation against the
// running service.
func TestRouteTableIsDocumented(t *testing.T) {
	t.Parallel()
	ta := newTestApp(t)
	ops := openAPIValidator(t, ta.App).Operations()
	normal := map[string]string{} // path with "{}" for each template -> documented path
	for p := range ops {
		normal[wildcard.ReplaceAllString(p, "{}")] = p
	}
	catchAll := map[string]bool{"/api": true, "/api/": true, reads.Prefix: true, reads.Prefix + "/": true}
	seen := 0
	for _, rt := range ta.table {
		method, path, hasMethod := strings.Cut(rt.pattern, " ")
		if !hasMethod {
			method, path = "", rt.pattern
		}
		path = path[strings.Index(path, "/"):] // drop a host
		if !strings.HasPrefix(path, reads.Prefix) || catchAll[path] {
			continue
		}
		seen++
		var methods []string
		if method != "" {
			methods = []string{method}
		}
		key := wildcard.ReplaceAllString(strings.TrimSuffix(path, "..."), "{}")
		if strings.HasSuffix(path, "/") {
			key += "{}" // a subtree route serves the templated paths below it
		}
		doc, ok := normal[key]
		if !ok {
			t.Errorf("route %q is not in the OpenAPI document (paths: %v)", rt.pattern, ops)
			continue
		}
		for _, m := range methods {
			if !slices.Contains(ops[doc], m) {
				t.Errorf("route %q serves %s, which the document does not describe for %s", rt.pattern, m, doc)
			}
		}
	}
	if seen == 0 {
		t.Fatal("no /api/v1 route in the route table")
	}

	// Every documented operation is served: without a key it is a 401, not
	// a 404 or 405 (the response is validated like any other).
	for path, methods := range ops {
		for _, m := range methods {
			if notServedYet[m+" "+path] {
				continue
			}
			resp, body := ta.do(m, wildcard.ReplaceAllString(path, "x"), nil, "Authorization", "")
			if resp.StatusCode != http.StatusUnauthorized {
				t.Errorf("documented %s %s answered %d without a key, want 401\n%s", m, path, resp.StatusCode, body)
			}
		}
	}
}

// TestAPIAnswersOutsideTheDocument sends what no operation describes: each
// answer must still be the documented 404 or 405 (checked by checkOpenAPI).
func TestAPIAnswersOutsideTheDocument(t *testing.T) {
	t.Parallel()
	ta := newTestApp(t)
	for _, tt := range []struct{ method, path string }{
		{http.MethodGet, "/api"},
		{http.MethodGet, "/api/v1"},
		{http.MethodGet, "/api/v1/"},
		{http.MethodGet, "/api/v1/nothing"},
		{http.MethodGet, "/api/v1/./signals"},
		{http.MethodGet, "/api/v1/signals/../usage"},
		{http.MethodGet, "/api/v2/signals"},
		{http.MethodDelete, "/api/v1/usage"},
		{http.MethodPatch, "/api/v1/signals/x"},
		{http.MethodHead, "/api/v1/nothing"},
	} {
		resp, body := ta.do(tt.method, tt.path, nil)
		if resp.StatusCode != http.StatusNotFound && resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("%s %s = %d\n%s", tt.method, tt.path, resp.StatusCode, body)
		}
	}
}
