package mcp

import (
	"encoding/json"

	"github.com/google/jsonschema-go/jsonschema"

	"signals/internal/problem"
	"signals/internal/reads"
	"signals/internal/wire"
)

// The input schemas are those of the typed requests the HTTP API decodes
// too, generated from the same Go types and tables that decodeArguments and
// validation follow, so the schemas accept every argument the tools accept
// (validation is stricter where a schema cannot say it, such as a blank q).
var (
	listInput   = wire.Schema[reads.ListRequest]()
	getInput    = wire.Schema[reads.GetRequest]()
	searchInput = wire.Schema[reads.SearchRequest]()
)

// outputSchema describes the structured content of a tool: the HTTP
// response body T of a success, or the problem object of a failure. Clients
// validate structured content against it whether or not isError is set, so
// it must describe both. Tools/list carries it three times, so it is as
// brief as it can be.
func outputSchema[T any]() *jsonschema.Schema {
	body, failed := wire.OutputSchema[T](), wire.OutputSchema[problem.Problem]()
	// Each branch is an object already by the schema that holds them.
	body.Type, failed.Type = "", ""
	return &jsonschema.Schema{Type: "object", OneOf: []*jsonschema.Schema{body, failed}}
}

// decodeArguments decodes raw tool arguments into v as the HTTP API decodes
// a body (wire.Decode); no arguments at all are an empty object.
func decodeArguments(raw json.RawMessage, v any) error {
	if len(raw) == 0 || string(raw) == "null" {
		raw = json.RawMessage("{}")
	}
	return wire.Decode(raw, v)
}
