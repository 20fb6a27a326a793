// Command rareq times listings by substrings that no signal holds against a
// plain filtered list, over HTTP, one keep-alive client, each rare one in
// turn with the plain one, and prints both medians and their ratio:
//
//	go run ./tools/rareq -base http://127.0.0.1:8080 -key "$KEY" -rounds 5
//
// Each round asks q=zqxjvw0 … zqxjvw19 (and on, each value once; -first
// sets where to begin), so that no rare answer comes from a cache. It is for loopback tests of servers
// you run; it refuses any other host.
package main

import (
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"time"

	"signals/tools/internal/loopback"
)

func main() {
	base := flag.String("base", "", "the server's base URL (loopback only)")
	key := flag.String("key", os.Getenv("SIGNALS_KEY"), "API key ($SIGNALS_KEY)")
	plain := flag.String("plain", "/api/v1/signals?page_size=20&tags=funding", "the plain filtered list")
	rounds := flag.Int("rounds", 5, "rounds of 20 rare substrings")
	first := flag.Int("first", 0, "the first value's number: a value asked before comes from the list cache")
	flag.Parse()
	if !loopback.URL(*base) {
		fail("-base must be a loopback address such as http://127.0.0.1:8080")
	}
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}, Timeout: 30 * time.Second}
	get := func(path string) time.Duration {
		req, err := http.NewRequest(http.MethodGet, *base+path, nil)
		if err != nil {
			fail(err.Error())
		}
		req.Header.Set("Authorization", "Bearer "+*key)
		start := time.Now()
		resp, err := client.Do(req)
		if err != nil {
			fail(err.Error())
		}
		_, err = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		took := time.Since(start)
		if err != nil || resp.StatusCode != http.StatusOK {
			fail(fmt.Sprintf("GET %s: %d %v", path, resp.StatusCode, err))
		}
		return took
	}
	get(*plain) // the list cache's first fill is not what is measured
	var rare, list []time.Duration
	for r := range *rounds {
		for i := range 20 {
			list = append(list, get(*plain))
			rare = append(rare, get(fmt.Sprintf("/api/v1/signals?page_size=20&q=zqxjvw%d", *first+r*20+i)))
		}
	}
	mr, ml := median(rare), median(list)
	fmt.Printf("rare q median %.3f ms, plain list median %.3f ms, ratio %.2f (%d of each)\n",
		ms(mr), ms(ml), float64(mr)/float64(ml), len(rare))
}

func median(d []time.Duration) time.Duration {
	slices.Sort(d)
	return d[len(d)/2]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func fail(msg string) {
	fmt.Fprintln(os.Stderr, "rareq:", msg)
	os.Exit(1)
}
