package app

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// FuzzAPI sends arbitrary paths and query strings to the API: every answer
// must be a JSON success or a 4xx problem, never a 500.
func FuzzAPI(f *testing.F) {
	for _, s := range []string{
		"/api/v1/signals?tags=job", "/api/v1/signals/mb-1", "/api/v1/signals/%2F%2E%2E",
		"/api/v1/signals?q=%25&page=3", "/api/v1/signals?observed_after=2026-01-01T00:00:00Z",
		"/api/v1/signals/" + strings.Repeat("%FF", 10), "/api/v1/x?y", "/api/v1/signals?=&&=",
	} {
		f.Add(http.MethodGet, s)
	}
	f.Add(http.MethodPost, "/api/v1/signals")
	ta := newTestApp(&testing.T{})
	ta.put(fixtures()...)
	h := ta.Handler()
	f.Fuzz(func(t *testing.T, method, target string) {
		if !strings.HasPrefix(target, "/api/") {
			return
		}
		req, err := http.NewRequest(method, "http://signals.example"+target, nil)
		if err != nil {
			return
		}
		req.Header.Set("Authorization", "Bearer "+ta.key)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("%s %s -> %d %s", method, target, rec.Code, rec.Body)
		}
		ct := rec.Header().Get("Content-Type")
		if method != http.MethodHead && !strings.HasPrefix(ct, "application/json") && ct != "application/problem+json" {
			t.Fatalf("%s %s -> Content-Type %q", method, target, ct)
		}
	})
}
