package web_test

import (
	"net/http"
	"strings"
	"testing"

	"signals/internal/apptest"
	"signals/internal/failure"
	"signals/internal/problem"
)

func TestDeveloperPages(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	for _, path := range []string{"/developers", "/developers/api", "/developers/mcp", "/developers/errors"} {
		t.Run(path, func(t *testing.T) {
			resp, html := ta.Get(path, "Authorization", "")
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/html; charset=utf-8" {
				t.Fatalf("HTML: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
			}
			resp, md := ta.Get(path, "Authorization", "", "Accept", "text/markdown")
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/markdown; charset=utf-8" {
				t.Fatalf("Markdown: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
			}
			for _, r := range []*http.Response{resp} {
				if r.Header.Get("Vary") != "Accept" || !strings.Contains(r.Header.Get("Cache-Control"), "private") {
					t.Errorf("Vary=%q Cache-Control=%q; want Vary: Accept and no shared caching", r.Header.Get("Vary"), r.Header.Get("Cache-Control"))
				}
			}
			name := strings.ReplaceAll(strings.Trim(path, "/"), "/", "_")
			apptest.GoldenText(t, name+".md", md)
			apptest.GoldenText(t, name+".html", html)
			if strings.Contains(string(md), "{{base}}") || strings.Contains(string(html), "{{base}}") {
				t.Error("an unreplaced {{base}}")
			}
		})
	}
	t.Run("conflicting formats", func(t *testing.T) {
		resp, body := ta.Get("/developers", "Authorization", "", "Accept", "text/markdown", "HX-Request", "true")
		apptest.WantStatus(t, resp, body, http.StatusBadRequest)
		if p := apptest.Decode[problem.Problem](t, body); p.Code != failure.CodeConflictingFormats {
			t.Errorf("code = %s", p.Code)
		}
	})
	t.Run("method", func(t *testing.T) {
		resp, body := ta.Do(http.MethodPost, "/developers", nil, "Authorization", "")
		if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "GET, HEAD" ||
			resp.Header.Get("Content-Type") != "text/html; charset=utf-8" {
			t.Fatalf("%d Allow=%q %s\n%s", resp.StatusCode, resp.Header.Get("Allow"), resp.Header.Get("Content-Type"), body)
		}
		if !strings.Contains(string(body), "method_not_allowed") {
			t.Errorf("the page does not name the code:\n%s", body)
		}
	})
}

// Every problem type and the deprecation link point at an anchor that the
// documentation has.
func TestDocumentationAnchorsExist(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	_, errors := ta.Get("/developers/errors", "Authorization", "")
	for _, c := range failure.Codes {
		code := string(c.Code)
		if !strings.Contains(string(errors), `id="`+code+`"`) {
			t.Errorf("/developers/errors has no anchor #%s", code)
		}
	}
	_, apiPage := ta.Get("/developers/api", "Authorization", "")
	if !strings.Contains(string(apiPage), `id="deprecated-aliases"`) {
		t.Error("/developers/api has no #deprecated-aliases, which the Deprecation Link points at")
	}
}

// Unknown paths are 404 pages for people, problem details for programs
// that prefer JSON and for every API path, and Markdown on request.
func TestUnknownPaths(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	tests := []struct {
		name, path, accept, contentType string
	}{
		{"page", "/nothing", "", "text/html; charset=utf-8"},
		{"nested page", "/developers/nothing", "text/html", "text/html; charset=utf-8"},
		{"admin", "/admin", "", "text/html; charset=utf-8"},
		{"program", "/login", "application/json", "application/problem+json"},
		{"markdown", "/nothing", "text/markdown", "text/markdown; charset=utf-8"},
		{"api", "/api/v2/nothing", "text/html", "application/problem+json"},
		{"well-known", "/.well-known/nothing", "text/html", "application/problem+json"},
		{"hub", "/hubs/nothing", "", "text/html; charset=utf-8"},
		{"article", "/articles/nothing", "", "text/html; charset=utf-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := ta.Get(tt.path, "Authorization", "", "Accept", tt.accept)
			if resp.StatusCode != http.StatusNotFound || resp.Header.Get("Content-Type") != tt.contentType {
				t.Fatalf("%d %s, want 404 %s\n%s", resp.StatusCode, resp.Header.Get("Content-Type"), tt.contentType, body)
			}
			if !strings.Contains(string(body), string(failure.CodeNotFound)) {
				t.Errorf("body does not name not_found:\n%s", body)
			}
		})
	}
}
