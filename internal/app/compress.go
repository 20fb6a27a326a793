package app

import (
	"net/http"
	"strings"

	"github.com/klauspost/compress/gzhttp"

	"signals/internal/gzipped"
)

// compressed gzips text bodies (JSON, HTML, Markdown, feeds) of at least
// gzipped.MinSize bytes for clients that accept gzip. Every response says
// Vary: Accept-Encoding, since any of them may be compressed for another
// client. To a client that accepts gzip, entity tags are weak (RFC 9110
// §8.8.1): the compressed and plain bodies are the same representation
// but not the same bytes, and If-None-Match compares weakly, so a
// conditional request still gets its 304.
func compressed(next http.Handler) http.Handler {
	wrap, err := gzhttp.NewWrapper(
		gzhttp.MinSize(gzipped.MinSize),
		gzhttp.ContentTypeFilter(compressible),
		gzhttp.CompressionLevel(gzipped.Level),
	)
	if err != nil {
		panic(err) // the options above are constant and valid
	}
	gz := wrap(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if len(r.Header["Accept-Encoding"]) == 0 {
			// Nothing to compress for this client: the same Vary as the
			// wrapper's, without its writer in the way of every write.
			addVary(w.Header())
			next.ServeHTTP(&varyWriter{ResponseWriter: w}, r)
			return
		}
		gz.ServeHTTP(&varyWriter{ResponseWriter: w, weakETag: gzipped.Accepts(r)}, r)
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

// varyWriter completes the headers as they are sent: Vary names
// Accept-Encoding even when a handler set Vary itself, and an entity tag
// is weak when weakETag is set.
// varyAcceptEncoding is the Vary value of a response that names no other,
// made once; a header added later copies the slice rather than write into
// it.
var varyAcceptEncoding = []string{"Accept-Encoding"}

// addVary adds Accept-Encoding to the Vary of h.
func addVary(h http.Header) {
	if len(h["Vary"]) == 0 {
		h["Vary"] = varyAcceptEncoding
		return
	}
	h.Add("Vary", "Accept-Encoding")
}

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
		addVary(h)
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
