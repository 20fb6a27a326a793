// Command load sends a bounded number of API requests to a Signals server on
// this machine and reports latency percentiles as the client sees them:
//
//	go run ./tools/load -base http://127.0.0.1:8080 -key "$KEY" -n 20000 -c 16
//
// It is for loopback load tests of a server you run; it refuses any other
// host.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"signals/tools/internal/loopback"
)

func main() {
	base := flag.String("base", "http://127.0.0.1:8080", "server base URL (loopback only)")
	key := flag.String("key", os.Getenv("SIGNALS_KEY"), "API key ($SIGNALS_KEY)")
	n := flag.Int("n", 20000, "requests in all")
	c := flag.Int("c", 16, "concurrent clients")
	flag.Parse()
	if !loopback.URL(*base) {
		fail("-base must be a loopback address such as http://127.0.0.1:8080")
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: *c}, Timeout: 30 * time.Second}
	get := func(path string) ([]byte, error) {
		req, _ := http.NewRequest(http.MethodGet, *base+path, nil)
		req.Header.Set("Authorization", "Bearer "+*key)
		resp, err := client.Do(req)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("%s: %d %s", path, resp.StatusCode, b)
		}
		return b, err
	}
	var ids []string
	for page := 1; page <= 20; page++ {
		b, err := get(fmt.Sprintf("/api/v1/signals?page_size=50&page=%d", page*7))
		if err != nil {
			fail(err.Error())
		}
		var list struct{ Signals []struct{ ID string } }
		json.Unmarshal(b, &list)
		for _, s := range list.Signals {
			ids = append(ids, s.ID)
		}
	}
	filters := []string{"tags=funding", "tags=job,events&language=en", "sources=microblog",
		"country=canada", "language=fr&sources=professional_network", "", "page=40"}
	kinds := []struct {
		name string
		path func(i int) string
	}{
		{"list (filtered, page_size=20)", func(i int) string { return "/api/v1/signals?page_size=20&" + filters[i%len(filters)] }},
		{"get one", func(i int) string { return "/api/v1/signals/" + url.PathEscape(ids[i%len(ids)]) }},
	}
	for _, k := range kinds {
		var next atomic.Int64
		lat := make([][]time.Duration, *c)
		var wg sync.WaitGroup
		start := time.Now()
		for w := range *c {
			wg.Go(func() {
				for {
					i := int(next.Add(1))
					if i > *n {
						return
					}
					t := time.Now()
					if _, err := get(k.path(i)); err != nil {
						fail(err.Error())
					}
					lat[w] = append(lat[w], time.Since(t))
				}
			})
		}
		wg.Wait()
		elapsed := time.Since(start)
		all := slices.Concat(lat...)
		slices.Sort(all)
		fmt.Printf("%-32s %6d requests  %7.0f req/s  p50 %6.2f ms  p99 %6.2f ms\n", k.name, len(all),
			float64(len(all))/elapsed.Seconds(), ms(all[len(all)/2]), ms(all[len(all)*99/100]))
	}
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

func fail(msg string) {
	fmt.Fprintln(os.Stderr, "load:", msg)
	os.Exit(1)
}
