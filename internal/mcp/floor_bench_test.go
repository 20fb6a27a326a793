package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"signals/internal/benchtest"
)

// BenchmarkSDKFloor measures what the MCP SDK alone adds to one tools/call,
// with no store, authentication or counting: a stateless Streamable HTTP
// server configured as /mcp is, with one tool that returns a fixed JSON
// body as structured content and as text, against a plain net/http handler
// that writes the same body. Both are called over loopback HTTP, side by
// side, alternating which goes first. sdk-ns/call is the difference: the
// least any tools/call costs more than the HTTP request it stands for.
//
//	go test -run '^$' -bench SDKFloor -benchtime 3000x ./internal/mcp/
func BenchmarkSDKFloor(b *testing.B) {
	for _, items := range []int{0, 5, 20} {
		b.Run(fmt.Sprintf("items=%d", items), func(b *testing.B) { benchmarkSDKFloor(b, items) })
	}
}

// floorBody is a JSON body shaped like a page of signals: items objects with
// an id, some metadata and a 600-character snippet with quotes in it.
func floorBody(items int) []byte {
	type item struct {
		ID, Tag, Source, Author, Snippet string
		Chars                            int
	}
	page := struct {
		Signals []item `json:"signals"`
		Page    int    `json:"page"`
	}{Signals: []item{}, Page: 1}
	for i := range items {
		page.Signals = append(page.Signals, item{ID: fmt.Sprintf("pn-2026-10-%04d", i), Tag: "funding", Source: "professional_network",
			Author: "Ada Example", Snippet: strings.Repeat(`We "raised" a seed round for robots. `, 20)[:600], Chars: 600})
	}
	b, err := json.Marshal(page)
	if err != nil {
		panic(err)
	}
	return b
}

func benchmarkSDKFloor(b *testing.B, items int) {
	body := floorBody(items)
	server := sdk.NewServer(&sdk.Implementation{Name: "floor", Version: "1"}, &sdk.ServerOptions{
		Capabilities: &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{}},
	})
	server.AddTool(&sdk.Tool{Name: "fixed", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(body)}},
				StructuredContent: json.RawMessage(body)}, nil
		})
	mcpSrv := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return server },
		&sdk.StreamableHTTPOptions{Stateless: true, JSONResponse: true, DisableLocalhostProtection: true}))
	b.Cleanup(mcpSrv.Close)
	httpSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	}))
	b.Cleanup(httpSrv.Close)

	client := benchtest.Client()
	plain := func() {
		req, _ := http.NewRequest(http.MethodGet, httpSrv.URL+"/api/v1/signals?page_size=20", nil)
		benchtest.Send(b, client, req)
	}
	call := func() {
		req, _ := http.NewRequest(http.MethodPost, mcpSrv.URL, strings.NewReader(
			`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"fixed","arguments":{}}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2025-11-25")
		benchtest.Send(b, client, req)
	}
	plainTime, callTime := benchtest.SideBySide(b, plain, call)
	n := float64(b.N)
	b.ReportMetric(float64(len(body)), "body-bytes")
	b.ReportMetric(float64(plainTime.Nanoseconds())/n, "http-ns/call")
	b.ReportMetric(float64(callTime.Nanoseconds())/n, "mcp-ns/call")
	b.ReportMetric(float64((callTime-plainTime).Nanoseconds())/n, "sdk-ns/call")
}
