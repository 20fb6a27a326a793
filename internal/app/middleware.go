package app

import (
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"time"

	"signals/internal/metrics"
	"signals/internal/problem"
)

// newRequestID returns a new request id: "req-" and 24 random hex digits.
// The prefix keeps an id that happens to be all digits (or digits and one
// e) from reading as a number to a client that types header values.
func newRequestID() string {
	b := make([]byte, 12)
	rand.Read(b)
	return "req-" + hex.EncodeToString(b)
}

// requestID gives every request an id, kept from the client when it is a
// plain token, and returns it in X-Request-Id.
func requestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(problem.RequestIDHeader)
		if !validRequestID.MatchString(id) {
			id = newRequestID()
			r.Header.Set(problem.RequestIDHeader, id)
		}
		// Straight into the map: the names are in http.Header's form.
		h := w.Header()
		h[problem.RequestIDHeader] = []string{id}
		h["X-Content-Type-Options"] = nosniff
		next.ServeHTTP(w, r)
	})
}

// nosniff is the X-Content-Type-Options value of every response, made
// once; a header set later replaces the slice and never writes into it.
var nosniff = []string{"nosniff"}

var validRequestID = regexp.MustCompile(`^[A-Za-z0-9._-]{8,64}$`)

// keyLike matches anything shaped like an API key, so it never reaches a log
// even when a client puts one where it does not belong.
var keyLike = regexp.MustCompile(`sig_[0-9A-Za-z]{8,}`)

// redactKeys replaces what is shaped like a key in p.
func redactKeys(p string) string {
	if !strings.Contains(p, "sig_") {
		return p
	}
	return keyLike.ReplaceAllString(p, "sig_[redacted]")
}

// accessLog logs one line per request: never the query string (it may hold
// anything a client typed) and never anything shaped like a key.
func accessLog(log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &metrics.StatusRecorder{ResponseWriter: w}
		next.ServeHTTP(sw, r)
		attrs := []slog.Attr{
			slog.String("request_id", r.Header.Get(problem.RequestIDHeader)),
			slog.String("method", r.Method),
			slog.String("path", redactKeys(r.URL.EscapedPath())),
			slog.Int("status", sw.Status),
			slog.Duration("duration", time.Since(start)),
		}
		if sw.Status == 0 && r.Context().Err() != nil {
			// Nothing was answered: the client went away first.
			attrs = append(attrs, slog.Bool("client_gone", true))
		}
		log.LogAttrs(r.Context(), slog.LevelInfo, "request", attrs...)
	})
}
