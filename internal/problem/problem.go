// Package problem renders failures over HTTP: the one table of HTTP
// statuses of the stable codes, RFC 9457 problem details (the error body of
// the JSON API, and of MCP tool results), and the Renderer that answers any
// error in the Format of a medium.
package problem

import (
	"net/http"
	"strings"

	"signals/internal/failure"
)

// Problem is an RFC 9457 problem details object extended with the service's
// stable code and validation details: a failure as HTTP clients see it.
type Problem struct {
	Type              string       `json:"type"`
	Title             string       `json:"title"`
	Status            int          `json:"status"`
	Detail            string       `json:"detail"`
	Code              failure.Code `json:"code"`
	Param             string       `json:"param,omitempty"`
	ValidationMessage string       `json:"validation_message,omitempty"`
	// SuggestedValues are the allowed values closest to a refused one.
	SuggestedValues []string `json:"suggested_values,omitempty"`
	AllowedValues   []string `json:"allowed_values,omitzero"`
	// AllowedValuesResource is the MCP resource that lists the allowed
	// values when a tool result leaves them out (a list too long to print).
	AllowedValuesResource string   `json:"allowed_values_resource,omitempty"`
	Minimum               *int64   `json:"minimum,omitempty"`
	Maximum               *int64   `json:"maximum,omitempty"`
	AllowedMethods        []string `json:"allowed_methods,omitempty"`
	RetryAfterSeconds     *int     `json:"retry_after_seconds,omitempty"`
	// RetryAfterSecondsAlias is the deprecated camelCase alias of RetryAfterSeconds.
	RetryAfterSecondsAlias *int   `json:"retryAfterSeconds,omitempty"`
	RequestID              string `json:"request_id,omitempty"`
}

// statuses is the one table from stable codes to HTTP statuses.
var statuses = map[failure.Code]int{
	failure.CodeInvalidParameter:     http.StatusBadRequest,
	failure.CodeUnknownParameter:     http.StatusBadRequest,
	failure.CodeMissingParameter:     http.StatusBadRequest,
	failure.CodeInvalidJSON:          http.StatusBadRequest,
	failure.CodeConflictingFormats:   http.StatusBadRequest,
	failure.CodeMissingCredentials:   http.StatusUnauthorized,
	failure.CodeInvalidCredentials:   http.StatusUnauthorized,
	failure.CodeInsufficientScope:    http.StatusForbidden,
	failure.CodeForbiddenOrigin:      http.StatusForbidden,
	failure.CodeNotFound:             http.StatusNotFound,
	failure.CodeMethodNotAllowed:     http.StatusMethodNotAllowed,
	failure.CodePayloadTooLarge:      http.StatusRequestEntityTooLarge,
	failure.CodeUnsupportedMediaType: http.StatusUnsupportedMediaType,
	failure.CodeMinuteLimitReached:   http.StatusTooManyRequests,
	failure.CodeDailyLimitReached:    http.StatusTooManyRequests,
	failure.CodeSearchLimitReached:   http.StatusTooManyRequests,
	failure.CodeSearchInProgress:     http.StatusTooManyRequests,
	failure.CodeSignInLimitReached:   http.StatusTooManyRequests,
	failure.CodeServiceBusy:          http.StatusServiceUnavailable,
	failure.CodeSearchTimeout:        http.StatusServiceUnavailable,
	failure.CodeSearchFailed:         http.StatusServiceUnavailable,
	failure.CodeServiceUnavailable:   http.StatusServiceUnavailable,
	failure.CodeInternalError:        http.StatusInternalServerError,
}

// Status returns the HTTP status of a code (500 for a code missing from
// the table, which TestEveryCodeHasAStatus rules out).
func Status(c failure.Code) int {
	if s, ok := statuses[c]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// APICodes lists, in documentation order, the codes that the JSON API may
// answer with the given status, or with any status when status is 0: the
// enumerations of the OpenAPI document.
func APICodes(status int) []string {
	var out []string
	for _, i := range failure.Codes {
		if i.API && (status == 0 || Status(i.Code) == status) {
			out = append(out, string(i.Code))
		}
	}
	return out
}

// From returns the problem details of f, whose type points at the code's
// documentation under baseURL.
func From(f *failure.Error, baseURL string) *Problem {
	p := &Problem{
		Type:              DocumentationURL(baseURL, f.Code),
		Title:             f.Code.Info().Title,
		Status:            Status(f.Code),
		Detail:            f.Detail,
		Code:              f.Code,
		Param:             f.Param,
		ValidationMessage: f.ValidationMessage,
		AllowedValues:     f.AllowedValues,
		SuggestedValues:   f.SuggestedValues,
		Minimum:           f.Minimum,
		Maximum:           f.Maximum,
		AllowedMethods:    f.AllowedMethods,
	}
	if f.RetryAfterSeconds > 0 {
		s := f.RetryAfterSeconds
		p.RetryAfterSeconds, p.RetryAfterSecondsAlias = &s, &s
	}
	return p
}

// DocumentationURL is where the developer documentation explains a code.
func DocumentationURL(baseURL string, c failure.Code) string {
	return strings.TrimRight(baseURL, "/") + "/developers/errors#" + string(c)
}
