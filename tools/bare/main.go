// Command bare is the floor a Signals list is measured against: a bare
// net/http server that answers every request with the bytes and content
// type one real response had, doing nothing else. With -gzip it copies the
// response a client that accepts gzip is sent, and sends it as it is.
//
//	go run ./tools/bare -from "http://127.0.0.1:8080/api/v1/signals?page_size=20" -key "$KEY" -addr 127.0.0.1:8081
package main

import (
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
)

func main() {
	from := flag.String("from", "", "URL of the response to copy")
	key := flag.String("key", os.Getenv("SIGNALS_KEY"), "API key for -from ($SIGNALS_KEY)")
	addr := flag.String("addr", "127.0.0.1:8081", "address to serve on")
	gzip := flag.Bool("gzip", false, "copy the gzipped response")
	flag.Parse()
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
