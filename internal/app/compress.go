package app

import (
	"net/http"
	"strings"

	"github.com/klauspost/compress/gzhttp"
)

// compressMinSize is the smallest body worth compressing: below it the gzip
// framing and the CPU cost outweigh the bytes saved.
const compressMinSize = 1024

// compressLevel is gzip's level 3: on a 15 KB list it takes about half the
// time of the default level 5 for a body about 6% larger.
const compressLevel = 3

// compressed gzips text bodies (JSON, HTML, Markdown, feeds) of at least
// compressMinSize bytes for clients that accept gzip. Every response says
// Vary: Accept-Encoding, since any of them may be compressed for another
// client. To a client that accepts gzip, entity tags are weak (RFC 9110
// §8.8.1): the compressed and plain bodies are the same representation
// but not the same bytes, and If-None-Match compares weakly, so a
// conditional request still gets its 304.
func compressed(next http.Handler) http.Handler {
	wrap, err := gzhttp.NewWrapper(
		gzhttp.MinSize(compressMinSize),
		gzhttp.ContentTypeFilter(compressible),
		gzhttp.CompressionLevel(compressLevel),
	)
	if err != nil {
		panic(err) // the options above are constant and valid
	}
	gz := wrap(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gz.ServeHTTP(&varyWriter{ResponseWriter: w, weakETag: acceptsGzip(r)}, r)
	})
}

// compressible reports whether a body of content type ct is text that
// gzip shrinks. Event streams are left alone so that each event reaches
// the client when it is flushed.
func compressible(ct string) bool {
	mt, _, _ := strings.Cut(ct, ";")
	mt = strings.ToLower(strings.TrimSpace(mt))
	switch {
	case mt == "text/event-stream":
		return false
	case strings.HasPrefix(mt, "text/"):
		return true
	case mt == "application/json", mt == "application/xml", mt == "application/javascript",
		strings.HasSuffix(mt, "+json"), strings.HasSuffix(mt, "+xml"):
		return true
	}
	return false
}

// acceptsGzip reports whether r's Accept-Encoding names gzip with a
// non-zero quality, as the compressing wrapper reads it.
func acceptsGzip(r *http.Request) bool {
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

// varyWriter completes the headers as they are sent: Vary names
// Accept-Encoding even when a handler set Vary itself, and an entity tag
// is weak when weakETag is set.
type varyWriter struct {
	http.ResponseWriter
	weakETag bool
	sent     bool
}

func (w *varyWriter) header() {
	if w.sent {
		return
	}
	w.sent = true
	h := w.ResponseWriter.Header()
	if !varies(h, "Accept-Encoding") {
		h.Add("Vary", "Accept-Encoding")
	}
	if et := h.Get("ETag"); w.weakETag && et != "" && !strings.HasPrefix(et, "W/") {
		h.Set("ETag", "W/"+et)
	}
}

func (w *varyWriter) WriteHeader(code int) {
	if code >= 200 {
		w.header()
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *varyWriter) Write(b []byte) (int, error) {
	w.header()
	return w.ResponseWriter.Write(b)
}

// Flush lets streaming responses through the wrapper.
func (w *varyWriter) Flush() {
	w.header()
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *varyWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// varies reports whether h's Vary already names field.
func varies(h http.Header, field string) bool {
	for _, v := range h.Values("Vary") {
		for f := range strings.SplitSeq(v, ",") {
			if f = strings.TrimSpace(f); f == "*" || strings.EqualFold(f, field) {
				return true
			}
		}
	}
	return false
}
