package apptest

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// BearerTransport adds an API key to every request, as MCP clients
// configured with headers do.
type BearerTransport struct{ Key string }

// RoundTrip implements http.RoundTripper.
func (b BearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.Key)
	return http.DefaultTransport.RoundTrip(r)
}

// MCPSession connects the SDK's own client to /mcp over real HTTP with the
// account's key, at the protocol version given ("" for the SDK's).
func (ta *App) MCPSession(version string) *sdk.ClientSession {
	ta.t.Helper()
	c := sdk.NewClient(&sdk.Implementation{Name: "signals-app-test", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{
		Endpoint:   ta.URL + "/mcp",
		HTTPClient: &http.Client{Transport: BearerTransport{ta.Key}},
	}, &sdk.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		ta.t.Fatal(err)
	}
	ta.t.Cleanup(func() { cs.Close() })
	return cs
}

// CallTool calls a tool, failing the test on a protocol error, and returns
// the result with its structured content as JSON.
func CallTool(t testing.TB, cs *sdk.ClientSession, name string, args any) (*sdk.CallToolResult, []byte) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	return res, b
}

// SameJSON reports whether two JSON documents hold the same value.
func SameJSON(t testing.TB, a, b []byte) bool {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal(a, &va); err != nil {
		t.Fatalf("%v: %s", err, a)
	}
	if err := json.Unmarshal(b, &vb); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	return reflect.DeepEqual(va, vb)
}

// MCPPost sends one raw JSON-RPC message to /mcp with the account's key,
// at protocol version 2025-11-25, outside any session. It checks nothing.
func (ta *App) MCPPost(body string, header ...string) (*http.Response, []byte) {
	ta.t.Helper()
	req, err := http.NewRequest(http.MethodPost, ta.URL+"/mcp", strings.NewReader(body))
	if err != nil {
		ta.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+ta.Key)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	return ta.Send(req, header...)
}

// MCPCall sends one tools/call whose arguments are the raw JSON args, so
// that the test controls every byte (duplicate names, 1.0 and the like),
// and returns whether the result is an error with its structured content.
func (ta *App) MCPCall(tool, args string) (isError bool, content map[string]any) {
	ta.t.Helper()
	resp, body := ta.MCPPost(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `}}`)
	if resp.StatusCode != http.StatusOK {
		ta.t.Fatalf("tools/call %s: status %d\n%s", args, resp.StatusCode, body)
	}
	var rpc struct {
		Result struct {
			IsError           bool           `json:"isError"`
			StructuredContent map[string]any `json:"structuredContent"`
		} `json:"result"`
		Error any `json:"error"`
	}
	if err := json.Unmarshal(body, &rpc); err != nil || rpc.Error != nil {
		ta.t.Fatalf("tools/call %s: %v\n%s", args, err, body)
	}
	return rpc.Result.IsError, rpc.Result.StructuredContent
}
