package problem

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"signals/internal/failure"
)

// Renderer answers errors. A failure is answered as it is; any other error
// is logged and answered as internal_error 500, so that no stack, SQL text
// or other internal detail ever reaches a client; and a request whose
// client went away is not answered at all.
type Renderer struct {
	// BaseURL is the service's base address; problem types point into its
	// error documentation.
	BaseURL string
	// Log receives internal errors, and clients that went away.
	Log *slog.Logger
	// Format writes the answer; nil is JSON, problem details.
	Format Format
	// Unreachable tells the errors that mean the database cannot be
	// reached (a dropped connection after its retry): they are answered
	// as service_unavailable 503, not internal_error. Nil knows none.
	Unreachable func(error) bool
	// Outage, when set, is told of each error Unreachable recognises: it
	// keeps the outage and logs it once, so that the requests it fails
	// are not a line each.
	Outage func(error)
}

// UnreachableRetryAfter is the wait advertised when the database cannot be
// reached: a dropped connection is usually replaced within it.
const UnreachableRetryAfter = 1

// A Format writes a resolved problem the way one medium shows errors:
// problem details for the JSON API, a page for the website, an error object
// for the OAuth endpoints. The Renderer has set the headers that every
// medium shares (Cache-Control, Retry-After, Allow); the Format sets its
// Content-Type, then writes the status and the body.
type Format interface {
	WriteProblem(w http.ResponseWriter, r *http.Request, p *Problem)
}

// RequestIDHeader is the response header carrying the request id.
const RequestIDHeader = "X-Request-Id"

// WithFormat returns a copy of rn that writes in f.
func (rn Renderer) WithFormat(f Format) Renderer {
	rn.Format = f
	return rn
}

// Resolve turns any error into the problem that describes it to a client,
// logging internal errors with the request id. It returns nil when the
// request was canceled by its own client: nobody is left to answer.
func (rn Renderer) Resolve(r *http.Request, err error) *Problem {
	id := ""
	if r != nil {
		id = r.Header.Get(RequestIDHeader)
	}
	if ClientGone(r, err) {
		if rn.Log != nil {
			rn.Log.Debug("client gone", "request_id", id, "err", err)
		}
		return nil
	}
	f, ok := failure.As(err)
	if !ok && rn.Unreachable != nil && rn.Unreachable(err) {
		if rn.Outage != nil {
			rn.Outage(err)
			if rn.Log != nil {
				rn.Log.Debug("database unreachable", "request_id", id, "err", err)
			}
		} else if rn.Log != nil {
			rn.Log.Warn("database unreachable", "request_id", id, "err", err)
		}
		f = failure.New(failure.CodeServiceUnavailable, "the database cannot be reached; retry after retry_after_seconds").
			WithRetryAfter(UnreachableRetryAfter)
	} else if !ok {
		if rn.Log != nil {
			rn.Log.Error("internal error", "request_id", id, "err", err)
		}
		f = failure.New(failure.CodeInternalError, "the request failed; quote the request id when reporting it")
	}
	p := From(f, rn.BaseURL)
	if !ok {
		p.RequestID = id
	}
	return p
}

// ClientGone reports whether err is the cancellation of r by its client (a
// closed connection, a canceled HTTP/2 stream), rather than a failure of
// the service.
func ClientGone(r *http.Request, err error) bool {
	return r != nil && errors.Is(err, context.Canceled) && errors.Is(r.Context().Err(), context.Canceled)
}

// Write answers err, in the renderer's Format.
func (rn Renderer) Write(w http.ResponseWriter, r *http.Request, err error) {
	p := rn.Resolve(r, err)
	if p == nil {
		return
	}
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	if p.RetryAfterSeconds != nil {
		h.Set("Retry-After", strconv.Itoa(*p.RetryAfterSeconds))
	}
	if len(p.AllowedMethods) > 0 {
		h.Set("Allow", strings.Join(p.AllowedMethods, ", "))
	}
	f := rn.Format
	if f == nil {
		f = JSON{BaseURL: rn.BaseURL}
	}
	f.WriteProblem(w, r, p)
}

// JSON is the Format of the JSON API: application/problem+json.
type JSON struct {
	// BaseURL is the service's base address, for the deprecation link.
	BaseURL string
}

// WriteProblem implements Format.
func (j JSON) WriteProblem(w http.ResponseWriter, r *http.Request, p *Problem) {
	h := w.Header()
	h.Set("Content-Type", "application/problem+json")
	if p.RetryAfterSecondsAlias != nil {
		MarkDeprecatedAliases(h, j.BaseURL)
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
	NewAliasHeaders(baseURL).Mark(h)
}

// AliasHeaders are the headers that announce deprecated aliases for one
// base address, made once for the responses that send them.
type AliasHeaders struct{ deprecation, link []string }

// NewAliasHeaders makes the headers of MarkDeprecatedAliases for baseURL.
func NewAliasHeaders(baseURL string) AliasHeaders {
	return AliasHeaders{
		deprecation: []string{AliasDeprecation},
		link:        []string{"<" + strings.TrimRight(baseURL, "/") + "/developers/api#deprecated-aliases>; rel=\"deprecation\""},
	}
}

// Mark sets Deprecation and adds the deprecation Link to h, as
// MarkDeprecatedAliases does. The slices are shared: each holds one value
// and has no room for more, so a header set later replaces it and one added
// later copies it.
func (a AliasHeaders) Mark(h http.Header) {
	h["Deprecation"] = a.deprecation
	if links := h["Link"]; len(links) > 0 {
		h["Link"] = append(links, a.link[0])
	} else {
		h["Link"] = a.link
	}
}
