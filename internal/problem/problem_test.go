package problem

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"signals/internal/failure"
)

func TestEveryCodeHasAStatus(t *testing.T) {
	for _, i := range failure.Codes {
		if _, ok := statuses[i.Code]; !ok {
			t.Errorf("%s has no HTTP status", i.Code)
		}
	}
	if len(statuses) != len(failure.Codes) {
		t.Errorf("%d statuses for %d codes", len(statuses), len(failure.Codes))
	}
}

func TestResolve(t *testing.T) {
	rn := Renderer{BaseURL: "https://signals.example/"}
	r := httptest.NewRequest(http.MethodGet, "/api/v1/signals", nil)
	r.Header.Set(RequestIDHeader, "req-12345678")
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name string
		r    *http.Request
		err  error
		want string // the problem as JSON, "" for none
	}{
		{"a wrapped failure", r, fmt.Errorf("store: get: %w", failure.NotFound("no such thing")),
			`{"type":"https://signals.example/developers/errors#not_found","title":"Not found","status":404,"detail":"no such thing","code":"not_found"}`},
		{"a wait", r, failure.New(failure.CodeMinuteLimitReached, "wait").WithRetryAfter(45),
			`{"type":"https://signals.example/developers/errors#minute_limit_reached","title":"Minute limit reached","status":429,"detail":"wait","code":"minute_limit_reached","retry_after_seconds":45,"retryAfterSeconds":45}`},
		{"an endpoint without parameters", r, failure.Unknown("x", []string{}),
			`{"type":"https://signals.example/developers/errors#unknown_parameter","title":"Unknown parameter","status":400,"detail":"x is not a parameter of this endpoint","code":"unknown_parameter","param":"x","validation_message":"is not a parameter of this endpoint","allowed_values":[]}`},
		{"an internal error", r, errors.New("disk on fire"),
			`{"type":"https://signals.example/developers/errors#internal_error","title":"Internal error","status":500,"detail":"the request failed; quote the request id when reporting it","code":"internal_error","request_id":"req-12345678"}`},
		{"a cancellation of the service's own", r, fmt.Errorf("embed: %w", context.Canceled),
			`{"type":"https://signals.example/developers/errors#internal_error","title":"Internal error","status":500,"detail":"the request failed; quote the request id when reporting it","code":"internal_error","request_id":"req-12345678"}`},
		{"the client went away", r.WithContext(gone), fmt.Errorf("store: list: %w", context.Canceled), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := rn.Resolve(tc.r, tc.err)
			got := ""
			if p != nil {
				b, _ := json.Marshal(p)
				got = string(b)
			}
			if got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}
