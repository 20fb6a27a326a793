// Package failure provides the service's domain errors: a stable code and
// the details a client needs to act on it (the parameter, its allowed values
// or range, the methods a path takes, the wait before a retry). It knows
// nothing of HTTP or of any other medium: the JSON API, MCP, the HTML pages
// and the OAuth endpoints each render the same failure their own way.
package failure

import (
	"errors"
	"fmt"
	"strings"
)

// Code is a stable error code. Clients depend on them; never rename one.
type Code string

// The stable codes, in the order of Codes.
const (
	CodeInvalidParameter     Code = "invalid_parameter"
	CodeUnknownParameter     Code = "unknown_parameter"
	CodeMissingParameter     Code = "missing_parameter"
	CodeInvalidJSON          Code = "invalid_json"
	CodeConflictingFormats   Code = "conflicting_formats"
	CodeMissingCredentials   Code = "missing_credentials"
	CodeInvalidCredentials   Code = "invalid_credentials"
	CodeInsufficientScope    Code = "insufficient_scope"
	CodeForbiddenOrigin      Code = "forbidden_origin"
	CodeNotFound             Code = "not_found"
	CodeMethodNotAllowed     Code = "method_not_allowed"
	CodePayloadTooLarge      Code = "payload_too_large"
	CodeUnsupportedMediaType Code = "unsupported_media_type"
	CodeMinuteLimitReached   Code = "minute_limit_reached"
	CodeDailyLimitReached    Code = "daily_limit_reached"
	CodeSearchLimitReached   Code = "search_limit_reached"
	CodeSearchInProgress     Code = "search_in_progress"
	CodeSignInLimitReached   Code = "sign_in_limit_reached"
	CodeServiceBusy          Code = "service_busy"
	CodeSearchTimeout        Code = "search_timeout"
	CodeSearchFailed         Code = "search_failed"
	CodeServiceUnavailable   Code = "service_unavailable"
	CodeInternalError        Code = "internal_error"
)

// Info describes a code to people: problem titles, the /developers/errors
// page and the OpenAPI document take it from Codes.
type Info struct {
	Code Code
	// Title is the short summary that problem details carry.
	Title string
	// Meaning says in one line when the code is given.
	Meaning string
	// API tells whether the JSON API under /api/v1 may give the code; the
	// others belong to the pages or to MCP.
	API bool
}

// Codes is the one list of the stable codes, in documentation order.
var Codes = []Info{
	{CodeInvalidParameter, "Invalid parameter", "a parameter's value is not allowed", true},
	{CodeUnknownParameter, "Unknown parameter", "the endpoint does not take this parameter or field", true},
	{CodeMissingParameter, "Missing parameter", "a required parameter is missing", true},
	{CodeInvalidJSON, "Invalid JSON", "the body is not one JSON object", true},
	{CodeConflictingFormats, "Conflicting formats", "Markdown was asked for together with the front end's router headers", false},
	{CodeMissingCredentials, "Missing credentials", "no API key was sent", true},
	{CodeInvalidCredentials, "Invalid credentials", "the key is not valid or was revoked, or is not sent as a Bearer token; OAuth access tokens are for /mcp only", true},
	{CodeInsufficientScope, "Insufficient scope", "an OAuth token lacks a permission (MCP only)", false},
	{CodeForbiddenOrigin, "Forbidden origin", "a browser request to MCP from another web origin", false},
	{CodeNotFound, "Not found", "no such endpoint, or no public signal with this id", true},
	{CodeMethodNotAllowed, "Method not allowed", "the path does not take this method; see `Allow`", true},
	{CodePayloadTooLarge, "Payload too large", "the body is larger than 32 KiB, or the headers than 64 KiB", true},
	{CodeUnsupportedMediaType, "Unsupported media type", "the body is not `application/json`", true},
	{CodeMinuteLimitReached, "Minute limit reached", "the account's requests of this minute are used", true},
	{CodeDailyLimitReached, "Daily limit reached", "the account's requests of this UTC day are used", true},
	{CodeSearchLimitReached, "Search limit reached", "the account's fresh searches of this UTC day are used", true},
	{CodeSearchInProgress, "Search in progress", "the account already runs a search", true},
	{CodeSignInLimitReached, "Sign-in limit reached", "too many sign-in links were asked for this email or from this address in the hour", false},
	{CodeServiceBusy, "Service busy", "the search model is at capacity (no search was counted), or a listing could not finish within its deadline; wait `retry_after_seconds`", true},
	{CodeSearchTimeout, "Search timed out", "the search timed out; its reservation is used", true},
	{CodeSearchFailed, "Search failed", "the search failed; its reservation is used", true},
	{CodeServiceUnavailable, "Service unavailable", "a service the request needs cannot be reached: the database, even after a retry, or the mail server; wait `retry_after_seconds` when given", true},
	{CodeInternalError, "Internal error", "an unexpected failure; quote the `request_id`", true},
}

