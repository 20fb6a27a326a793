// Command bare is the floor a Signals list is measured against: a bare
// net/http server that answers every request with the bytes and content
// type one real response had, doing nothing else.
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
	flag.Parse()
	req, err := http.NewRequest(http.MethodGet, *from, nil)
	if err != nil {
		fail(err)
	}
	req.Header.Set("Authorization", "Bearer "+*key)
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
	fmt.Fprintf(os.Stderr, "bare: serving %d bytes of %s on %s\n", len(body), contentType, *addr)
	fail(http.ListenAndServe(*addr, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", contentType)
		w.Header().Set("Content-Length", length)
		w.Write(body)
	})))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "bare:", err)
	os.Exit(1)
}
