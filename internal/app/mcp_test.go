package app_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
	"regexp"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"signals/internal/apptest"
	"signals/internal/discovery"
	"signals/internal/model"
)

const (
	rpcInitialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	rpcToolsList  = `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	rpcListCall   = `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_signals","arguments":{"page_size":2}}}`
)

func TestMCPStructuredContentIsTheHTTPBody(t *testing.T) {
	t.Parallel()
	ta, _ := apptest.StartAt(t, apptest.Noon)
	ta.Put(apptest.Fixtures()...)
	if err := ta.Store().SetLimits(context.Background(), 1, model.Limits{DailyRequests: 1000, MinuteRequests: 1000, DailySearches: 10, ConcurrentSearches: 1}); err != nil {
		t.Fatal(err)
	}
	for _, version := range []string{"2025-06-18", "2025-11-25", ""} {
		t.Run("protocol "+version, func(t *testing.T) {
			cs := ta.MCPSession(version)
			for _, tc := range []struct {
				tool string
				args any
				path string
			}{
				{"list_signals", map[string]any{}, "/api/v1/signals"},
				{"list_signals", map[string]any{"tags": []string{"job", "funding"}, "language": []string{"fr"}, "page_size": 1},
					"/api/v1/signals?tags=job,funding&language=fr&page_size=1"},
				{"list_signals", map[string]any{"q": "ROBOTICS", "observed_after": "2026-10-01T12:00:00Z", "page": 1},
					"/api/v1/signals?q=ROBOTICS&observed_after=2026-10-01T12:00:00Z&page=1"},
				{"get_signal", map[string]any{"id": apptest.OddID}, "/api/v1/signals/" + url.PathEscape(apptest.OddID)},
				{"get_signal", map[string]any{"id": "tf-3"}, "/api/v1/signals/tf-3"},
			} {
				res, got := apptest.CallTool(t, cs, tc.tool, tc.args)
				resp, want := ta.Get(tc.path)
				apptest.WantStatus(t, resp, want, http.StatusOK)
				if res.IsError || !apptest.SameJSON(t, got, want) {
					t.Errorf("%s(%v):\n got %s\nwant %s", tc.tool, tc.args, got, want)
				}
				text := res.Content[0].(*sdk.TextContent).Text
				if !apptest.SameJSON(t, []byte(text), want) {
					t.Errorf("%s: text content is not the body: %s", tc.tool, text)
				}
			}
		})
	}

	// A search answered from the cache twice: over HTTP and over MCP.
	query := `{"query":"seed round for a robotics startup","limit":5}`
	search := func() (*http.Response, []byte) {
		return ta.Do(http.MethodPost, "/api/v1/signals/search", strings.NewReader(query), "Content-Type", "application/json")
	}
	resp, b := search()
	apptest.WantStatus(t, resp, b, http.StatusOK)
	res, got := apptest.CallTool(t, ta.MCPSession(""), "search_signals", map[string]any{"query": "seed round for a robotics startup", "limit": 5})
	resp, want := search()
	apptest.WantStatus(t, resp, want, http.StatusOK)
	if res.IsError || !apptest.SameJSON(t, got, want) || !strings.Contains(string(got), `"cache_hit":true`) {
		t.Errorf("search_signals:\n got %s\nwant %s", got, want)
	}
}

// problemOf decodes the structured content of a failed call.
func problemOf(t *testing.T, res *sdk.CallToolResult, b []byte) map[string]any {
	t.Helper()
	if !res.IsError {
		t.Fatalf("call succeeded: %s", b)
	}
	var p map[string]any
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	text := res.Content[0].(*sdk.TextContent).Text
	if !apptest.SameJSON(t, []byte(text), b) {
		t.Errorf("text content %s is not the problem %s", text, b)
	}
	return p
}

