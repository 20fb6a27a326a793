package discovery_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"signals/internal/discovery"
	"signals/internal/discovery/oastest"
	"signals/internal/failure"
	"signals/internal/problem"
)

type pinger struct{ err error }

func (p pinger) Ping(context.Context) error { return p.err }

func serve(h *discovery.Handler, method, path string, header ...string) *httptest.ResponseRecorder {
	mux := http.NewServeMux()
	for _, r := range h.Routes() {
		mux.Handle(r.Pattern, r.Handler)
	}
	req := httptest.NewRequest(method, path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, req)
	return rec
}

func newHandler(baseURL string, store discovery.Pinger) *discovery.Handler {
	return discovery.New(discovery.Config{BaseURL: baseURL, Problems: problem.Renderer{BaseURL: baseURL}, Store: store})
}

func TestReadyWhenTheStoreFails(t *testing.T) {
	h := newHandler(base, pinger{errors.New("database is locked")})
	rec := serve(h, http.MethodGet, "/readyz")
	if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Content-Type") != "application/problem+json" {
		t.Fatalf("%d %s\n%s", rec.Code, rec.Header().Get("Content-Type"), rec.Body)
	}
	var p problem.Problem
	if err := json.Unmarshal(rec.Body.Bytes(), &p); err != nil {
		t.Fatal(err)
	}
	if p.Code != failure.CodeServiceBusy || p.Status != 503 || p.Detail == "" || strings.Contains(rec.Body.String(), "locked") {
		t.Errorf("problem = %+v (the store's error must not leak)", p)
	}
	// Liveness does not depend on the store.
	if rec := serve(h, http.MethodGet, "/healthz"); rec.Code != http.StatusOK {
		t.Errorf("healthz = %d while the store is down", rec.Code)
	}
}

func TestETagFollowsTheBytes(t *testing.T) {
	a := serve(newHandler(base, pinger{}), http.MethodGet, "/openapi.json").Header().Get("ETag")
	b := serve(newHandler("https://elsewhere.example", pinger{}), http.MethodGet, "/openapi.json").Header().Get("ETag")
	again := serve(newHandler(base, pinger{}), http.MethodGet, "/openapi.json").Header().Get("ETag")
	if a == "" || a == b || a != again {
		t.Errorf("ETags %q, %q, %q: want stable for the same bytes and different for others", a, again, b)
	}
	if strings.HasPrefix(a, "W/") {
		t.Errorf("ETag %q is weak", a)
	}
}

// TestValidatorCatchesMismatches makes sure the response validation that
// the HTTP tests rely on does reject what the document does not allow.
func TestValidatorCatchesMismatches(t *testing.T) {
	v, err := oastest.New(discovery.OpenAPI(base))
	if err != nil {
		t.Fatal(err)
	}
	okHeaders := map[string]string{
		"Content-Type": "application/json", "Cache-Control": "no-store", "X-Request-Id": "0123456789abcdef",
		"RateLimit-Policy": `"minute";q=30;w=60`, "RateLimit": `"minute";r=29;t=10`,
		"Deprecation": problem.AliasDeprecation, "Link": "<" + base + "/developers/api>; rel=\"deprecation\"",
	}
	usage := `{"daily_requests":{"limit":1000,"used":1,"remaining":999},` +
		`"minute_requests":{"limit":30,"used":1,"remaining":29,"reset_at":"2026-11-21T12:01:00Z"},` +
		`"daily_searches":{"limit":10,"used":0,"remaining":10},"reset_at":"2026-11-22T00:00:00Z",` +
		`"dailyRequests":{"limit":1000,"used":1,"remaining":999},` +
		`"minuteRequests":{"limit":30,"used":1,"remaining":29,"reset_at":"2026-11-21T12:01:00Z"},` +
		`"dailySearches":{"limit":10,"used":0,"remaining":10},"resetAt":"2026-11-22T00:00:00Z"}`
	notFound := `{"type":"` + base + `/developers/errors#not_found","title":"Not found","status":404,"detail":"x","code":"not_found"}`
	problemHeaders := map[string]string{"Content-Type": "application/problem+json", "Cache-Control": "no-store",
		"X-Request-Id": "0123456789abcdef", "RateLimit-Policy": `"minute";q=30;w=60`}
	tests := []struct {
		name, method, path string
		status             int
		headers            map[string]string
		drop               string
		body               string
		valid              bool
	}{
		{"usage", "GET", "/api/v1/usage", 200, okHeaders, "", usage, true},
		{"head usage", "HEAD", "/api/v1/usage", 200, okHeaders, "", "", true},
		{"unknown field", "GET", "/api/v1/usage", 200, okHeaders, "", strings.Replace(usage, `{"daily_requests"`, `{"extra":1,"daily_requests"`, 1), false},
		{"missing alias", "GET", "/api/v1/usage", 200, okHeaders, "", strings.Replace(usage, `,"resetAt":"2026-11-22T00:00:00Z"`, "", 1), false},
		{"bad timestamp", "GET", "/api/v1/usage", 200, okHeaders, "", strings.Replace(usage, `"reset_at":"2026-11-22T00:00:00Z"`, `"reset_at":"tomorrow"`, 1), false},
		{"missing header", "GET", "/api/v1/usage", 200, okHeaders, "RateLimit", usage, false},
		{"wrong content type", "GET", "/api/v1/usage", 200, map[string]string{"Content-Type": "text/html"}, "", usage, false},
		{"undocumented status", "GET", "/api/v1/usage", 404, problemHeaders, "", notFound, false},
		{"empty body", "GET", "/api/v1/usage", 200, okHeaders, "", "", false},
		{"signal 404", "GET", "/api/v1/signals/nope", 404, problemHeaders, "", notFound, true},
		{"unknown path 404", "GET", "/api/v1/nothing", 404, problemHeaders, "", notFound, true},
		{"unknown path 200", "GET", "/api/v1/nothing", 200, okHeaders, "", usage, false},
		{"unknown path without policy", "GET", "/api/v1/nothing", 404, problemHeaders, "RateLimit-Policy", notFound, false},
		{"undocumented method 200", "DELETE", "/api/v1/usage", 200, okHeaders, "", usage, false},
		{"wrong code for status", "GET", "/api/v1/signals/nope", 404, problemHeaders, "", strings.Replace(notFound, `"not_found"`, `"invalid_parameter"`, 1), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest(tt.method, base+tt.path, nil)
			resp := &http.Response{StatusCode: tt.status, Header: http.Header{}, Request: req}
			for k, val := range tt.headers {
				if k != tt.drop {
					resp.Header.Set(k, val)
				}
			}
			got := v.CheckResponse(req, resp, []byte(tt.body))
			if tt.valid && len(got) > 0 {
				t.Errorf("valid exchange rejected: %v", got)
			}
			if !tt.valid && len(got) == 0 {
				t.Error("invalid exchange accepted")
			}
		})
	}
}
