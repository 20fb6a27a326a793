package oauth

import (
	"encoding/json"
	"net/http"
	"strconv"

	"signals/internal/failure"
)

// Error codes of RFC 6749 §5.2, RFC 7591 §3.2.2 and RFC 8707 §2.
const (
	ErrInvalidRequest       = "invalid_request"
	ErrInvalidClient        = "invalid_client"
	ErrInvalidGrant         = "invalid_grant"
	ErrUnauthorizedClient   = "unauthorized_client"
	ErrUnsupportedGrantType = "unsupported_grant_type"
	ErrInvalidScope         = "invalid_scope"
	ErrInvalidTarget        = "invalid_target"
	ErrInvalidRedirectURI   = "invalid_redirect_uri"
	ErrInvalidClientMeta    = "invalid_client_metadata"
	ErrAccessDenied         = "access_denied"
	ErrServerError          = "server_error"
	// ErrTooManyRequests answers a 429: no OAuth specification names one,
	// so it is the status's own name.
	ErrTooManyRequests = "too_many_requests"
	// ErrTemporarilyUnavailable (RFC 6749 §4.1.2.1) is this medium's
	// service_unavailable: the database cannot be reached.
	ErrTemporarilyUnavailable = "temporarily_unavailable"
)

// Error is an OAuth error: a code of the specifications above and a
// description for the developer. The token, registration and revocation
// endpoints render it as RFC 6749 JSON; the authorization endpoint renders
// it as an HTML page (before the redirect URI is trusted) or as redirect
// parameters.
type Error struct {
	Code        string `json:"error"`
	Description string `json:"error_description,omitempty"`
	// Status is the HTTP status of the JSON answer.
	Status int `json:"-"`
	// RetryAfterSeconds is the wait before a retry is worth it, when one
	// is known; it is also sent as Retry-After.
	RetryAfterSeconds int `json:"retry_after_seconds,omitempty"`
	// Param names the request parameter at fault, when one is; missing
	// tells that it was not sent.
	Param   string `json:"-"`
	missing bool
}

func (e *Error) Error() string { return e.Code + ": " + e.Description }

// fail returns an Error with status 400, or 401 for invalid_client.
func fail(code, description string) *Error {
	status := http.StatusBadRequest
	if code == ErrInvalidClient {
		status = http.StatusUnauthorized
	}
	return &Error{Code: code, Description: description, Status: status}
}

// failParam returns the Error of fail about the parameter param.
func failParam(code, param, description string) *Error {
	e := fail(code, description)
	e.Param = param
	return e
}

// missing returns the Error of fail about the parameter param, which was
// not sent.
func missing(code, param, description string) *Error {
	e := failParam(code, param, description)
	e.missing = true
	return e
}

// Failure is e as the service's own failure, for a page that shows it to a
// person: the authorization endpoint's pages name the service's stable
// codes, as every page does; the OAuth code stays in the JSON answers and
// the redirects, which clients read.
func (e *Error) Failure() *failure.Error {
	var f *failure.Error
	switch {
	case e.Param == "":
		f = failure.New(failure.CodeInvalidParameter, e.Description)
	case e.missing:
		f = failure.Missing(e.Param)
	default:
		f = failure.Malformed(e.Param, e.Description)
	}
	f.Detail = e.Description
	return f
}

// writeJSON writes an answer of the token, registration or revocation
// endpoint. Every one of them may carry a secret, so none is cached.
func writeJSON(w http.ResponseWriter, status int, v any) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	h.Set("Pragma", "no-cache")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// writeError is the one place that renders OAuth errors as JSON.
func writeError(w http.ResponseWriter, e *Error) {
	if e.Code == ErrInvalidClient {
		// RFC 6749 §5.2: a 401 names the scheme the client may use.
		w.Header().Set("WWW-Authenticate", `Basic realm="signals"`)
	}
	switch {
	case e.RetryAfterSeconds > 0:
		w.Header().Set("Retry-After", strconv.Itoa(e.RetryAfterSeconds))
	case e.Status == http.StatusServiceUnavailable:
		w.Header().Set("Retry-After", strconv.Itoa(unavailableRetryAfter))
	}
	writeJSON(w, e.Status, e)
}
