// Command compare loads two servers on this machine side by side with the
// same request and reports each one's throughput and latency, alternating
// short slices between them so that both share whatever else the machine
// is doing:
//
//	go run ./tools/compare -a http://127.0.0.1:8080 -b http://127.0.0.1:8081 -key "$KEY"
//
// With -keys, a file of API keys one per line (each of its own account,
// say), the clients of -a take them in turn, so that the load comes from
// several accounts as well as from one.
//
// It is for loopback load tests of servers you run; it refuses any other
// host.
package main

import (
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"signals/tools/internal/loopback"
)

func main() {
	a := flag.String("a", "", "first server's base URL (loopback only)")
	b := flag.String("b", "", "second server's base URL (loopback only)")
	keyA := flag.String("key", os.Getenv("SIGNALS_KEY"), "API key for -a ($SIGNALS_KEY)")
	keyB := flag.String("key-b", "", "API key for -b (default: -key)")
	keysFile := flag.String("keys", "", "file of API keys for -a, one per line, taken in turn by the clients (instead of -key)")
	path := flag.String("path", "/api/v1/signals?page_size=20&tags=funding,job", "request path")
	c := flag.Int("c", 16, "concurrent keep-alive clients")
	slice := flag.Duration("slice", time.Second, "length of one slice")
	n := flag.Int("slices", 10, "slices per server")
	gzip := flag.Bool("gzip", false, "ask for gzip and read the body as sent")
	flag.Parse()
	keysA := []string{*keyA}
	if *keysFile != "" {
		b, err := os.ReadFile(*keysFile)
		if err != nil {
			fail(err.Error())
		}
		keysA = strings.Fields(string(b))
		if len(keysA) == 0 {
			fail(*keysFile + " holds no key")
		}
	}
	if *keyB == "" {
		*keyB = keysA[0]
	}
	for _, base := range []string{*a, *b} {
		if !loopback.URL(base) {
			fail("-a and -b must be loopback addresses such as http://127.0.0.1:8080")
		}
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: *c, DisableCompression: true}, Timeout: 30 * time.Second}
	targets := []*target{{name: "a", base: *a, keys: keysA}, {name: "b", base: *b, keys: []string{*keyB}}}
	for i := range 2 * *n {
		targets[i%2].slice(client, *path, *c, *slice, *gzip)
	}
	rate := func(t *target) float64 { return float64(len(t.lat)) / t.took.Seconds() }
	for _, t := range targets {
		slices.Sort(t.lat)
		fmt.Printf("%s %-28s %7d requests  %7.0f req/s  p50 %6.2f ms  p99 %6.2f ms  body %d bytes\n", t.name, t.base,
			len(t.lat), rate(t), ms(t.lat[len(t.lat)/2]), ms(t.lat[len(t.lat)*99/100]), t.bytes)
	}
	fmt.Printf("a/b throughput ratio %.2f\n", rate(targets[0])/rate(targets[1]))
}

// target is one of the servers compared, and what its slices measured.
type target struct {
	name, base string
	keys       []string
	lat        []time.Duration
	took       time.Duration
	bytes      int
}

// slice loads t with c keep-alive clients for one slice of time, each
// sending GET path with one of t's keys in turn, and adds what they
// measured.
func (t *target) slice(client *http.Client, path string, c int, slice time.Duration, gzip bool) {
	deadline := time.Now().Add(slice)
	lat := make([][]time.Duration, c)
	var wg sync.WaitGroup
	start := time.Now()
	for w := range c {
		wg.Go(func() {
			key := t.keys[w%len(t.keys)]
			for time.Now().Before(deadline) {
				req, _ := http.NewRequest(http.MethodGet, t.base+path, nil)
				req.Header.Set("Authorization", "Bearer "+key)
				if gzip {
					req.Header.Set("Accept-Encoding", "gzip")
				}
				s := time.Now()
				resp, err := client.Do(req)
				if err != nil {
					fail(err.Error())
				}
				body, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				if err != nil || resp.StatusCode != http.StatusOK {
					fail(fmt.Sprintf("%s: %d %v %s", t.base, resp.StatusCode, err, body))
				}
				lat[w] = append(lat[w], time.Since(s))
				if w == 0 {
					t.bytes = len(body)
				}
			}
		})
	}
	wg.Wait()
	t.took += time.Since(start)
	t.lat = append(t.lat, slices.Concat(lat...)...)
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

func fail(msg string) {
	fmt.Fprintln(os.Stderr, "compare:", msg)
	os.Exit(1)
}
