package app_test

import (
	"bytes"
	"net/http"
	"signals/internal/apptest"
	"signals/internal/failure"
	"signals/internal/problem"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDiscoveryDocuments(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	tests := []struct {
		path, contentType, golden string
	}{
		{"/openapi.json", "application/json", "openapi"},
		{"/.well-known/api-catalog", `application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"`, "api_catalog"},
		{"/.well-known/mcp.json", "application/json", "mcp"},
		{"/llms.txt", "text/plain; charset=utf-8", "llms.txt"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			// Discovery documents are public: no key is needed.
			resp, body := ta.Get(tt.path, "Authorization", "")
			if resp.StatusCode != http.StatusOK || resp.Header.Get("X-Request-Id") == "" {
				t.Fatalf("status %d, X-Request-Id %q", resp.StatusCode, resp.Header.Get("X-Request-Id"))
			}
			if got := resp.Header.Get("Content-Type"); got != tt.contentType {
				t.Errorf("Content-Type = %q, want %q", got, tt.contentType)
			}
			if got := resp.Header.Get("Cache-Control"); got != "public, max-age=300" {
				t.Errorf("Cache-Control = %q", got)
			}
			// Browser tools on any origin load them, as they load the feeds.
			if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "*" {
				t.Errorf("Access-Control-Allow-Origin = %q, want *", got)
			}
			if strings.HasSuffix(tt.golden, ".txt") {
				apptest.GoldenText(t, tt.golden, body)
			} else {
				apptest.Golden(t, tt.golden, body)
			}
			if bytes.Contains(body, []byte("localhost")) || !bytes.Contains(body, []byte("https://signals.example/")) {
				t.Error("document does not use the configured base URL")
			}
		})
	}
}

func TestDiscoveryETags(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	for _, path := range []string{"/openapi.json", "/.well-known/api-catalog", "/.well-known/mcp.json", "/llms.txt"} {
		t.Run(path, func(t *testing.T) {
			resp, body := ta.Get(path, "Accept-Encoding", "identity")
			etag := resp.Header.Get("ETag")
			if !strings.HasPrefix(etag, `"`) || !strings.HasSuffix(etag, `"`) || len(etag) < 18 {
				t.Fatalf("ETag = %q, want a strong entity tag", etag)
			}
			// To a client that accepts gzip the same tag is weak, as the
			// body may be compressed; both compare equal in If-None-Match.
			for _, enc := range []struct{ accept, etag string }{{"identity", etag}, {"gzip", "W/" + etag}} {
				resp, _ := ta.Get(path, "Accept-Encoding", enc.accept)
				if got := resp.Header.Get("ETag"); got != enc.etag {
					t.Errorf("Accept-Encoding %s: ETag = %q, want %q", enc.accept, got, enc.etag)
				}
				for _, inm := range []string{etag, "W/" + etag, `"other", ` + etag, "*"} {
					resp, got := ta.Get(path, "If-None-Match", inm, "Accept-Encoding", enc.accept)
					if resp.StatusCode != http.StatusNotModified || len(got) != 0 {
						t.Errorf("If-None-Match %s: %d with %d bytes, want 304 without a body", inm, resp.StatusCode, len(got))
					}
					if resp.Header.Get("ETag") != enc.etag || resp.Header.Get("Cache-Control") != "public, max-age=300" {
						t.Errorf("304 headers: ETag=%q Cache-Control=%q", resp.Header.Get("ETag"), resp.Header.Get("Cache-Control"))
					}
				}
			}
			resp, again := ta.Get(path, "If-None-Match", `"stale"`)
			if resp.StatusCode != http.StatusOK || !bytes.Equal(again, body) {
				t.Errorf("stale If-None-Match: %d", resp.StatusCode)
			}
			resp, head := ta.Do(http.MethodHead, path, nil)
			if resp.StatusCode != http.StatusOK || len(head) != 0 || resp.Header.Get("Content-Length") != strconv.Itoa(len(body)) {
				t.Errorf("HEAD: %d, %d bytes, Content-Length %q (GET body %d bytes)", resp.StatusCode, len(head), resp.Header.Get("Content-Length"), len(body))
			}
		})
	}
}

