// Package benchtest holds what the benchmarks that compare the MCP endpoint
// with plain HTTP share: sending a request that must succeed, and timing two
// operations side by side.
package benchtest

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// Client returns an HTTP client that keeps a few connections to one host
// open, as a benchmark's client should.
func Client() *http.Client {
	return &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
}

// Send sends req and stops the benchmark unless the answer is 200 and not a
// failed MCP tool result.
func Send(b *testing.B, client *http.Client, req *http.Request) {
	resp, err := client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || strings.Contains(string(body), `"isError":true`) {
		b.Fatalf("%s %s: %d %s", req.Method, req.URL, resp.StatusCode, body)
	}
}

// SideBySide warms first and second up (connections, caches), then runs
// one of each per iteration of b's loop, alternating which goes first, and
// returns the total time of each.
func SideBySide(b *testing.B, first, second func()) (firstTime, secondTime time.Duration) {
	for range 50 {
		first()
		second()
	}
	timed := func(f func(), total *time.Duration) {
		start := time.Now()
		f()
		*total += time.Since(start)
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if i%2 == 0 {
			timed(first, &firstTime)
			timed(second, &secondTime)
		} else {
			timed(second, &secondTime)
			timed(first, &firstTime)
		}
	}
	return firstTime, secondTime
}
