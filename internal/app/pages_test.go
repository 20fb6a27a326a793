package app

import (
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"signals/internal/problem"
)

func TestDeveloperPages(t *testing.T) {
	ta := newTestApp(t)
	for _, path := range []string{"/developers", "/developers/api", "/developers/mcp", "/developers/errors"} {
		t.Run(path, func(t *testing.T) {
			resp, html := ta.get(path, "Authorization", "")
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/html; charset=utf-8" {
				t.Fatalf("HTML: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
			}
			resp, md := ta.get(path, "Authorization", "", "Accept", "text/markdown")
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/markdown; charset=utf-8" {
				t.Fatalf("Markdown: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
			}
			for _, r := range []*http.Response{resp} {
				if r.Header.Get("Vary") != "Accept" || !strings.Contains(r.Header.Get("Cache-Control"), "private") {
					t.Errorf("Vary=%q Cache-Control=%q; want Vary: Accept and no shared caching", r.Header.Get("Vary"), r.Header.Get("Cache-Control"))
				}
			}
			name := strings.ReplaceAll(strings.Trim(path, "/"), "/", "_")
			goldenText(t, name+".md", md)
			goldenText(t, name+".html", html)
			if strings.Contains(string(md), "{{base}}") || strings.Contains(string(html), "{{base}}") {
				t.Error("an unreplaced {{base}}")
			}
		})
	}
	t.Run("conflicting formats", func(t *testing.T) {
		resp, body := ta.get("/developers", "Authorization", "", "Accept", "text/markdown", "HX-Request", "true")
		wantStatus(t, resp, body, http.StatusBadRequest)
		if p := decode[problem.Problem](t, body); p.Code != problem.CodeConflictingFormats {
			t.Errorf("code = %s", p.Code)
		}
	})
	t.Run("method", func(t *testing.T) {
		resp, body := ta.do(http.MethodPost, "/developers", nil, "Authorization", "")
		wantStatus(t, resp, body, http.StatusMethodNotAllowed)
	})
}

// Every problem type and the deprecation link point at an anchor that the
// documentation has.
func TestDocumentationAnchorsExist(t *testing.T) {
	ta := newTestApp(t)
	_, errors := ta.get("/developers/errors", "Authorization", "")
	for code := range problemCodes(t) {
		if !strings.Contains(string(errors), `id="`+code+`"`) {
			t.Errorf("/developers/errors has no anchor #%s", code)
		}
	}
	_, apiPage := ta.get("/developers/api", "Authorization", "")
	if !strings.Contains(string(apiPage), `id="deprecated-aliases"`) {
		t.Error("/developers/api has no #deprecated-aliases, which the Deprecation Link points at")
	}
}

// problemCodes reads every Code* constant of the problem package.
func problemCodes(t *testing.T) map[string]bool {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "problem", "problem.go"))
	if err != nil {
		t.Fatal(err)
	}
	codes := map[string]bool{}
	for _, m := range regexp.MustCompile(`Code\w+\s+= "(\w+)"`).FindAllStringSubmatch(string(src), -1) {
		codes[m[1]] = true
	}
	if len(codes) < 15 {
		t.Fatalf("found only %d codes", len(codes))
	}
	return codes
}

func TestUnknownPathsAreJSON404s(t *testing.T) {
	ta := newTestApp(t)
	for _, path := range []string{"/", "/nothing", "/developers/nothing", "/admin", "/login"} {
		resp, body := ta.get(path, "Authorization", "")
		wantStatus(t, resp, body, http.StatusNotFound)
		if p := decode[problem.Problem](t, body); p.Code != problem.CodeNotFound {
			t.Errorf("%s: code %s", path, p.Code)
		}
	}
}
