// Package problem provides RFC 9457 problem details with the service's stable
// error codes, and the one place that renders them.
package problem

import (
	"fmt"
	"net/http"
	"strings"
)

// Stable error codes. Clients depend on them; never rename one.
const (
	CodeInvalidParameter     = "invalid_parameter"
	CodeUnknownParameter     = "unknown_parameter"
	CodeMissingParameter     = "missing_parameter"
	CodeInvalidJSON          = "invalid_json"
	CodeConflictingFormats   = "conflicting_formats"
	CodeMissingCredentials   = "missing_credentials"
	CodeInvalidCredentials   = "invalid_credentials"
	CodeInsufficientScope    = "insufficient_scope"
	CodeNotFound             = "not_found"
	CodeMethodNotAllowed     = "method_not_allowed"
	CodePayloadTooLarge      = "payload_too_large"
	CodeUnsupportedMediaType = "unsupported_media_type"
	CodeMinuteLimitReached   = "minute_limit_reached"
	CodeDailyLimitReached    = "daily_limit_reached"
	CodeSearchLimitReached   = "search_limit_reached"
	CodeSearchInProgress     = "search_in_progress"
	CodeServiceBusy          = "service_busy"
	CodeSearchTimeout        = "search_timeout"
	CodeSearchFailed         = "search_failed"
	CodeInternalError        = "internal_error"
)

// Problem is an RFC 9457 problem details object extended with the service's
// stable code and validation details. It is also a Go error.
type Problem struct {
	Type              string   `json:"type"`
	Title             string   `json:"title"`
	Status            int      `json:"status"`
	Detail            string   `json:"detail"`
	Code              string   `json:"code"`
	Param             string   `json:"param,omitempty"`
	ValidationMessage string   `json:"validation_message,omitempty"`
	AllowedValues     []string `json:"allowed_values,omitzero"`
	Minimum           *int64   `json:"minimum,omitempty"`
	Maximum           *int64   `json:"maximum,omitempty"`
	AllowedMethods    []string `json:"allowed_methods,omitempty"`
	RetryAfterSeconds *int     `json:"retry_after_seconds,omitempty"`
	// RetryAfterSecondsAlias is the deprecated camelCase alias of RetryAfterSeconds.
	RetryAfterSecondsAlias *int   `json:"retryAfterSeconds,omitempty"`
	RequestID              string `json:"request_id,omitempty"`
}

// Error implements error.
func (p *Problem) Error() string { return p.Code + ": " + p.Detail }

// New returns a problem with the given status, code and detail; the title is
// derived from the code.
func New(status int, code, detail string) *Problem {
	return &Problem{Title: titleOf(code), Status: status, Code: code, Detail: detail}
}

// Invalid reports a parameter whose value is outside its allowed values.
func Invalid(param, message string, allowed []string) *Problem {
	p := New(http.StatusBadRequest, CodeInvalidParameter, param+" "+message)
	p.Param, p.ValidationMessage, p.AllowedValues = param, message, allowed
	return p
}

// OutOfRange reports a numeric parameter outside [min, max].
func OutOfRange(param string, min, max int64) *Problem {
	msg := fmt.Sprintf("must be an integer from %d to %d", min, max)
	p := New(http.StatusBadRequest, CodeInvalidParameter, param+" "+msg)
	p.Param, p.ValidationMessage, p.Minimum, p.Maximum = param, msg, &min, &max
	return p
}

// TooLong reports a string parameter longer than max units (named by unit).
func TooLong(param string, min, max int64, unit string) *Problem {
	msg := fmt.Sprintf("must be from %d to %d %s long", min, max, unit)
	p := New(http.StatusBadRequest, CodeInvalidParameter, param+" "+msg)
	p.Param, p.ValidationMessage, p.Minimum, p.Maximum = param, msg, &min, &max
	return p
}

// Malformed reports a parameter whose value cannot be parsed.
func Malformed(param, message string) *Problem {
	p := New(http.StatusBadRequest, CodeInvalidParameter, param+" "+message)
	p.Param, p.ValidationMessage = param, message
	return p
}

// Unknown reports a parameter the endpoint does not take.
func Unknown(param string, allowed []string) *Problem {
	msg := "is not a parameter of this endpoint"
	p := New(http.StatusBadRequest, CodeUnknownParameter, param+" "+msg)
	p.Param, p.ValidationMessage, p.AllowedValues = param, msg, allowed
	return p
}

// Missing reports a required parameter that was not given.
func Missing(param string) *Problem {
	msg := "is required"
	p := New(http.StatusBadRequest, CodeMissingParameter, param+" "+msg)
	p.Param, p.ValidationMessage = param, msg
	return p
}

// NotFound is the answer for anything that is missing or not public.
func NotFound(detail string) *Problem {
	return New(http.StatusNotFound, CodeNotFound, detail)
}

// MethodNotAllowed lists the methods a path accepts.
func MethodNotAllowed(method string, allowed []string) *Problem {
	p := New(http.StatusMethodNotAllowed, CodeMethodNotAllowed,
		method+" is not allowed here; use "+strings.Join(allowed, ", "))
	p.AllowedMethods = allowed
	return p
}

// WithRetryAfter sets the wait in seconds (and its alias) and returns p.
func (p *Problem) WithRetryAfter(seconds int) *Problem {
	p.RetryAfterSeconds, p.RetryAfterSecondsAlias = &seconds, &seconds
	return p
}

func titleOf(code string) string {
	if t, ok := titles[code]; ok {
		return t
	}
	s := strings.ReplaceAll(code, "_", " ")
	return strings.ToUpper(s[:1]) + s[1:]
}

var titles = map[string]string{
	CodeInvalidParameter:     "Invalid parameter",
	CodeUnknownParameter:     "Unknown parameter",
	CodeMissingParameter:     "Missing parameter",
	CodeInvalidJSON:          "Invalid JSON",
	CodeConflictingFormats:   "Conflicting formats",
	CodeMissingCredentials:   "Missing credentials",
	CodeInvalidCredentials:   "Invalid credentials",
	CodeInsufficientScope:    "Insufficient scope",
	CodeNotFound:             "Not found",
	CodeMethodNotAllowed:     "Method not allowed",
	CodePayloadTooLarge:      "Payload too large",
	CodeUnsupportedMediaType: "Unsupported media type",
	CodeMinuteLimitReached:   "Minute limit reached",
	CodeDailyLimitReached:    "Daily limit reached",
	CodeSearchLimitReached:   "Search limit reached",
	CodeSearchInProgress:     "Search in progress",
	CodeServiceBusy:          "Service busy",
	CodeSearchTimeout:        "Search timed out",
	CodeSearchFailed:         "Search failed",
	CodeInternalError:        "Internal error",
}
