// Package gzipped decides how text bodies travel gzipped: which requests
// accept gzip, how large a body must be to be worth it, at what level; and
// it compresses a body once so that many requests can send the same bytes.
package gzipped

import (
	"bytes"
	"net/http"
	"strings"

	"github.com/klauspost/compress/gzip"
)

// MinSize is the smallest body worth compressing: below it the gzip
// framing and the CPU cost outweigh the bytes saved.
const MinSize = 1024

// Level is gzip's level 3: on a 15 KB list it takes about half the time
// of the default level 5 for a body about 6% larger.
const Level = 3

// Accepts reports whether r's Accept-Encoding names gzip with a non-zero
// quality.
func Accepts(r *http.Request) bool {
	for _, f := range r.Header.Values("Accept-Encoding") {
		for c := range strings.SplitSeq(f, ",") {
			name, params, _ := strings.Cut(c, ";")
			name = strings.ToLower(strings.TrimSpace(name))
			if name != "gzip" {
				continue
			}
			q := strings.ReplaceAll(strings.ToLower(params), " ", "")
			if q == "q=0" || strings.HasPrefix(q, "q=0.") && strings.Trim(q[len("q=0."):], "0") == "" {
				continue
			}
			return true
		}
	}
	return false
}

// Compress returns body gzipped at Level.
func Compress(body []byte) []byte {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, Level)
	if err != nil {
		panic(err) // Level is a valid constant
	}
	// Writing to a bytes.Buffer cannot fail.
	_, _ = zw.Write(body)
	_ = zw.Close()
	return buf.Bytes()
}
