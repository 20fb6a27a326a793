package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"signals/internal/api"
	"signals/internal/model"
	"signals/internal/problem"
	"signals/internal/search"
)

// The input schemas are inferred from the argument structs (their jsonschema
// tags are the descriptions) and then given the enumerations and ranges the
// HTTP API documents. The service validates arguments with its own rules
// before the SDK checks them against these schemas (see checkArguments), so
// every schema must accept whatever those rules accept.
var (
	listInput = inputSchema[ListArgs](map[string]func(*jsonschema.Schema){
		"tags":           enumArray(model.Tags, 0),
		"sources":        enumArray(model.Sources, 0),
		"language":       enumArray(model.Languages, 1),
		"country":        enumArray(model.Countries, 1),
		"q":              stringLength(1, model.MaxQChars),
		"observed_after": timestamp,
		"page":           integer(1, model.MaxPage, 1),
		"page_size":      integer(1, model.MaxPageSize, model.DefaultPageSize),
	})
	getInput = inputSchema[GetArgs](map[string]func(*jsonschema.Schema){
		"id": stringLength(1, model.MaxIDChars),
	})
	searchInput = inputSchema[SearchArgs](map[string]func(*jsonschema.Schema){
		// maxLength counts code points, which never exceed UTF-16 units.
		"query":          stringLength(1, 1200),
		"tags":           enumArray(model.Tags, 0),
		"sources":        enumArray(model.Sources, 0),
		"language":       enumArray(model.SearchLanguages, 0),
		"country":        enumArray(model.Countries, 0),
		"observed_after": timestamp,
		"limit":          integer(1, search.MaxMatches, search.DefaultLimit),
	})
)

// inputSchema infers the schema of T and applies a change to each property;
// every property must have one.
func inputSchema[T any](props map[string]func(*jsonschema.Schema)) *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(err)
	}
	if len(props) != len(s.Properties) {
		panic(fmt.Sprintf("input schema of %T: %d properties, %d changes", *new(T), len(s.Properties), len(props)))
	}
	for name, change := range props {
		p, ok := s.Properties[name]
		if !ok {
			panic(fmt.Sprintf("input schema of %T has no property %q", *new(T), name))
		}
		change(p)
	}
	return s
}

func enumArray(values []string, maxItems int) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) {
		s.Types, s.Type = nil, "array"
		s.Items = &jsonschema.Schema{Type: "string", Enum: enumOf(values)}
		if maxItems > 0 {
			s.MaxItems = &maxItems
		}
	}
}

func stringLength(minLen, maxLen int) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) {
		s.Types, s.Type = nil, "string"
		s.MinLength, s.MaxLength = &minLen, &maxLen
	}
}

func timestamp(s *jsonschema.Schema) {
	s.Types, s.Type = nil, "string"
	s.Format = "date-time"
}

func integer(minimum, maximum, def int) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) {
		s.Types, s.Type = nil, "integer"
		lo, hi := float64(minimum), float64(maximum)
		s.Minimum, s.Maximum = &lo, &hi
		s.Default = json.RawMessage(fmt.Sprint(def))
	}
}

func enumOf(values []string) []any {
	out := make([]any, len(values))
	for i, v := range values {
		out[i] = v
	}
	return out
}

// outputTypes are the schemas of types whose JSON is not what their Go
// fields suggest.
var outputTypes = map[reflect.Type]*jsonschema.Schema{
	reflect.TypeFor[model.Time](): {Type: "string", Format: "date-time"},
}

