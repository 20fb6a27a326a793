// Package quota counts requests against account limits and advertises them
// with RateLimit headers. HTTP requests, MCP tool calls and semantic search
// all count through it.
package quota

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"signals/internal/auth"
	"signals/internal/failure"
	"signals/internal/model"
	"signals/internal/problem"
	"signals/internal/store"
)

// Limiter counts requests of authenticated accounts.
type Limiter struct {
	Store    store.Quotas
	Now      func() time.Time
	Problems problem.Renderer
}

// Counted is the outcome of counting one request.
type Counted struct {
	Usage  model.Usage
	Limits model.Limits
	At     time.Time
}

type countedKey struct{}

// counting is what Count leaves in a counted request's context.
type counting struct {
	Counted
	limiter *Limiter
	account model.Account
}

// FromContext returns the count of the current request, if it was counted.
func FromContext(ctx context.Context) (Counted, bool) {
	c, ok := ctx.Value(countedKey{}).(*counting)
	if !ok {
		return Counted{}, false
	}
	return c.Counted, true
}

// Refused reports whether err refuses the request with 429 (a limit or a
// busy account): such a refusal never counts as a request.
func Refused(err error) bool {
	f, ok := failure.As(err)
	return ok && problem.Status(f.Code) == http.StatusTooManyRequests
}

// Return gives back the request counted as c when err refuses it with 429
// after it was counted (a search refused for the account's concurrent or
// daily searches), and returns the count to advertise. Any other err, or a
// failure to give it back, keeps c.
func (l *Limiter) Return(ctx context.Context, acct model.Account, c Counted, err error) Counted {
	if !Refused(err) {
		return c
	}
	u, rerr := l.Store.ReturnRequest(context.WithoutCancel(ctx), acct.ID, c.At, l.Now())
	if rerr != nil {
		return c
	}
	return Counted{Usage: u, Limits: acct.Limits, At: c.At}
}

// ReturnRefused gives back the request of r, counted by Count, when err
// refuses it with 429, and advertises the count after it in w's headers.
func ReturnRefused(w http.ResponseWriter, r *http.Request, err error) {
	c, ok := r.Context().Value(countedKey{}).(*counting)
	if !ok || !Refused(err) {
		return
	}
	c.limiter.Return(r.Context(), c.account, c.Counted, err).SetHeaders(w.Header())
}

// Take counts one request of acct. When a limit is reached nothing is
// counted and the error is a minute_limit_reached or daily_limit_reached
// failure with the wait until the window resets.
func (l *Limiter) Take(ctx context.Context, acct model.Account) (Counted, error) {
	now := l.Now()
	u, err := l.Store.TakeRequest(ctx, acct.ID, acct.Limits, now)
	c := Counted{Usage: u, Limits: acct.Limits, At: now}
	if err != nil {
		return c, err
	}
	switch u.Denied {
	case model.LimitMinute:
		wait := model.SecondsUntil(now, u.MinuteStart.Add(time.Minute))
		return c, failure.New(failure.CodeMinuteLimitReached,
			fmt.Sprintf("the account's %d requests per minute are used; retry at the next UTC minute", acct.Limits.MinuteRequests)).
			WithRetryAfter(wait)
	case model.LimitDay:
		wait := model.SecondsUntil(now, u.DayStart.Add(24*time.Hour))
		return c, failure.New(failure.CodeDailyLimitReached,
			fmt.Sprintf("the account's %d requests per UTC day are used; retry after midnight UTC", acct.Limits.DailyRequests)).
			WithRetryAfter(wait)
	}
	return c, nil
}

// Peek returns acct's count without counting a request, for the answers
// that are not counted (MCP initialization and tool listing): its headers
// say what the next request would find.
func (l *Limiter) Peek(ctx context.Context, acct model.Account) (Counted, error) {
	now := l.Now()
	u, err := l.Store.Usage(ctx, acct.ID, now)
	if u.DayUsed >= acct.Limits.DailyRequests {
		// The next request would be refused for the day.
		u.Denied = model.LimitDay
	}
	return Counted{Usage: u, Limits: acct.Limits, At: now}, err
}

// Policy is the RateLimit-Policy value for a minute cap.
func Policy(minuteCap int) string {
	return `"minute";q=` + strconv.Itoa(minuteCap) + `;w=60`
}

// The header names in the form http.Header keeps them in: set straight
// into the map, they are not canonicalized again at every request.
const (
	policyHeader    = "Ratelimit-Policy"
	rateLimitHeader = "Ratelimit"
)

// initialPolicy is the RateLimit-Policy value of the initial limits, made
// once; a header set later replaces the slice and never writes into it.
var initialPolicy = []string{Policy(model.InitialLimits.MinuteRequests)}

// SetHeaders advertises the account's minute cap, the requests remaining
// after this one and the seconds until the next UTC minute
// (draft-ietf-httpapi-ratelimit-headers).
func (c Counted) SetHeaders(h http.Header) {
	if c.Limits.MinuteRequests == model.InitialLimits.MinuteRequests {
		h[policyHeader] = initialPolicy
	} else {
		h[policyHeader] = []string{Policy(c.Limits.MinuteRequests)}
	}
	remaining := max(c.Limits.MinuteRequests-c.Usage.MinuteUsed, 0)
	if c.Usage.Denied == model.LimitDay {
		remaining = 0
	}
	reset := model.SecondsUntil(c.At, c.Usage.MinuteStart.Add(time.Minute))
	h[rateLimitHeader] = []string{`"minute";r=` + strconv.Itoa(remaining) + `;t=` + strconv.Itoa(reset)}
}

// DefaultPolicy advertises the initial minute cap on every response of
// next; Count replaces it with the account's actual cap once it is known.
func DefaultPolicy(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()[policyHeader] = initialPolicy
		next.ServeHTTP(w, r)
	})
}

// Count counts every request that reaches it; it runs after authentication.
func (l *Limiter) Count(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, ok := auth.PrincipalFrom(r.Context())
		if !ok {
			l.Problems.Write(w, r, fmt.Errorf("quota: request reached counting without a principal"))
			return
		}
		c, err := l.Take(r.Context(), p.Account)
		if _, denied := failure.As(err); err == nil || denied {
			c.SetHeaders(w.Header())
		} else {
			// Counting failed: the account's cap still, not the initial one.
			w.Header().Set("RateLimit-Policy", Policy(p.Account.Limits.MinuteRequests))
		}
		if err != nil {
			l.Problems.Write(w, r, err)
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), countedKey{},
			&counting{Counted: c, limiter: l, account: p.Account})))
	})
}
