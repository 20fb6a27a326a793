package apptest

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"

	"signals/internal/discovery/oastest"
)

// validators caches one OpenAPI validator per document.
var validators sync.Map // document text -> *oastest.Validator

// OpenAPI returns a validator of the OpenAPI document ta serves at
// /openapi.json, read once.
func (ta *App) OpenAPI() *oastest.Validator {
	ta.t.Helper()
	ta.oasOnce.Do(func() { ta.oas = ta.readOpenAPI() })
	return ta.oas
}

func (ta *App) readOpenAPI() *oastest.Validator {
	ta.t.Helper()
	rec := httptest.NewRecorder()
	ta.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/openapi.json", nil))
	if rec.Code != http.StatusOK {
		ta.t.Fatalf("/openapi.json: status %d", rec.Code)
	}
	doc := rec.Body.String()
	if v, ok := validators.Load(doc); ok {
		return v.(*oastest.Validator)
	}
	v, err := oastest.New([]byte(doc))
	if err != nil {
		ta.t.Fatalf("OpenAPI document: %v", err)
	}
	validators.Store(doc, v)
	return v
}

// CheckOpenAPI validates a response to an /api request against the
// OpenAPI document the service serves: the status must be documented for
// the operation, the Content-Type declared, the body valid for its schema,
// the required headers present and valid. Undocumented methods must be the
// documented 405 and undocumented paths the shared 404. Other paths are
// not checked.
func (ta *App) CheckOpenAPI(req *http.Request, resp *http.Response, body []byte) {
	ta.t.Helper()
	if p := req.URL.Path; p != "/api" && !strings.HasPrefix(p, "/api/") {
		return
	}
	for _, msg := range ta.OpenAPI().CheckResponse(req, resp, body) {
		shown := body
		if len(shown) > 600 {
			shown = append(shown[:600:600], "…"...)
		}
		ta.t.Errorf("%s %s -> %d does not match /openapi.json: %s\n%s", req.Method, req.URL.RequestURI(), resp.StatusCode, msg, shown)
	}
}
