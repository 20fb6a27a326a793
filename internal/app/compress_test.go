package app_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"signals/internal/apptest"
	"signals/internal/gzipped"
	"signals/internal/model"
	"signals/internal/store/storetest"
)

// rawGet sends a GET with the given headers through a client that leaves
// the body as the server sent it (no transparent decompression).
func rawGet(t testing.TB, ta *apptest.App, path string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, ta.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	return ta.SendWith(&http.Client{Transport: &http.Transport{DisableCompression: true}}, req, header...)
}

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not gzip: %v", err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("gunzip: %v", err)
	}
	return plain
}

// Text bodies of 1 KB and more are gzipped for clients that ask for it,
// and decode to exactly the plain body; small bodies and clients that do
// not ask are answered plainly; every answer varies on Accept-Encoding.
func TestCompression(t *testing.T) {
	t.Parallel()
	ta := apptest.StartSite(t)
	var more []model.Signal
	for i := range 30 {
		more = append(more, storetest.Sig(fmt.Sprintf("more-%02d", i), 10+i))
	}
	ta.Put(more...)
	if err := ta.Store().SetLimits(t.Context(), 1, model.Limits{DailyRequests: 1000, MinuteRequests: 1000, DailySearches: 10, ConcurrentSearches: 1}); err != nil {
		t.Fatal(err)
	}
	auth := "Bearer " + ta.Key
	for _, tc := range []struct {
		name, path string
		header     []string
		compressed bool
	}{
		{"API list", "/api/v1/signals?page_size=20", []string{"Authorization", auth}, true},
		{"API list of one", "/api/v1/signals?page_size=1", []string{"Authorization", auth}, false},
		{"API error", "/api/v1/signals?tags=nope", []string{"Authorization", auth}, false},
		{"HTML page", "/", nil, true},
		{"Markdown page", "/", []string{"Accept", "text/markdown"}, true},
		{"JSON Feed", "/feed.json", nil, true},
		{"RSS", "/feed.rss", nil, true},
		{"Atom", "/feed.atom", nil, true},
		{"OpenAPI", "/openapi.json", nil, true},
		{"health", "/healthz", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plainResp, plain := rawGet(t, ta, tc.path, append([]string{"Accept-Encoding", "identity"}, tc.header...)...)
			gzResp, gz := rawGet(t, ta, tc.path, append([]string{"Accept-Encoding", "gzip, deflate, br"}, tc.header...)...)
			if plainResp.StatusCode != gzResp.StatusCode {
				t.Fatalf("status %d plain, %d gzip", plainResp.StatusCode, gzResp.StatusCode)
			}
			if plainResp.Header.Get("Content-Encoding") != "" {
				t.Errorf("identity answered with Content-Encoding %q", plainResp.Header.Get("Content-Encoding"))
			}
			for _, resp := range []*http.Response{plainResp, gzResp} {
				if !strings.Contains(strings.Join(resp.Header.Values("Vary"), ","), "Accept-Encoding") {
					t.Errorf("Vary = %q, want Accept-Encoding in it", resp.Header.Values("Vary"))
				}
			}
			if plainResp.Header.Get("Content-Type") != gzResp.Header.Get("Content-Type") {
				t.Errorf("Content-Type %q plain, %q gzip", plainResp.Header.Get("Content-Type"), gzResp.Header.Get("Content-Type"))
			}
			got := gz
			if ce := gzResp.Header.Get("Content-Encoding"); tc.compressed {
				if ce != "gzip" {
					t.Fatalf("%d bytes: Content-Encoding %q, want gzip", len(plain), ce)
				}
				if len(gz) >= len(plain) {
					t.Errorf("gzip body %d bytes, plain %d", len(gz), len(plain))
				}
				got = gunzip(t, gz)
			} else {
				if ce != "" {
					t.Errorf("%d bytes: Content-Encoding %q, want none", len(plain), ce)
				}
				if len(plain) >= gzipped.MinSize {
					t.Errorf("the plain body is %d bytes: not a small one", len(plain))
				}
			}
			if tc.name == "API list" || tc.name == "API list of one" {
				// Lists carry no time of their own: the bodies are equal.
				if !bytes.Equal(got, plain) {
					t.Errorf("decoded body differs from the plain one:\n%s\n%s", got, plain)
				}
			} else if len(got) == 0 || (tc.compressed && len(got) < gzipped.MinSize) {
				t.Errorf("decoded body of %d bytes", len(got))
			}
		})
	}

	t.Run("feed 304", func(t *testing.T) {
		resp, _ := rawGet(t, ta, "/feed.json", "Accept-Encoding", "gzip")
		etag := resp.Header.Get("ETag")
		if resp.Header.Get("Content-Encoding") != "gzip" || !strings.HasPrefix(etag, `W/"`) {
			t.Fatalf("Content-Encoding %q, ETag %q: want gzip and a weak tag", resp.Header.Get("Content-Encoding"), etag)
		}
		resp, body := rawGet(t, ta, "/feed.json", "Accept-Encoding", "gzip", "If-None-Match", etag)
		if resp.StatusCode != http.StatusNotModified || len(body) != 0 || resp.Header.Get("ETag") != etag {
			t.Errorf("If-None-Match %s: %d, %d bytes, ETag %q; want 304 with the same tag", etag, resp.StatusCode, len(body), resp.Header.Get("ETag"))
		}
		plain, _ := rawGet(t, ta, "/feed.json", "Accept-Encoding", "identity", "If-None-Match", etag)
		if plain.StatusCode != http.StatusNotModified {
			t.Errorf("the weak tag from a gzip answer does not validate the plain feed: %d", plain.StatusCode)
		}
	})

	t.Run("MCP", func(t *testing.T) {
		body := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_signals","arguments":{"page_size":20}}}`
		var got [2][]byte
		for i, enc := range []string{"identity", "gzip"} {
			req, err := http.NewRequest(http.MethodPost, ta.URL+"/mcp", strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Authorization", auth)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("MCP-Protocol-Version", "2025-11-25")
			req.Header.Set("Accept-Encoding", enc)
			resp, err := (&http.Client{Transport: &http.Transport{DisableCompression: true}}).Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil || resp.StatusCode != http.StatusOK {
				t.Fatalf("%s: %d %v", enc, resp.StatusCode, err)
			}
			if enc == "gzip" {
				if resp.Header.Get("Content-Encoding") != "gzip" {
					t.Fatalf("MCP result of %d bytes not compressed", len(got[0]))
				}
				b = gunzip(t, b)
			}
			got[i] = b
		}
		if !bytes.Equal(got[0], got[1]) {
			t.Errorf("decoded MCP result differs:\n%s\n%s", got[1], got[0])
		}
	})
}