func TestMCPFailuresAreToolResults(t *testing.T) {
	t.Parallel()
	ta, clk := apptest.StartAt(t, apptest.Noon)
	ta.Put(apptest.Fixtures()...)
	cs := ta.MCPSession("")

	// The same problem, but for the detail: each medium says where ids
	// come from in its own terms.
	res, b := apptest.CallTool(t, cs, "get_signal", map[string]any{"id": "hidden-5"})
	p := problemOf(t, res, b)
	_, httpBody := ta.Get("/api/v1/signals/hidden-5")
	hp := apptest.Decode[map[string]any](t, httpBody)
	delete(p, "detail")
	delete(hp, "detail")
	if p["status"] != 404.0 || p["code"] != "not_found" || !reflect.DeepEqual(p, hp) {
		t.Errorf("hidden signal: %s, HTTP says %s", b, httpBody)
	}

	res, b = apptest.CallTool(t, cs, "list_signals", map[string]any{"page_size": 51})
	p = problemOf(t, res, b)
	_, httpBody = ta.Get("/api/v1/signals?page_size=51")
	if p["status"] != 400.0 || p["param"] != "page_size" || !apptest.SameJSON(t, b, httpBody) {
		t.Errorf("page_size 51: %s, HTTP says %s", b, httpBody)
	}

	// The minute cap: 4 requests, 3 already used: the 404 call and the two
	// HTTP requests (invalid arguments over MCP are not counted).
	if err := ta.Store().SetLimits(context.Background(), 1, model.Limits{DailyRequests: 1000, MinuteRequests: 4, DailySearches: 10, ConcurrentSearches: 1}); err != nil {
		t.Fatal(err)
	}
	res, b = apptest.CallTool(t, cs, "list_signals", nil)
	if res.IsError {
		t.Fatalf("third request of the minute refused: %s", b)
	}
	res, b = apptest.CallTool(t, cs, "list_signals", nil)
	p = problemOf(t, res, b)
	if p["status"] != 429.0 || p["code"] != "minute_limit_reached" || p["retry_after_seconds"] != 45.0 {
		t.Errorf("over the minute cap: %s", b)
	}
	u, err := ta.Store().Usage(context.Background(), 1, clk.Now())
	if err != nil || u.MinuteUsed != 4 || u.DayUsed != 4 {
		t.Errorf("usage = %+v, %v; want the refused call not counted", u, err)
	}

	// Over raw HTTP the refusal is still a 200 JSON-RPC result, with the
	// RateLimit headers of the refusal.
	resp, body := ta.MCPPost(rpcListCall)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"isError":true`) {
		t.Errorf("refused call over HTTP: %d %s", resp.StatusCode, body)
	}
	if got := resp.Header.Get("RateLimit"); got != `"minute";r=0;t=45` {
		t.Errorf("RateLimit = %q", got)
	}
	if got := resp.Header.Get("RateLimit-Policy"); got != `"minute";q=4;w=60` {
		t.Errorf("RateLimit-Policy = %q", got)
	}
}

// list_signals refuses a page deeper than a listing with q reaches with
// the HTTP API's problem, before the call is counted.
func TestMCPListWithQReachesTenThousandDeep(t *testing.T) {
	t.Parallel()
	ta, clk := apptest.StartAt(t, apptest.Noon)
	ta.Put(apptest.Fixtures()...)
	cs := ta.MCPSession("")
	res, b := apptest.CallTool(t, cs, "list_signals", map[string]any{"q": "robot", "page": 201, "page_size": 50})
	p := problemOf(t, res, b)
	if p["status"] != 400.0 || p["code"] != "invalid_parameter" || p["param"] != "page" || p["maximum"] != 200.0 {
		t.Errorf("page 201 of 50 with q: %s", b)
	}
	u, err := ta.Store().Usage(context.Background(), 1, clk.Now())
	if err != nil || u.DayUsed != 0 {
		t.Errorf("usage = %+v, %v; a refused page is not counted", u, err)
	}
	_, httpBody := ta.Get("/api/v1/signals?q=robot&page=201&page_size=50")
	if !apptest.SameJSON(t, b, httpBody) {
		t.Errorf("MCP says %s, HTTP says %s", b, httpBody)
	}
	if res, b := apptest.CallTool(t, cs, "list_signals", map[string]any{"q": "robot", "page": 200, "page_size": 50}); res.IsError {
		t.Errorf("page 200 of 50 with q refused: %s", b)
	}
}

func TestMCPCounting(t *testing.T) {
	t.Parallel()
	ta, clk := apptest.StartAt(t, apptest.Noon)
	ta.Put(apptest.Fixtures()...)
	used := func() int {
		t.Helper()
		u, err := ta.Store().Usage(context.Background(), 1, clk.Now())
		if err != nil {
			t.Fatal(err)
		}
		return u.DayUsed
	}
	cs := ta.MCPSession("2025-11-25")
	if _, err := cs.ListTools(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if err := cs.Ping(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	for _, args := range []map[string]any{{"page_size": 0}, {"tags": []string{"nope"}}, {"bogus": 1}} {
		if res, b := apptest.CallTool(t, cs, "list_signals", args); !res.IsError {
			t.Errorf("invalid arguments %v accepted: %s", args, b)
		}
	}
	if res, b := apptest.CallTool(t, cs, "search_signals", map[string]any{"query": "robots", "language": []string{"other"}}); !res.IsError {
		t.Errorf("search in language other accepted: %s", b)
	}
	if _, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "read_usage"}); err == nil {
		t.Error("unknown tool answered")
	}
	for _, method := range []string{"resources/list", "prompts/get", "no/such/method"} {
		ta.MCPPost(`{"jsonrpc":"2.0","id":9,"method":"` + method + `","params":{"name":"x"}}`)
	}
	ta.MCPPost(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	if n := used(); n != 0 {
		t.Fatalf("uncounted MCP traffic used %d requests", n)
	}

	apptest.CallTool(t, cs, "list_signals", nil)
	apptest.CallTool(t, cs, "get_signal", map[string]any{"id": "mb-1"})
	apptest.CallTool(t, cs, "get_signal", map[string]any{"id": "no-such-id"}) // reaches the tool: counts
	apptest.CallTool(t, cs, "search_signals", map[string]any{"query": "seed round"})
	ta.Get("/api/v1/signals")
	if n := used(); n != 5 {
		t.Fatalf("4 tool calls and 1 HTTP request used %d requests, want 5 (shared usage)", n)
	}
	_, usage := ta.Get("/api/v1/usage")
	if !strings.Contains(string(usage), `"daily_searches":{"limit":10,"used":1`) {
		t.Errorf("the MCP search did not reserve a daily search: %s", usage)
	}
}

func TestMCPRateLimitHeaders(t *testing.T) {
	t.Parallel()
	ta, _ := apptest.StartAt(t, apptest.Noon)
	ta.Put(apptest.Fixtures()...)
	if err := ta.Store().SetLimits(context.Background(), 1, model.Limits{DailyRequests: 1000, MinuteRequests: 7, DailySearches: 10, ConcurrentSearches: 1}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, body string
		status     int
		rateLimit  string
	}{
		// Requests that are not counted say what the next one would find.
		{"initialize", rpcInitialize, 200, `"minute";r=7;t=45`},
		{"tools/list", rpcToolsList, 200, `"minute";r=7;t=45`},
		{"invalid arguments", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"list_signals","arguments":{"page":0}}}`, 200, `"minute";r=7;t=45`},
		{"notification", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, 202, `"minute";r=7;t=45`},
		{"tool call", rpcListCall, 200, `"minute";r=6;t=45`},
		{"second tool call", rpcListCall, 200, `"minute";r=5;t=45`},
	} {
		resp, body := ta.MCPPost(tc.body)
		if resp.StatusCode != tc.status {
			t.Errorf("%s: status %d %s", tc.name, resp.StatusCode, body)
		}
		if got := resp.Header.Get("RateLimit-Policy"); got != `"minute";q=7;w=60` {
			t.Errorf("%s: RateLimit-Policy = %q, want the account's cap", tc.name, got)
		}
		if got := resp.Header.Get("RateLimit"); got != tc.rateLimit {
			t.Errorf("%s: RateLimit = %q, want %q", tc.name, got, tc.rateLimit)
		}
		if resp.Header.Get("X-Request-Id") == "" {
			t.Errorf("%s: no X-Request-Id", tc.name)
		}
	}
}

