package app_test

import (
	"net/http"
	"regexp"
	"signals/internal/apptest"
	"slices"
	"strings"
	"testing"
)

// The discovery documents and the Markdown pages link only to what exists.
func TestDocumentLinksExist(t *testing.T) {
	t.Parallel()
	ta := apptest.StartSite(t)
	base := ta.Config.BaseURL
	link := regexp.MustCompile(regexp.QuoteMeta(base) + `[^\s"'<>)\]\x60,]*`)
	sources := []struct{ path, accept string }{
		{"/llms.txt", ""}, {"/.well-known/api-catalog", ""}, {"/.well-known/mcp.json", ""}, {"/openapi.json", ""},
		{"/", "text/markdown"}, {"/hubs", "text/markdown"}, {"/articles", "text/markdown"}, {"/about", "text/markdown"},
		{"/contact", "text/markdown"}, {"/developers", "text/markdown"}, {"/developers/api", "text/markdown"},
		{"/developers/mcp", "text/markdown"}, {"/developers/errors", "text/markdown"},
	}
	seen := map[string][]string{}
	for _, src := range sources {
		resp, body := ta.Get(src.path, "Authorization", "", "Accept", src.accept)
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d", src.path, resp.StatusCode)
		}
		for _, u := range link.FindAllString(string(body), -1) {
			u = strings.TrimRight(strings.TrimPrefix(u, base), ".:;")
			if u == "" {
				u = "/"
			}
			if path, _, _ := strings.Cut(u, "#"); !slices.Contains(seen[path], src.path) {
				seen[path] = append(seen[path], src.path)
			}
		}
	}
	if len(seen) < 15 {
		t.Fatalf("only %d links found", len(seen))
	}
	for path, from := range seen {
		if strings.Contains(path, "{") || path == "/api/v1" {
			continue // an OpenAPI path template; the API's base, which names it
		}
		if resp, _ := ta.Get(path, "Authorization", ""); resp.StatusCode == http.StatusNotFound {
			t.Errorf("%s, linked from %v, is a 404", path, from)
		}
	}
}
