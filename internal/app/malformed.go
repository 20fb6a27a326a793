package app

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"

	"signals/internal/failure"
	"signals/internal/problem"
)

// net/http answers a request it cannot parse (a path such as
// /api/v1/signals/%zz, a bad header, headers too large) itself, before any
// handler runs, with a plain-text body written straight to the connection.
// problemListener rewrites those answers into problem details, so that
// every error body of the service is JSON with a code.
type problemListener struct {
	net.Listener
	problems problem.Renderer
}

func (l problemListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &problemConn{Conn: c, problems: l.problems}, nil
}

type problemConn struct {
	net.Conn
	problems problem.Renderer
}

// serverRefusal matches exactly one of net/http's own answers to an
// unparsable request: a status line, these two headers and a short text
// (the whole write). A handler's answer never looks like this: it always
// carries X-Request-Id and Date.
var serverRefusal = regexp.MustCompile(`\AHTTP/1\.1 (\d{3}) [^\r\n]*\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n([^\r\n]{0,200})\z`)

// refusalStart and refusalEnd are parts of every serverRefusal, checked
// first: most writes are answers and bodies, which the regular expression
// would read on every write.
var refusalStart, refusalEnd = []byte("HTTP/1.1 "), []byte("\r\nConnection: close\r\n\r\n")

func (c *problemConn) Write(b []byte) (int, error) {
	if !bytes.HasPrefix(b, refusalStart) || !bytes.Contains(b, refusalEnd) {
		return c.Conn.Write(b)
	}
	m := serverRefusal.FindSubmatch(b)
	if m == nil {
		return c.Conn.Write(b)
	}
	if _, err := c.Conn.Write(c.answer(string(m[1]), string(m[2]))); err != nil {
		return 0, err
	}
	return len(b), nil
}

// answer is the problem response standing for net/http's refusal with the
// given status and text.
func (c *problemConn) answer(status, text string) []byte {
	var f *failure.Error
	switch {
	case status == "431":
		f = failure.New(failure.CodePayloadTooLarge, "the request's headers are too large")
	case status == "501":
		f = failure.Invalid("Transfer-Encoding", "must be chunked, or left out", []string{"chunked"})
	case strings.Contains(text, "Host header"):
		f = failure.Malformed("Host", "must be one valid host name")
	case strings.Contains(text, "header"):
		f = failure.Malformed("headers", "must be valid HTTP header fields")
	default:
		// The request line: most often a path with a bad percent-encoding.
		f = failure.Malformed("path", "must be a valid request path, with every % starting an escape such as %25; URL-encode ids in the path")
	}
	w := &bufferedResponse{}
	w.Header().Set(problem.RequestIDHeader, newRequestID())
	w.Header().Set("X-Content-Type-Options", "nosniff")
	c.problems.Write(w, nil, f)
	var out bytes.Buffer
	resp := &http.Response{StatusCode: w.status, ProtoMajor: 1, ProtoMinor: 1, Header: w.header,
		ContentLength: int64(w.body.Len()), Body: io.NopCloser(&w.body), Close: true}
	bw := bufio.NewWriter(&out)
	_ = resp.Write(bw)
	_ = bw.Flush()
	return out.Bytes()
}

// bufferedResponse collects a response written by a handler (status 0 when
// it wrote nothing).
type bufferedResponse struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (b *bufferedResponse) Header() http.Header {
	if b.header == nil {
		b.header = http.Header{}
	}
	return b.header
}

func (b *bufferedResponse) WriteHeader(status int) {
	if b.status == 0 {
		b.status = status
	}
}

func (b *bufferedResponse) Write(p []byte) (int, error) {
	b.WriteHeader(http.StatusOK)
	return b.body.Write(p)
}
