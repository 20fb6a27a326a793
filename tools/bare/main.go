// Command bare is the floor a Signals list is measured against: a bare
// net/http server that answers every request with the bytes and content
// type one real response had, doing nothing else. With -gzip it copies the
// response a client that accepts gzip is sent, and sends it as it is.
//
// With -redis it also counts every request, before answering it, with the
// script and client Signals counts with when SIGNALS_REDIS_URL is set (one
// account, limits it never reaches): the floor of any server that counts
// each request in Redis, to tell the cost of that round trip from the rest
// of Signals.
//
//	go run ./tools/bare -from "http://127.0.0.1:8080/api/v1/signals?page_size=20" -key "$KEY" -addr 127.0.0.1:8081
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"strconv"
	"time"

	"signals/internal/model"
	"signals/internal/store/redis"
)

func main() {
	from := flag.String("from", "", "URL of the response to copy")
	key := flag.String("key", os.Getenv("SIGNALS_KEY"), "API key for -from ($SIGNALS_KEY)")
	addr := flag.String("addr", "127.0.0.1:8081", "address to serve on")
	gzip := flag.Bool("gzip", false, "copy the gzipped response")
	redisURL := flag.String("redis", "", "count each request in the Redis at this URL first")
	flag.Parse()
	count := func(context.Context) error { return nil }
	if *redisURL != "" {
		// The counts are all it uses: no key is touched, so the store
		// beneath is never reached.
		counter, err := redis.Open(context.Background(), *redisURL, nil, "bare:"+strconv.Itoa(os.Getpid())+":")
		if err != nil {
			fail(err)
		}
		limits := model.Limits{DailyRequests: math.MaxInt32, MinuteRequests: math.MaxInt32}
		count = func(ctx context.Context) error {
			_, err := counter.TakeRequest(ctx, 1, limits, time.Now())
			return err
		}
	}
	req, err := http.NewRequest(http.MethodGet, *from, nil)
	if err != nil {
		fail(err)
	}
	req.Header.Set("Authorization", "Bearer "+*key)
	if *gzip {
		req.Header.Set("Accept-Encoding", "gzip")
	}
	resp, err := (&http.Client{Transport: &http.Transport{DisableCompression: true}}).Do(req)
	if err != nil {
		fail(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK {
		fail(fmt.Errorf("%s: %d %v", *from, resp.StatusCode, err))
	}
	contentType, length := resp.Header.Get("Content-Type"), strconv.Itoa(len(body))
	encoding := resp.Header.Get("Content-Encoding")
	fmt.Fprintf(os.Stderr, "bare: serving %d bytes of %s (encoding %q) on %s\n", len(body), contentType, encoding, *addr)
	fail(http.ListenAndServe(*addr, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := count(r.Context()); err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", contentType)
		w.Header().Set("Content-Length", length)
		if encoding != "" {
			w.Header().Set("Content-Encoding", encoding)
		}
		w.Write(body)
	})))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "bare:", err)
	os.Exit(1)
}
