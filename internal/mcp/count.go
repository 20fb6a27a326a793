package mcp

import (
	"net/http"
	"sync"

	"signals/internal/model"
	"signals/internal/problem"
	"signals/internal/quota"
)

// exchange is one HTTP request to /mcp as the tools see it: the SDK runs
// tool handlers with a context derived from the request's, so they find it
// there, and record what they counted for the response headers.
type exchange struct {
	r       *http.Request
	account model.Account

	mu    sync.Mutex
	count *quota.Counted
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
	ex.count = &c
}

// counted returns the count of the request's last counted or refused call.
func (ex *exchange) counted() (quota.Counted, bool) {
	ex.mu.Lock()
	defer ex.mu.Unlock()
	if ex.count == nil {
		return quota.Counted{}, false
	}
	return *ex.count, true
}

// setRateLimit advertises in h the count of the request's calls or, when it
// counted none (initialization, tool listing, invalid calls), what the
// account's next request would find.
func (s *Server) setRateLimit(h http.Header, ex *exchange) {
	c, ok := ex.counted()
	if !ok {
		var err error
		if c, err = s.cfg.Limiter.Peek(ex.r.Context(), ex.account); err != nil {
			if s.cfg.Log != nil && ex.r.Context().Err() == nil {
				s.cfg.Log.Warn("reading usage for the RateLimit header failed", "request_id", ex.r.Header.Get(problem.RequestIDHeader), "err", err)
			}
			return
		}
	}
	c.SetHeaders(h)
}