func TestMCPAuthentication(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	challenge := `Bearer resource_metadata="https://signals.example/.well-known/oauth-protected-resource/mcp", scope="signals:read signals:search"`
	for _, tc := range []struct {
		name, authorization, challenge, code string
	}{
		{"no key", "", challenge, "missing_credentials"},
		{"wrong key", "Bearer sig_0123456789abcdef0123456789abcdef", challenge + `, error="invalid_token"`, "invalid_credentials"},
		{"not bearer", "Basic Zm9vOmJhcg==", challenge + `, error="invalid_token"`, "invalid_credentials"},
	} {
		resp, body := ta.MCPPost(rpcInitialize, "Authorization", tc.authorization)
		if resp.StatusCode != http.StatusUnauthorized || resp.Header.Get("Content-Type") != "application/problem+json" {
			t.Errorf("%s: %d %s %s", tc.name, resp.StatusCode, resp.Header.Get("Content-Type"), body)
		}
		if got := resp.Header.Get("WWW-Authenticate"); got != tc.challenge {
			t.Errorf("%s: WWW-Authenticate = %q\nwant %q", tc.name, got, tc.challenge)
		}
		if p := apptest.Decode[map[string]any](t, body); p["code"] != tc.code || p["status"] != 401.0 {
			t.Errorf("%s: %s", tc.name, body)
		}
		if got := resp.Header.Get("RateLimit-Policy"); got != `"minute";q=30;w=60` {
			t.Errorf("%s: RateLimit-Policy = %q", tc.name, got)
		}
	}
}