func TestAPICatalogLink(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	want := `<https://signals.example/.well-known/api-catalog>; rel="api-catalog"`
	for _, method := range []string{http.MethodHead, http.MethodGet} {
		resp, body := ta.Do(method, "/.well-known/api-catalog", nil, "Authorization", "")
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d", method, resp.StatusCode)
		}
		if got := resp.Header.Get("Link"); got != want {
			t.Errorf("%s Link = %q, want %q", method, got, want)
		}
		if method == http.MethodHead && len(body) != 0 {
			t.Errorf("HEAD has a body")
		}
	}
	_, body := ta.Get("/.well-known/api-catalog")
	doc := apptest.Decode[struct {
		Linkset []map[string]any `json:"linkset"`
	}](t, body)
	var apiCtx map[string]any
	for _, c := range doc.Linkset {
		if c["anchor"] == "https://signals.example/api/v1" {
			apiCtx = c
		}
	}
	if apiCtx == nil {
		t.Fatalf("no context anchored at the API in %s", body)
	}
	for _, rel := range []string{"service-desc", "service-doc", "status", "alternate"} {
		if _, ok := apiCtx[rel].([]any); !ok {
			t.Errorf("API context has no %s links", rel)
		}
	}
}

func TestWellKnownNotFound(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	paths := []string{
		"/.well-known/openid-configuration",
		"/.well-known/http-message-signatures-directory",
		"/.well-known/oauth-protected-resource",
		"/.well-known/oauth-protected-resource/api/v1",
		"/.well-known/oauth-authorization-server/anything",
		"/.well-known/",
		"/.well-known",
		"/.well-known/mcp.json/extra",
		"/.well-known/api-catalog/x",
	}
	for _, path := range paths {
		for _, method := range []string{http.MethodGet, http.MethodPost} {
			t.Run(method+" "+path, func(t *testing.T) {
				resp, body := ta.Do(method, path, nil, "Authorization", "", "Accept", "text/html")
				apptest.WantStatus(t, resp, body, http.StatusNotFound)
				p := apptest.Decode[problem.Problem](t, body)
				if p.Code != failure.CodeNotFound || p.Status != http.StatusNotFound || p.Detail == "" {
					t.Errorf("problem = %+v", p)
				}
				if resp.Header.Get("Location") != "" {
					t.Errorf("404 redirects to %q", resp.Header.Get("Location"))
				}
			})
		}
	}
	_, body := ta.Get("/.well-known/openid-configuration")
	apptest.Golden(t, "error_well_known_not_found", body)
}

func TestDiscoveryMethods(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	for _, path := range []string{"/openapi.json", "/.well-known/api-catalog", "/.well-known/mcp.json", "/llms.txt", "/healthz", "/readyz"} {
		resp, body := ta.Do(http.MethodPost, path, strings.NewReader("{}"), "Content-Type", "application/json")
		apptest.WantStatus(t, resp, body, http.StatusMethodNotAllowed)
		if got := resp.Header.Get("Allow"); got != "GET, HEAD" {
			t.Errorf("POST %s: Allow = %q", path, got)
		}
		if p := apptest.Decode[problem.Problem](t, body); p.Code != failure.CodeMethodNotAllowed {
			t.Errorf("POST %s: code %s", path, p.Code)
		}
	}
}

func TestHealth(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	for path, want := range map[string]string{"/healthz": `{"status":"ok"}`, "/readyz": `{"status":"ready"}`} {
		resp, body := ta.Get(path, "Authorization", "")
		apptest.WantStatus(t, resp, body, http.StatusOK)
		if got := strings.TrimSpace(string(body)); got != want {
			t.Errorf("%s = %s, want %s", path, got, want)
		}
		if resp.Header.Get("Cache-Control") != "no-store" || resp.Header.Get("Content-Type") != "application/json" {
			t.Errorf("%s headers: %v", path, resp.Header)
		}
		if resp.Header.Get("RateLimit-Policy") != "" {
			t.Errorf("%s names a rate-limit policy", path)
		}
	}
}

// The OpenAPI document says whom to contact, and that it is under the
// Apache License 2.0, by its SPDX identifier (OpenAPI 3.1 takes an
// identifier or a url, not both).
func TestOpenAPIInfoContactAndLicense(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	_, body := ta.Get("/openapi.json")
	doc := apptest.Decode[struct {
		Info struct {
			Contact struct{ Name, URL string }
			License map[string]string
		}
	}](t, body)
	if doc.Info.Contact.URL != "https://signals.example/contact" || doc.Info.Contact.Name == "" {
		t.Errorf("info.contact = %+v, want a name and https://signals.example/contact", doc.Info.Contact)
	}
	want := map[string]string{"name": "Apache-2.0", "identifier": "Apache-2.0"}
	if diff := cmp.Diff(want, doc.Info.License); diff != "" {
		t.Errorf("info.license (-want +got):\n%s", diff)
	}
}
