package api

import (
	"errors"
	"net/http"

	"signals/internal/quota"
	"signals/internal/reads"
)

// HandleUsage serves GET /api/v1/usage. The request has been counted
// already, so the answer includes it.
func (a *API) HandleUsage(w http.ResponseWriter, r *http.Request) {
	if err := noQuery(r); err != nil {
		a.Problems.Write(w, r, err)
		return
	}
	c, ok := quota.FromContext(r.Context())
	if !ok {
		a.Problems.Write(w, r, errors.New("usage: request was not counted"))
		return
	}
	a.writeJSON(w, r, reads.NewUsage(c.Usage, c.Limits), true)
}
