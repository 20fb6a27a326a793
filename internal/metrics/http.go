package metrics

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Middleware counts and times each request by the path of the route
// pattern that served it (Request.Pattern, which the ServeMux sets on the
// request it is given, without its method: "GET /hubs" is "/hubs"), its
// method and its status class. Requests no route matched are labelled
// "unmatched"; methods outside HTTP's own are "other".
func (m *Metrics) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &StatusRecorder{ResponseWriter: w}
		next.ServeHTTP(sw, r)
		route := r.Pattern
		if _, path, ok := strings.Cut(route, " "); ok {
			route = path
		}
		if route == "" {
			route = "unmatched"
		}
		m.requests.WithLabelValues(route, method(r.Method), statusClass(sw.Status)).Inc()
		m.duration.WithLabelValues(route).Observe(time.Since(start).Seconds())
	})
}

func method(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return m
	}
	return "other"
}

var classes = [...]string{"1xx", "2xx", "3xx", "4xx", "5xx"}

func statusClass(code int) string {
	if code == 0 {
		code = http.StatusOK // nothing written: net/http answers 200
	}
	if c := code/100 - 1; c >= 0 && c < len(classes) {
		return classes[c]
	}
	return strconv.Itoa(code)
}

// StatusRecorder remembers the status a handler wrote (0 while it has
// written nothing); the access log reads it too.
type StatusRecorder struct {
	http.ResponseWriter
	Status int
}

func (w *StatusRecorder) WriteHeader(code int) {
	if w.Status == 0 {
		w.Status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *StatusRecorder) Write(b []byte) (int, error) {
	if w.Status == 0 {
		w.Status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection.
func (w *StatusRecorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Flush lets streaming responses through.
func (w *StatusRecorder) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
