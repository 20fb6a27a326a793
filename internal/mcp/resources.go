package mcp

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"signals/internal/problem"
	"signals/internal/reads"
	"signals/internal/wire"
)

// The enumerations of signal fields are resources: the tool schemas give a
// long one as a pattern (wire.Enum.Long), and a refused value points to
// the resource instead of repeating the list (docs/api.md). Reading one
// costs no request of the account's allowance: only tool calls count.

// addResources serves each enumeration of reads.Listed at its Resource, as a
// JSON array of its values.
func (s *Server) addResources() {
	for _, e := range reads.Listed {
		body, err := json.Marshal(e.Values)
		if err != nil {
			panic(err)
		}
		name := strings.TrimPrefix(e.Resource, "signals://")
		s.server.AddResource(&sdk.Resource{
			URI:         e.Resource,
			Name:        name,
			Title:       e.Name + " keys",
			Description: "Every value of the " + strings.ToLower(e.Name) + " filters, as a JSON array. " + e.Doc,
			MIMEType:    "application/json",
			Size:        int64(len(body)),
		}, func(_ context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{
				{URI: req.Params.URI, MIMEType: "application/json", Text: string(body)},
			}}, nil
		})
	}
}

// pointToResource leaves a long list of allowed values out of a problem,
// naming the resource that lists them instead: a tool result stays short.
func pointToResource(p *problem.Problem) {
	if len(p.AllowedValues) <= wire.LongEnum {
		return
	}
	for _, e := range reads.Listed {
		if slices.Equal(p.AllowedValues, e.Values) {
			p.AllowedValues = nil
			p.AllowedValuesResource = e.Resource
			if strings.HasSuffix(p.Detail, "?") {
				p.Detail += " The resource " + e.Resource + " lists every value."
			} else {
				p.Detail += "; the resource " + e.Resource + " lists every value"
			}
			return
		}
	}
}
