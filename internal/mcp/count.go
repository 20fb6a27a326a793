package mcp

import (
	"net/http"
	"sync"

	"signals/internal/model"
	"signals/internal/quota"
)

// exchange is one HTTP request to /mcp as the tools see it: the SDK runs
// tool handlers with a context derived from the request's, so they find it
// there, and record what they counted for the response headers.
type exchange struct {
	r       *http.Request
	account model.Account

	mu      sync.Mutex
	counted *quota.Counted
}

type exchangeKey struct{}

// exchangeFrom returns the exchange of a tool call. Calls only arrive
// through ServeHTTP, which always sets one.
func exchangeFrom(ctx interface{ Value(any) any }) *exchange {
	ex, _ := ctx.Value(exchangeKey{}).(*exchange)
	return ex
}

// request returns the HTTP request (for the request id of problems).
func (ex *exchange) request() *http.Request {
	if ex == nil {
		return nil
	}
	return ex.r
}

// record keeps the latest count of the request: a batch of calls reports
// the allowance left after its last one.
func (ex *exchange) record(c quota.Counted) {
	ex.mu.Lock()
	defer ex.mu.Unlock()
	ex.counted = &c
}

// setHeaders advertises the count, if a call was counted or refused.
func (ex *exchange) setHeaders(h http.Header) {
	ex.mu.Lock()
	defer ex.mu.Unlock()
	if ex.counted != nil {
		ex.counted.SetHeaders(h)
	}
}

// countedWriter sets the RateLimit headers of the tool calls just before
// the response header is written: the SDK writes a call's result only after
// its handler returned.
type countedWriter struct {
	http.ResponseWriter
	ex    *exchange
	wrote bool
}

func (w *countedWriter) header() {
	if !w.wrote {
		w.wrote = true
		w.ex.setHeaders(w.ResponseWriter.Header())
	}
}

func (w *countedWriter) WriteHeader(code int) {
	w.header()
	w.ResponseWriter.WriteHeader(code)
}

func (w *countedWriter) Write(b []byte) (int, error) {
	w.header()
	return w.ResponseWriter.Write(b)
}

// Flush lets event streams through.
func (w *countedWriter) Flush() {
	w.header()
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *countedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