func TestMCPOriginAndHost(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	for _, tc := range []struct {
		name   string
		header []string
		status int
	}{
		{"no Origin (not a browser)", nil, 200},
		{"the service's own origin", []string{"Origin", "https://signals.example"}, 200},
		{"own origin, default port spelled out", []string{"Origin", "https://SIGNALS.example"}, 200},
		{"another origin (DNS rebinding)", []string{"Origin", "http://evil.example"}, 403},
		{"another origin with the public Host", []string{"Origin", "http://evil.example", "Host", "signals.example"}, 403},
		{"opaque origin", []string{"Origin", "null"}, 403},
		{"own origin over http", []string{"Origin", "http://signals.example"}, 403},
		// A reverse proxy on the same machine forwards the public host
		// name to a loopback listener.
		{"public Host on a loopback address", []string{"Host", "signals.example"}, 200},
		{"public Host with the proxy's Origin", []string{"Host", "signals.example", "Origin", "https://signals.example"}, 200},
	} {
		resp, body := ta.MCPPost(rpcInitialize, tc.header...)
		if resp.StatusCode != tc.status {
			t.Errorf("%s: %d %s", tc.name, resp.StatusCode, body)
			continue
		}
		if tc.status == 403 {
			if p := apptest.Decode[map[string]any](t, body); p["code"] != "forbidden_origin" || resp.Header.Get("Content-Type") != "application/problem+json" {
				t.Errorf("%s: %s", tc.name, body)
			}
		} else if !strings.Contains(string(body), `"protocolVersion":"2025-11-25"`) {
			t.Errorf("%s: %s", tc.name, body)
		}
	}
}

func TestMCPMethods(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	big := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_signals","arguments":{"q":"` + strings.Repeat("x", 33<<10) + `"}}}`
	if resp, body := ta.MCPPost(big); resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("a 33 KiB body: %d %s", resp.StatusCode, body)
	}
	for _, method := range []string{http.MethodGet, http.MethodDelete, http.MethodPut, http.MethodHead} {
		resp, body := ta.Do(method, "/mcp", nil, "Accept", "text/event-stream")
		if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "POST" {
			t.Errorf("%s /mcp: %d Allow=%q %s", method, resp.StatusCode, resp.Header.Get("Allow"), body)
		}
		if method != http.MethodHead && !regexp.MustCompile(`"code":"method_not_allowed"`).Match(body) {
			t.Errorf("%s /mcp: %s", method, body)
		}
	}
}

// TestMCPToolsMatchDiscovery keeps /.well-known/mcp.json true: the same
// tools, with the same titles, as tools/list.
func TestMCPToolsMatchDiscovery(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	res, err := ta.MCPSession("2025-11-25").ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, tool := range res.Tools {
		got[tool.Name] = tool.Title
	}
	want := map[string]string{}
	for _, tool := range discovery.Tools {
		want[tool.Name] = tool.Title
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tools/list %v, /.well-known/mcp.json %v", got, want)
	}
}
