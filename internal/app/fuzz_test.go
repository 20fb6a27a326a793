package app_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"signals/internal/apptest"
	"signals/internal/model"
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
	ta := apptest.Start(f)
	ta.Put(apptest.Fixtures()...)
	h := ta.Handler()
	f.Fuzz(func(t *testing.T, method, target string) {
		if !strings.HasPrefix(target, "/api/") {
			return
		}
		req, err := http.NewRequest(method, "http://signals.example"+target, nil)
		if err != nil {
			return
		}
		req.Header.Set("Authorization", "Bearer "+ta.Key)
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

// FuzzMCP posts arbitrary bodies to /mcp: the answer is never a 5xx, and
// tool calls with any arguments come back as results, not crashes.
func FuzzMCP(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"f","version":"1"}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_signals","arguments":{"tags":["job"],"page_size":2}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"get_signal","arguments":{"id":"mb-1"}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"search_signals","arguments":{"query":"robots","limit":0}}}`,
		`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"nope","arguments":{}}}`,
		`[{"jsonrpc":"2.0","id":7,"method":"ping"}]`, `{}`, `not json`,
	} {
		f.Add(s)
	}
	ta := apptest.Start(f)
	ta.Put(apptest.Fixtures()...)
	limits := model.Limits{DailyRequests: 1 << 30, MinuteRequests: 1 << 30, DailySearches: 1 << 30, ConcurrentSearches: 1 << 10}
	if err := ta.Store().SetLimits(context.Background(), 1, limits); err != nil {
		f.Fatal(err)
	}
	h := ta.Handler()
	f.Fuzz(func(t *testing.T, body string) {
		req := httptest.NewRequest(http.MethodPost, "http://signals.example/mcp", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+ta.Key)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2025-06-18")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("%s -> %d %s", body, rec.Code, rec.Body)
		}
	})
}
