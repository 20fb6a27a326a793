package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"signals/internal/model"
	"signals/internal/reads"
	"signals/internal/search"
)

// Names and titles of the tools; /.well-known/mcp.json lists the same.
const (
	ListTool   = "list_signals"
	GetTool    = "get_signal"
	SearchTool = "search_signals"
)

func listTool() *sdk.Tool {
	return &sdk.Tool{
		Name:  ListTool,
		Title: "List signals",
		Description: "Lists public signals, newest published first, a page at a time: each with its metadata and " +
			fmt.Sprintf("the first %d characters of its text. ", model.ListSnippetChars) +
			"Filters combine with AND, values within tags or sources with OR.",
		Annotations:  &sdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(false)},
		InputSchema:  listInput,
		OutputSchema: outputSchema[reads.ListResponse](),
	}
}

func getTool() *sdk.Tool {
	return &sdk.Tool{
		Name:  GetTool,
		Title: "Get a signal",
		Description: "Reads one public signal by its id or page address: its metadata, source_url for " +
			fmt.Sprintf("attribution and its text cut to %d characters (text_truncated says if it was). ", model.MaxTextChars) +
			"A non-public id is a 404.",
		Annotations:  &sdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(false)},
		InputSchema:  getInput,
		OutputSchema: outputSchema[reads.Signal](),
	}
}

func searchTool() *sdk.Tool {
	return &sdk.Tool{
		Name:  SearchTool,
		Title: "Search signals",
		Description: fmt.Sprintf("Searches by meaning the newest %d signals inside the filters; returns those with "+
			"relevance of at least %.2f (how clearly a signal is about the query, not whether it is true), best first, "+
			"each with the first %d characters of its text. An account has initially %d fresh searches per UTC day, one at a time; "+
			"a recent identical search is answered from the cache without using one. Do not retry a "+
			"timed-out search automatically.",
			search.WindowSize, search.Cutoff, model.MatchSnippetChars, model.InitialLimits.DailySearches),
		Annotations:  &sdk.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: new(false)},
		InputSchema:  searchInput,
		OutputSchema: outputSchema[reads.SearchResponse](),
	}
}

// handlers of the tools. Each validates first, then counts the call, then
// answers: a call that fails validation never reaches the count.

func (s *Server) list(ctx context.Context, args reads.ListRequest) *sdk.CallToolResult {
	q, err := args.Validate()
	if err != nil {
		return s.fail(ctx, err)
	}
	if _, err := s.count(ctx); err != nil {
		return s.fail(ctx, err)
	}
	resp, err := s.cfg.API.List(ctx, q)
	if err != nil {
		return s.fail(ctx, err)
	}
	return s.result(ctx, resp)
}

func (s *Server) get(ctx context.Context, args reads.GetRequest) *sdk.CallToolResult {
	id, err := args.Validate()
	if err != nil {
		return s.fail(ctx, err)
	}
	if _, err := s.count(ctx); err != nil {
		return s.fail(ctx, err)
	}
	resp, err := s.cfg.API.Get(ctx, id)
	if errors.Is(err, reads.ErrNoSignal) {
		// As get_signal says it.
		err = reads.NoSignal("the id field of a signal as list_signals or search_signals return it", s.cfg.BaseURL)
	}
	if err != nil {
		return s.fail(ctx, err)
	}
	return s.result(ctx, resp)
}

func (s *Server) search(ctx context.Context, req reads.SearchRequest) *sdk.CallToolResult {
	if _, err := req.Validate(); err != nil {
		return s.fail(ctx, err)
	}
	acct, err := s.count(ctx)
	if err != nil {
		return s.fail(ctx, err)
	}
	resp, err := s.cfg.API.Search(ctx, acct, req)
	if err != nil {
		s.returnRefused(ctx, err) // a refused search is not a request
		return s.fail(ctx, err)
	}
	return s.result(ctx, resp)
}

// result answers a tool call with the HTTP response body as structured
// content and, for clients that read only text, as JSON text.
func (s *Server) result(ctx context.Context, body any) *sdk.CallToolResult {
	b, err := json.Marshal(body)
	if err != nil {
		return s.fail(ctx, err)
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(b)}},
		StructuredContent: json.RawMessage(b)}
}

// fail answers a tool call with the problem of err: isError true, the
// problem as structured content and as JSON text; nil when the client
// went away.
func (s *Server) fail(ctx context.Context, err error) *sdk.CallToolResult {
	return s.problemResult(ctx, err)
}
