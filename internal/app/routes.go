package app

import (
	"net/http"

	"signals/internal/api"
)

// routes is the whole route table of the service.
func (a *App) routes() http.Handler {
	mux := http.NewServeMux()
	key := a.auth.Require
	methods := func(h map[string]http.Handler) http.Handler {
		return api.Methods{Handlers: h, Problems: a.problems}
	}

	// JSON read API (API key).
	mux.Handle(api.SignalsPath, methods(map[string]http.Handler{
		http.MethodGet: key(http.HandlerFunc(a.api.HandleList)),
	}))
	mux.Handle(api.SignalsPath+"/", methods(map[string]http.Handler{
		http.MethodGet: key(http.HandlerFunc(a.api.HandleGet)),
	}))
	mux.HandleFunc(api.Prefix+"/", a.api.NotFound)
	mux.HandleFunc("/api/", a.api.NotFound)

	return requestID(accessLog(a.log, mux))
}
