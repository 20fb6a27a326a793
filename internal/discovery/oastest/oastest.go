// Package oastest checks the OpenAPI document and real HTTP responses
// against it with libopenapi-validator. Only tests import it, so the
// service binary does not link the validator.
package oastest

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/pb33f/libopenapi-validator/config"
	liberrors "github.com/pb33f/libopenapi-validator/errors"
	"github.com/pb33f/libopenapi-validator/paths"
	"github.com/pb33f/libopenapi-validator/responses"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"
)

// Validator validates against one OpenAPI document.
type Validator struct {
	doc   libopenapi.Document
	model *v3.Document
	v     validator.Validator
	opts  *config.ValidationOptions

	mu sync.Mutex // the validator's caches are not documented as safe for concurrent use
}

// New parses spec and prepares a validator that also asserts formats
// (date-time, uri).
func New(spec []byte) (*Validator, error) {
	doc, err := libopenapi.NewDocument(spec)
	if err != nil {
		return nil, fmt.Errorf("parse OpenAPI document: %w", err)
	}
	m, err := doc.BuildV3Model()
	if err != nil {
		return nil, fmt.Errorf("build OpenAPI model: %w", err)
	}
	opts := []config.Option{config.WithFormatAssertions()}
	v, errs := validator.NewValidator(doc, opts...)
	if len(errs) > 0 {
		return nil, fmt.Errorf("validator: %v", errs)
	}
	return &Validator{doc: doc, model: &m.Model, v: v, opts: config.NewValidationOptions(opts...)}, nil
}

// Version is the document's OpenAPI version.
func (v *Validator) Version() string { return v.doc.GetVersion() }

// ValidateDocument checks the document against the OpenAPI schema of its
// version.
func (v *Validator) ValidateDocument() []string {
	v.mu.Lock()
	defer v.mu.Unlock()
	_, errs := v.v.ValidateDocument()
	var out []string
	for _, e := range errs {
		out = append(out, describe(e))
	}
	return out
}

// Operations returns the documented methods (upper case) of each path.
func (v *Validator) Operations() map[string][]string {
	out := map[string][]string{}
	for path, item := range v.model.Paths.PathItems.FromOldest() {
		for method := range item.GetOperations().FromOldest() {
			out[path] = append(out[path], strings.ToUpper(method))
		}
		slices.Sort(out[path])
	}
	return out
}

// CheckResponse validates one exchange and returns what does not match the
// document:
//   - a documented path and method: the status must be documented for the
//     operation, the Content-Type must be one it declares, the body must
//     match its schema and the headers it marks required must be present
//     and match theirs;
//   - HEAD on a path documented for GET: as GET, without a body;
//   - a documented path with another method: a 405 that matches the
//     operation's documented 405;
//   - an undocumented path: a 404 that matches the shared NotFound response.
func (v *Validator) CheckResponse(req *http.Request, resp *http.Response, body []byte) []string {
	v.mu.Lock()
	defer v.mu.Unlock()
	var problems []string
	head := req.Method == http.MethodHead
	if head && len(body) > 0 {
		problems = append(problems, "HEAD response has a body")
	}
	r := req.Clone(req.Context())
	if head {
		r.Method = http.MethodGet
	}
	rs := *resp
	rs.Body = io.NopCloser(bytes.NewReader(body))

	item, errs, tmpl := paths.FindPath(r, v.model, v.opts)
	switch {
	case item == nil:
		return append(problems, v.checkShared(r, &rs, body, head, "NotFound", http.StatusNotFound)...)
	case len(errs) > 0:
		// The path is documented but not for this method.
		if resp.StatusCode != http.StatusMethodNotAllowed {
			return append(problems, fmt.Sprintf("%s %s is not documented, yet answered %d instead of 405", req.Method, tmpl, resp.StatusCode))
		}
		for method := range item.GetOperations().FromOldest() {
			r.Method = strings.ToUpper(method)
			break
		}
	}
	if !head && len(body) == 0 {
		problems = append(problems, fmt.Sprintf("%s %s answered %d with an empty body", req.Method, tmpl, resp.StatusCode))
	}
	_, verrs := v.v.GetResponseBodyValidator().ValidateResponseBodyWithPathItem(r, &rs, item, tmpl)
	for _, e := range verrs {
		problems = append(problems, describe(e))
	}
	return problems
}

// checkShared validates a response against a shared response of the
// components, for paths the document does not describe.
func (v *Validator) checkShared(r *http.Request, rs *http.Response, body []byte, head bool, name string, status int) []string {
	var problems []string
	if rs.StatusCode != status {
		problems = append(problems, fmt.Sprintf("undocumented path %s answered %d instead of %d", r.URL.Path, rs.StatusCode, status))
	}
	shared, ok := v.model.Components.Responses.Get(name)
	if !ok {
		return append(problems, "no shared response "+name+" in the document")
	}
	ct := strings.TrimSpace(strings.Split(rs.Header.Get("Content-Type"), ";")[0])
	media, ok := shared.Content.Get(ct)
	if !ok {
		return append(problems, fmt.Sprintf("undocumented path %s answered Content-Type %q, not one of %s", r.URL.Path, ct, name))
	}
	if !head && len(body) == 0 {
		problems = append(problems, "undocumented path "+r.URL.Path+" answered with an empty body")
	}
	if _, errs := responses.ValidateResponseHeaders(r, rs, shared.Headers, r.URL.Path, fmt.Sprint(status), config.WithExistingOpts(v.opts)); len(errs) > 0 {
		for _, e := range errs {
			problems = append(problems, describe(e))
		}
	}
	_, errs := responses.ValidateResponseSchema(&responses.ValidateResponseSchemaInput{
		Request: r, Response: rs, Schema: media.Schema.Schema(), Version: v.doc.GetSpecInfo().VersionNumeric,
		Options: []config.Option{config.WithExistingOpts(v.opts)},
	})
	for _, e := range errs {
		problems = append(problems, describe(e))
	}
	return problems
}

// describe renders a validation error with each schema failure on a line
// of its own.
func describe(e *liberrors.ValidationError) string {
	msg := e.Message + ": " + e.Reason
	for _, f := range e.SchemaValidationErrors {
		msg += "\n    " + f.Reason
		if f.FieldPath != "" {
			msg += " at " + f.FieldPath
		}
		if f.KeywordLocation != "" {
			msg += " (schema " + f.KeywordLocation + ")"
		}
	}
	return msg
}
