package problem

import (
	"net/http"
	"signals/internal/failure"
	"slices"
)

// Methods dispatches by method and answers others with a JSON 405 listing
// the allowed ones. HEAD is allowed wherever GET is.
type Methods struct {
	Handlers map[string]http.Handler
	Problems Renderer
}

// ServeHTTP implements http.Handler.
func (m Methods) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	method := r.Method
	if method == http.MethodHead {
		method = http.MethodGet
	}
	if h, ok := m.Handlers[method]; ok {
		h.ServeHTTP(w, r)
		return
	}
	var allowed []string
	for name := range m.Handlers {
		allowed = append(allowed, name)
		if name == http.MethodGet {
			allowed = append(allowed, http.MethodHead)
		}
	}
	slices.Sort(allowed)
	m.Problems.Write(w, r, failure.MethodNotAllowed(r.Method, allowed))
}
