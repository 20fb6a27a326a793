package reads

import (
	"fmt"

	"signals/internal/failure"
	"signals/internal/problem"
	"signals/internal/wire"
)

// codeEnum lists every stable code, from failure.Codes: the code
// enumeration of the problem schema, which the OpenAPI document and the MCP
// output schemas share. The OpenAPI responses narrow it per status to the
// codes the JSON API gives (problem.APICodes).
var codeEnum = wire.Enum{Values: allCodes()}

func allCodes() []string {
	out := make([]string, len(failure.Codes))
	for i, c := range failure.Codes {
		out[i] = string(c.Code)
	}
	return out
}

func init() {
	retry := wire.Field{Doc: "Seconds to wait before retrying (429 and 503, when known).", Range: wire.AtLeast(0)}
	wire.Describe[problem.Problem]("RFC 9457 problem details with the service's stable code.", wire.Fields{
		"type":                    {Doc: "Documentation of the code.", Format: "uri"},
		"title":                   {Doc: "A short summary of the code."},
		"status":                  {Doc: "The HTTP status; over MCP, the status the same failure has over HTTP.", Range: wire.Between(400, 599)},
		"detail":                  {Doc: "What went wrong, for people."},
		"code":                    {Doc: "Stable error code.", Enum: &codeEnum},
		"param":                   {Doc: "The parameter at fault."},
		"validation_message":      {Doc: "What the parameter must be."},
		"suggested_values":        {Doc: fmt.Sprintf("For a refused value, up to %d allowed values closest to it, closest first.", failure.MaxSuggested), MaxItems: failure.MaxSuggested},
		"allowed_values":          {Doc: "The allowed values or parameter names."},
		"allowed_values_resource": {Doc: "Over MCP, in place of a long `allowed_values`: the resource that lists them."},
		"minimum":                 {Doc: "Smallest allowed value or length."},
		"maximum":                 {Doc: "Largest allowed value or length."},
		"allowed_methods":         {Doc: "The methods the path accepts."},
		"retry_after_seconds":     retry,
		"retryAfterSeconds":       {AliasOf: "retry_after_seconds"},
		"request_id":              {Doc: "The request id; quote it when reporting a failure."},
	})
}
