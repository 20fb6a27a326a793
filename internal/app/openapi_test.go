package app_test

import (
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"signals/internal/apptest"
	"signals/internal/reads"
)

// document text -> *oastest.Validator

// notServedYet are documented operations whose handlers are not in the
// route table yet.
var notServedYet = map[string]bool{}

var wildcard = regexp.MustCompile(`\{[^}]*\}`)

// TestRouteTableIsDocumented checks every /api/v1 route of the route table
// against the OpenAPI document, and every documented operation against the
// running service.
func TestRouteTableIsDocumented(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	ops := ta.OpenAPI().Operations()
	normal := map[string]string{} // path with "{}" for each template -> documented path
	for p := range ops {
		normal[wildcard.ReplaceAllString(p, "{}")] = p
	}
	catchAll := map[string]bool{"/api": true, "/api/": true, reads.Prefix: true, reads.Prefix + "/": true}
	seen := 0
	for _, pattern := range ta.RoutePatterns() {
		method, path, hasMethod := strings.Cut(pattern, " ")
		if !hasMethod {
			method, path = "", pattern
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
			t.Errorf("route %q is not in the OpenAPI document (paths: %v)", pattern, ops)
			continue
		}
		for _, m := range methods {
			if !slices.Contains(ops[doc], m) {
				t.Errorf("route %q serves %s, which the document does not describe for %s", pattern, m, doc)
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
			resp, body := ta.Do(m, wildcard.ReplaceAllString(path, "x"), nil, "Authorization", "")
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
	ta := apptest.Start(t)
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
		resp, body := ta.Do(tt.method, tt.path, nil)
		if resp.StatusCode != http.StatusNotFound && resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("%s %s = %d\n%s", tt.method, tt.path, resp.StatusCode, body)
		}
	}
}
