package throttle

import (
	"bytes"
	"context"
	"errors"
	"net/http/httptest"
	"testing"
	"time"
)

// counter is an in-memory Counter.
type counter struct {
	n    map[string]int
	last struct{ start, end time.Time }
}

func (c *counter) Throttle(_ context.Context, key []byte, start, end time.Time, limit int) (bool, error) {
	k := string(key) + start.String()
	c.last.start, c.last.end = start, end
	if c.n[k] >= limit {
		return false, nil
	}
	c.n[k]++
	return true, nil
}

func TestTake(t *testing.T) {
	noon := time.Date(2026, 10, 1, 12, 0, 0, 0, time.UTC)
	l := Limit{Scope: "test", Max: 2, Window: time.Hour}
	c := &counter{n: map[string]int{}}
	for _, tc := range []struct {
		name      string
		value     string
		at        time.Time
		wantRetry int // 0: counted
	}{
		{"first", "a", noon.Add(10 * time.Minute), 0},
		{"second", "a", noon.Add(20 * time.Minute), 0},
		{"third is refused until the window ends", "a", noon.Add(30 * time.Minute), 30 * 60},
		{"a part second rounds up", "a", noon.Add(59*time.Minute + 59*time.Second + time.Millisecond), 1},
		{"another value has its own count", "b", noon.Add(30 * time.Minute), 0},
		{"the next window counts again", "a", noon.Add(time.Hour), 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := l.Take(context.Background(), c, tc.value, tc.at)
			var refused *Refused
			switch {
			case tc.wantRetry == 0 && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.wantRetry != 0 && !errors.As(err, &refused):
				t.Fatalf("err = %v, want a refusal", err)
			case tc.wantRetry != 0 && refused.RetryAfter(tc.at) != tc.wantRetry:
				t.Errorf("RetryAfter = %d, want %d", refused.RetryAfter(tc.at), tc.wantRetry)
			}
			if !c.last.start.Equal(tc.at.Truncate(time.Hour)) || !c.last.end.Equal(tc.at.Truncate(time.Hour).Add(time.Hour)) {
				t.Errorf("window [%s, %s)", c.last.start, c.last.end)
			}
		})
	}
}

func TestScopesKeepCountsApart(t *testing.T) {
	var keys [][]byte
	rec := counterFunc(func(key []byte) { keys = append(keys, key) })
	now := time.Now()
	Limit{Scope: "one", Max: 1, Window: time.Hour}.Take(context.Background(), rec, "v", now)
	Limit{Scope: "two", Max: 1, Window: time.Hour}.Take(context.Background(), rec, "v", now)
	// Keys are hashes of scope and value: apart per scope, never the value.
	if len(keys) != 2 || bytes.Equal(keys[0], keys[1]) || len(keys[0]) != 32 || len(keys[1]) != 32 {
		t.Errorf("keys %x", keys)
	}
}

type counterFunc func(key []byte)

func (f counterFunc) Throttle(_ context.Context, key []byte, _, _ time.Time, _ int) (bool, error) {
	f(key)
	return true, nil
}

func TestClientAddress(t *testing.T) {
	for _, tc := range []struct{ remote, want string }{
		{"192.0.2.7:5123", "192.0.2.7"},
		{"[2001:db8:1:2:3:4:5:6]:443", "2001:db8:1:2::/64"},
		{"[2001:db8:1:2:ffff::1]:443", "2001:db8:1:2::/64"},
		{"not an address", "not an address"},
	} {
		t.Run(tc.remote, func(t *testing.T) {
			r := httptest.NewRequest("POST", "/", nil)
			r.RemoteAddr = tc.remote
			if got := ClientAddress(r); got != tc.want {
				t.Errorf("ClientAddress = %q, want %q", got, tc.want)
			}
		})
	}
}