// outputSchema describes the structured content of a tool: the HTTP
// response body T of a success, or the problem object of a failure. Clients
// validate structured content against it whether or not isError is set, so
// it must describe both.
func outputSchema[T any](description string) *jsonschema.Schema {
	ok, err := jsonschema.For[T](&jsonschema.ForOptions{TypeSchemas: outputTypes})
	if err != nil {
		panic(err)
	}
	// Lists are never null in responses.
	for _, p := range ok.Properties {
		if slicesEqual(p.Types, []string{"null", "array"}) {
			p.Types, p.Type = nil, "array"
		}
	}
	switch any(*new(T)).(type) {
	case api.ListResponse:
		signalShape(ok.Properties["signals"].Items, "snippet")
	case api.Signal:
		signalShape(ok, "text")
	case api.SearchResponse:
		signalShape(ok.Properties["matches"].Items, "snippet", "relevance")
	}
	failure, err := jsonschema.For[problem.Problem](nil)
	if err != nil {
		panic(err)
	}
	failure.Description = "A problem (RFC 9457 problem details with the service's stable code)."
	failure.Properties["status"].Description = "The HTTP status the same failure has on the HTTP API."
	failure.Properties["code"].Description = "Stable error code, such as invalid_parameter, not_found or minute_limit_reached."
	failure.Properties["retry_after_seconds"].Description = "Seconds to wait before retrying, when known (429 and 503)."
	return &jsonschema.Schema{Type: "object", Description: description, OneOf: []*jsonschema.Schema{ok, failure}}
}

// signalShape narrows the schema of api.Signal to one of its forms: lists
// add a snippet, search matches a snippet and a relevance, single reads the
// text. It also gives the enumerations of the metadata.
func signalShape(s *jsonschema.Schema, extra ...string) {
	for _, name := range []string{"snippet", "relevance", "text"} {
		if slices.Contains(extra, name) {
			p := s.Properties[name]
			p.Type, p.Types = p.Types[1], nil
			s.Required = append(s.Required, name)
		} else {
			delete(s.Properties, name)
			s.PropertyOrder = slices.DeleteFunc(s.PropertyOrder, func(n string) bool { return n == name })
		}
	}
	s.Properties["tag"].Enum = enumOf(model.Tags)
	s.Properties["source"].Enum = enumOf(model.Sources)
	s.Properties["language"].Enum = enumOf(model.Languages)
	s.Properties["published_at_precision"].Enum = enumOf(model.Precisions)
	s.Properties["textChars"].Description = "Deprecated alias of text_chars."
}

func slicesEqual(a, b []string) bool { return strings.Join(a, ",") == strings.Join(b, ",") }

// argumentProblem describes what a property of an input schema accepts, for
// arguments of the wrong JSON type (or null).
func argumentProblem(s *jsonschema.Schema, name string) *problem.Problem {
	p, ok := s.Properties[name]
	if !ok {
		return problem.Unknown(name, propertyNames(s))
	}
	switch {
	case p.Type == "array":
		values := make([]string, len(p.Items.Enum))
		for i, v := range p.Items.Enum {
			values[i] = v.(string)
		}
		if len(values) > 20 {
			return problem.Invalid(name, "must be an array of country keys such as canada or united_states; the full list is in allowed_values", values)
		}
		return problem.Invalid(name, "must be an array of: "+strings.Join(values, ", "), values)
	case p.Type == "integer":
		return problem.OutOfRange(name, int64(*p.Minimum), int64(*p.Maximum))
	case name == "observed_after":
		return problem.Malformed(name, "must be a string: "+model.ErrTime.Error())
	case p.MaxLength != nil:
		return problem.TooLong(name, int64(*p.MinLength), int64(*p.MaxLength), "characters")
	}
	return problem.Malformed(name, "has the wrong type")
}

// propertyNames lists the properties of s in documentation order.
func propertyNames(s *jsonschema.Schema) []string {
	return s.PropertyOrder
}

// checkArguments decodes raw tool arguments into v with the service's
// rules: an object of known properties, none of them null, each of its
// schema's JSON type.
func checkArguments(s *jsonschema.Schema, raw json.RawMessage, v any) error {
	if len(raw) == 0 || string(raw) == "null" {
		raw = json.RawMessage("{}")
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return problem.New(400, problem.CodeInvalidJSON, "the tool arguments must be a JSON object")
	}
	for _, name := range sortedKeys(fields) {
		if _, ok := s.Properties[name]; !ok {
			return problem.Unknown(name, propertyNames(s))
		}
		if string(fields[name]) == "null" {
			return argumentProblem(s, name)
		}
	}
	err := json.Unmarshal(raw, v)
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return argumentProblem(s, strings.SplitN(te.Field, ".", 2)[0])
	}
	if err != nil {
		return problem.New(400, problem.CodeInvalidJSON, "the tool arguments must be a JSON object")
	}
	return nil
}