// Info returns the description of c; a code missing from Codes (a bug
// that TestCodesAreListed catches) gets a title made from its name.
func (c Code) Info() Info {
	for _, i := range Codes {
		if i.Code == c {
			return i
		}
	}
	s := strings.ReplaceAll(string(c), "_", " ")
	if s != "" {
		s = strings.ToUpper(s[:1]) + s[1:]
	}
	return Info{Code: c, Title: s}
}

// Error is a failure a client can act on. It is the only kind of error
// whose details reach a client; any other error is internal.
type Error struct {
	Code Code
	// Detail explains this occurrence to people.
	Detail string
	// Param names the parameter, field or header at fault, with what it
	// must be (ValidationMessage) and its allowed values or range.
	Param             string
	ValidationMessage string
	// AllowedValues lists what Param accepts; an empty, non-nil list says
	// that it accepts nothing (an endpoint without parameters).
	AllowedValues []string
	// SuggestedValues are the allowed values closest to the refused one,
	// closest first (see NotAllowed).
	SuggestedValues  []string
	Minimum, Maximum *int64
	// AllowedMethods lists the methods a path takes.
	AllowedMethods []string
	// RetryAfterSeconds is the wait before a retry is worth it; 0 when no
	// wait is known.
	RetryAfterSeconds int
}

// Error implements error.
func (e *Error) Error() string { return string(e.Code) + ": " + e.Detail }

// As finds the failure in err's chain, so that a failure wrapped with %w
// on its way up keeps its code.
func As(err error) (*Error, bool) {
	if err == nil { // errors.As would still allocate f
		return nil, false
	}
	var f *Error
	ok := errors.As(err, &f)
	return f, ok
}

// Is reports whether err's chain holds a failure with code c.
func Is(err error, c Code) bool {
	f, ok := As(err)
	return ok && f.Code == c
}

// New returns a failure with the given code and detail.
func New(code Code, detail string) *Error {
	return &Error{Code: code, Detail: detail}
}

// Invalid reports a parameter whose value is outside its allowed values.
func Invalid(param, message string, allowed []string) *Error {
	e := parameter(CodeInvalidParameter, param, message)
	e.AllowedValues = allowed
	return e
}

// OutOfRange reports a numeric parameter outside [min, max].
func OutOfRange(param string, min, max int64) *Error {
	e := parameter(CodeInvalidParameter, param, fmt.Sprintf("must be an integer from %d to %d", min, max))
	e.Minimum, e.Maximum = &min, &max
	return e
}

// TooLong reports a string parameter whose length, counted in unit, is
// outside [min, max].
func TooLong(param string, min, max int64, unit string) *Error {
	e := parameter(CodeInvalidParameter, param, fmt.Sprintf("must be from %d to %d %s long", min, max, unit))
	e.Minimum, e.Maximum = &min, &max
	return e
}

// Malformed reports a parameter whose value cannot be parsed.
func Malformed(param, message string) *Error {
	return parameter(CodeInvalidParameter, param, message)
}

// Unknown reports a parameter the endpoint does not take.
func Unknown(param string, allowed []string) *Error {
	e := parameter(CodeUnknownParameter, param, "is not a parameter of this endpoint")
	e.AllowedValues = allowed
	return e
}

// Missing reports a required parameter that was not given.
func Missing(param string) *Error {
	return parameter(CodeMissingParameter, param, "is required")
}

// NotFound is the answer for anything that is missing or not public.
func NotFound(detail string) *Error {
	return New(CodeNotFound, detail)
}

// MethodNotAllowed lists the methods a path accepts.
func MethodNotAllowed(method string, allowed []string) *Error {
	e := New(CodeMethodNotAllowed, method+" is not allowed here; use "+strings.Join(allowed, ", "))
	e.AllowedMethods = allowed
	return e
}

// WithRetryAfter sets the wait in seconds and returns e.
func (e *Error) WithRetryAfter(seconds int) *Error {
	e.RetryAfterSeconds = seconds
	return e
}

// WithMessage replaces what the parameter must be, and the detail that
// says it, and returns e.
func (e *Error) WithMessage(message string) *Error {
	e.ValidationMessage, e.Detail = message, e.Param+" "+message
	return e
}

func parameter(code Code, param, message string) *Error {
	return &Error{Code: code, Detail: param + " " + message, Param: param, ValidationMessage: message}
}
