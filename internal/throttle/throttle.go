// Package throttle bounds how often one client may ask for something that
// costs the service whatever the answer: requests are counted under a key
// in fixed windows by the store, so that a bound holds across replicas.
package throttle

import (
	"context"
	"crypto/sha256"
	"fmt"
	"net"
	"net/http"
	"time"
)

// Counter counts one event under key in the window [start, end) if fewer
// than limit were counted there; store.Sessions is one.
type Counter interface {
	Throttle(ctx context.Context, key []byte, start, end time.Time, limit int) (ok bool, err error)
}

// Limit is at most Max requests per Window for one value (a client
// address, an email) of Scope.
type Limit struct {
	// Scope keeps the counts of different limits apart.
	Scope  string
	Max    int
	Window time.Duration
}

// Refused is a request over its limit.
type Refused struct {
	// RetryAt is when the window ends and requests are counted again.
	RetryAt time.Time
}

func (e *Refused) Error() string {
	return fmt.Sprintf("too many requests until %s", e.RetryAt.UTC().Format(time.RFC3339))
}

// RetryAfter is the wait from now until RetryAt in whole seconds, at least
// one, as Retry-After gives it.
func (e *Refused) RetryAfter(now time.Time) int {
	return max(int((e.RetryAt.Sub(now)+time.Second-1)/time.Second), 1)
}

// Take counts one request for value at now, or returns a *Refused.
func (l Limit) Take(ctx context.Context, c Counter, value string, now time.Time) error {
	start := now.Truncate(l.Window)
	end := start.Add(l.Window)
	// The store keeps a hash of the value, never the address or email.
	key := sha256.Sum256([]byte(l.Scope + "\x00" + value))
	ok, err := c.Throttle(ctx, key[:], start, end, l.Max)
	if err != nil {
		return fmt.Errorf("throttle %s: %w", l.Scope, err)
	}
	if !ok {
		return &Refused{RetryAt: end}
	}
	return nil
}

// ClientAddress is the request's remote address; IPv6 clients are grouped
// by their /64, which one machine usually owns whole.
func ClientAddress(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	ip := net.ParseIP(host)
	if ip == nil {
		return host
	}
	if ip.To4() == nil {
		return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
	}
	return ip.String()
}
