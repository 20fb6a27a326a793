package problem

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
)

// Renderer writes errors as problem details. Known problems are written as
// they are; anything else is logged and answered as internal_error 500, so no
// stack, SQL text or other internal detail ever reaches a client.
type Renderer struct {
	// BaseURL is the service's base address; problem types point into its
	// error documentation.
	BaseURL string
	// Log receives internal errors.
	Log *slog.Logger
}

// RequestIDHeader is the response header carrying the request id.
const RequestIDHeader = "X-Request-Id"

// Resolve turns any error into the problem that describes it to a client,
// logging internal errors with the request id.
func (rn Renderer) Resolve(r *http.Request, err error) *Problem {
	var p *Problem
	if !errors.As(err, &p) {
		id := ""
		if r != nil {
			id = r.Header.Get(RequestIDHeader)
		}
		if rn.Log != nil {
			rn.Log.Error("internal error", "request_id", id, "err", err)
		}
		p = New(http.StatusInternalServerError, CodeInternalError,
			"the request failed; quote the request id when reporting it")
		p.RequestID = id
	}
	c := *p
	c.Type = strings.TrimRight(rn.BaseURL, "/") + "/developers/errors#" + c.Code
	return &c
}

// Write renders err as an application/problem+json response.
func (rn Renderer) Write(w http.ResponseWriter, r *http.Request, err error) {
	p := rn.Resolve(r, err)
	h := w.Header()
	h.Set("Content-Type", "application/problem+json")
	h.Set("Cache-Control", "no-store")
	if p.RetryAfterSeconds != nil {
		h.Set("Retry-After", strconv.Itoa(*p.RetryAfterSeconds))
		MarkDeprecatedAliases(h, rn.BaseURL)
	}
	if len(p.AllowedMethods) > 0 {
		h.Set("Allow", strings.Join(p.AllowedMethods, ", "))
	}
	w.WriteHeader(p.Status)
	if r != nil && r.Method == http.MethodHead {
		return
	}
	_ = json.NewEncoder(w).Encode(p)
}

// AliasDeprecation is the RFC 9745 Deprecation date (2026-01-01T00:00:00Z) of
// the camelCase field aliases.
const AliasDeprecation = "@1767225600"

// MarkDeprecatedAliases sets the headers announcing that a response carries
// deprecated camelCase aliases.
func MarkDeprecatedAliases(h http.Header, baseURL string) {
	h.Set("Deprecation", AliasDeprecation)
	h.Add("Link", "<"+strings.TrimRight(baseURL, "/")+"/developers/api#deprecated-aliases>; rel=\"deprecation\"")
}
