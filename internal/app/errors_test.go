package app_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"signals/internal/app"
	"signals/internal/apptest"
	"signals/internal/failure"
	"signals/internal/problem"
)

// generatedRequestID is the shape of a request id the service makes: never
// one that a client could read as a number.
var generatedRequestID = regexp.MustCompile(`^req-[0-9a-f]{24}$`)

// goTypeName matches what Go's decoders say about the types they decode
// into, which must never reach a client.
var goTypeName = regexp.MustCompile(`\b(api|mcp|model|jsonrpc)\.[A-Z]|Go (struct field|value)|unmarshal`)

// Every error of the MCP transport is JSON: a JSON-RPC error object where
// the protocol has one, problem details for what HTTP decides; none names
// a Go type.
func TestMCPTransportErrorsAreJSON(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	type rpcAnswer struct {
		ID    any `json:"id"`
		Error *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	for _, tc := range []struct {
		name, body string
		header     []string
		status     int
		code       failure.Code // problem details
		rpcCode    int          // or a JSON-RPC error
		id         any
	}{
		{"wrong Accept", rpcInitialize, []string{"Accept", "text/html"}, 400, failure.CodeInvalidParameter, 0, nil},
		{"no Accept", rpcInitialize, []string{"Accept", ""}, 400, failure.CodeInvalidParameter, 0, nil},
		{"wrong Content-Type", rpcInitialize, []string{"Content-Type", "text/plain"}, 415, failure.CodeUnsupportedMediaType, 0, nil},
		{"unknown protocol version", rpcInitialize, []string{"MCP-Protocol-Version", "1999-01-01"}, 400, failure.CodeInvalidParameter, 0, nil},
		{"batch", "[" + rpcInitialize + "]", nil, 400, "", -32600, nil},
		{"empty body", "", nil, 400, "", -32700, nil},
		{"not JSON", `{"jsonrpc":`, nil, 400, "", -32700, nil},
		{"not JSON-RPC 2.0", `{"id":3,"method":"tools/list"}`, nil, 400, "", -32600, nil},
		{"method as a number", `{"jsonrpc":"2.0","id":3,"method":5}`, nil, 400, "", -32600, nil},
		{"unknown method", `{"jsonrpc":"2.0","id":9,"method":"no/such/method","params":{}}`, nil, 200, "", -32601, 9.0},
		{"unknown notification", `{"jsonrpc":"2.0","method":"notifications/no_such"}`, nil, 400, "", -32601, nil},
		{"tool name not a string", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":5}}`, nil, 200, "", -32602, 3.0},
		{"params an array", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":[]}`, nil, 200, "", -32602, 3.0},
		{"initialize params of the wrong types", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":5,"capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
			nil, 200, "", -32602, 1.0},
		{"unknown tool", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"nope"}}`, nil, 200, "", -32602, 3.0},
		{"request without id", `{"jsonrpc":"2.0","method":"tools/list"}`, nil, 400, "", -32600, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := ta.MCPPost(tc.body, tc.header...)
			if resp.StatusCode != tc.status {
				t.Errorf("status %d, want %d: %s", resp.StatusCode, tc.status, body)
			}
			if goTypeName.Match(body) {
				t.Errorf("the answer names Go types: %s", body)
			}
			if got := resp.Header.Get("RateLimit"); got == "" {
				t.Error("no RateLimit header, though the account is known")
			}
			if tc.code != "" {
				if resp.Header.Get("Content-Type") != "application/problem+json" {
					t.Fatalf("Content-Type %q: %s", resp.Header.Get("Content-Type"), body)
				}
				if p := apptest.Decode[problem.Problem](t, body); p.Code != tc.code || p.Status != tc.status {
					t.Errorf("problem %s, want %s", body, tc.code)
				}
				return
			}
			if resp.Header.Get("Content-Type") != "application/json" {
				t.Fatalf("Content-Type %q: %s", resp.Header.Get("Content-Type"), body)
			}
			a := apptest.Decode[rpcAnswer](t, body)
			if a.Error == nil || a.Error.Code != tc.rpcCode || a.Error.Message == "" || a.ID != tc.id {
				t.Errorf("JSON-RPC answer %s, want error %d with id %v", body, tc.rpcCode, tc.id)
			}
		})
	}
}

// The search body's decoding errors name no Go type either.
func TestSearchBodyErrorsNameNoGoType(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	for _, body := range []string{`[{"query":"x"}]`, `"robots"`, `42`, `true`} {
		resp, b := ta.SearchSignals(body)
		apptest.WantStatus(t, resp, b, http.StatusBadRequest)
		if p := apptest.Decode[problem.Problem](t, b); p.Code != failure.CodeInvalidJSON || goTypeName.MatchString(p.Detail) {
			t.Errorf("%s: %s", body, b)
		}
	}
}

// A client that disconnects is not a failure of the service: nothing is
// answered (nobody would read it) and nothing is logged as an error.
func TestClientGoneIsNotAnInternalError(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, method, path, body string
		accept                   string // "": as the API's clients send it
	}{
		{"list", http.MethodGet, "/api/v1/signals", "", ""},
		{"read one", http.MethodGet, "/api/v1/signals/mb-1", "", ""},
		{"search", http.MethodPost, "/api/v1/signals/search", `{"query":"robots"}`, ""},
		{"mcp", http.MethodPost, "/mcp", rpcListCall, ""},
		{"feed page", http.MethodGet, "/?q=robot", "", "text/html"},
		{"feed page in Markdown", http.MethodGet, "/?q=robot", "", "text/markdown"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var logs syncBuffer
			ta := apptest.StartWith(t, apptest.Config(t), slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
			ctx, cancel := context.WithCancel(context.Background())
			cancel() // the client went away before the service answered
			r, err := http.NewRequestWithContext(ctx, tc.method, tc.path, strings.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			r.Header.Set("Authorization", "Bearer "+ta.Key)
			r.Header.Set("Content-Type", "application/json")
			r.Header.Set("Accept", "application/json, text/event-stream")
			if tc.accept != "" {
				r.Header.Set("Accept", tc.accept)
			}
			w := &app.BufferedResponse{}
			ta.Handler().ServeHTTP(w, r)
			if status, body := w.Answered(); status != 0 {
				t.Errorf("answered %d %s to a client that is gone", status, body)
			}
			out := logs.String()
			if strings.Contains(out, `"level":"ERROR"`) {
				t.Errorf("a client that went away was logged as an error:\n%s", out)
			}
			if !strings.Contains(out, `"msg":"client gone"`) {
				t.Errorf("the outcome is not logged:\n%s", out)
			}
		})
	}
}

// serve runs the app as `signals serve` does, on a loopback port, and
// returns its address.
func serve(t testing.TB, ta *apptest.App) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ta.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	return ln.Addr().String()
}

// raw sends one request written by hand, as net/http's client would refuse
// to, and reads the answer.
func raw(t *testing.T, addr, request string) (*http.Response, []byte) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write([]byte(request)); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body json.RawMessage
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatalf("%d %s: body is not JSON: %v", resp.StatusCode, resp.Header.Get("Content-Type"), err)
	}
	return resp, body
}

// Requests that net/http refuses before any handler runs are answered with
// problem details too.
func TestUnparsableRequestsGetProblems(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	addr := serve(t, ta)
	for _, tc := range []struct {
		name, request string
		status        int
		code          failure.Code
		param         string
	}{
		{"bad escape in an id", "GET /api/v1/signals/%zz HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + ta.Key + "\r\n\r\n",
			400, failure.CodeInvalidParameter, "path"},
		{"no Host", "GET /api/v1/signals HTTP/1.1\r\n\r\n", 400, failure.CodeInvalidParameter, "Host"},
		{"bad header", "GET /api/v1/signals HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n", 400, failure.CodeInvalidParameter, "headers"},
		{"headers too large", "GET /api/v1/signals HTTP/1.1\r\nHost: x\r\nX-Big: " + strings.Repeat("a", 80<<10) + "\r\n\r\n",
			413, failure.CodePayloadTooLarge, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := raw(t, addr, tc.request)
			if resp.StatusCode != tc.status || resp.Header.Get("Content-Type") != "application/problem+json" {
				t.Fatalf("%d %s %s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
			}
			p := apptest.Decode[problem.Problem](t, body)
			if p.Code != tc.code || p.Param != tc.param || p.Status != tc.status || p.Detail == "" ||
				p.Type != "https://signals.example/developers/errors#"+string(tc.code) {
				t.Errorf("problem %s", body)
			}
			if id := resp.Header.Get("X-Request-Id"); !generatedRequestID.MatchString(id) {
				t.Errorf("X-Request-Id %q", id)
			}
		})
	}
	// The connections that parse keep being served.
	resp, body := raw(t, addr, "GET /api/v1/signals/nope HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "+ta.Key+"\r\n\r\n")
	if id := resp.Header.Get("X-Request-Id"); !generatedRequestID.MatchString(id) {
		t.Errorf("X-Request-Id %q", id)
	}
	if resp.StatusCode != http.StatusNotFound || apptest.Decode[problem.Problem](t, body).Code != failure.CodeNotFound {
		t.Errorf("a good request: %d %s", resp.StatusCode, body)
	}
}

// An id no public signal has is not_found over HTTP and MCP alike, each
// saying where good ids come from in its own terms.
func TestBadIDsAreNotFoundOverHTTPAndMCP(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	ta.Put(apptest.Fixtures()...)
	cs := ta.MCPSession("")
	for _, id := range []string{"", strings.Repeat("x", 257), "no-such-id", "hidden-5", "a\x00b"} {
		resp, httpBody := ta.Get("/api/v1/signals/" + url.PathEscape(id))
		apptest.WantStatus(t, resp, httpBody, http.StatusNotFound)
		hp := apptest.Decode[problem.Problem](t, httpBody)
		res, mcpBody := apptest.CallTool(t, cs, "get_signal", map[string]any{"id": id})
		mp := problemOf(t, res, mcpBody)
		if hp.Code != failure.CodeNotFound || mp["code"] != "not_found" || mp["status"] != 404.0 {
			t.Errorf("id %q: HTTP %s, MCP %s", id, httpBody, mcpBody)
		}
		if !strings.Contains(hp.Detail, "URL-encode") {
			t.Errorf("id %q: the HTTP detail does not say how ids go in a path: %s", id, hp.Detail)
		}
		if detail, _ := mp["detail"].(string); strings.Contains(detail, "path") || !strings.Contains(detail, "list_signals") {
			t.Errorf("id %q: the MCP detail does not fit MCP: %s", id, detail)
		}
	}
}

// A key sent without the Bearer scheme is a key in the wrong place, not a
// bad key: the answer says so, without repeating it.
func TestAuthorizationSchemeErrorsSayWhatIsWrong(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	for _, tc := range []struct {
		name, authorization, says string
	}{
		{"key alone", ta.Key, "without the Bearer scheme"},
		{"Basic", "Basic " + ta.Key, "uses the Basic scheme"},
		{"Basic user and password", "Basic Zm9vOmJhcg==", "uses the Basic scheme"},
		{"Token", "Token " + ta.Key, "uses the Token scheme"},
		{"Bearer alone", "Bearer", "carries no key"},
		{"key then more", ta.Key + " " + ta.Key, "not the Bearer scheme followed by an API key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := ta.Get("/api/v1/signals", "Authorization", tc.authorization)
			apptest.WantStatus(t, resp, body, http.StatusUnauthorized)
			p := apptest.Decode[problem.Problem](t, body)
			if p.Code != failure.CodeInvalidCredentials || !strings.Contains(p.Detail, tc.says) ||
				!strings.Contains(p.Detail, "Authorization: Bearer <API_KEY>") || strings.Contains(p.Detail, "revoked") {
				t.Errorf("detail %q, want it to say %q and how to send a key", p.Detail, tc.says)
			}
			if strings.Contains(string(body), ta.Key[4:]) {
				t.Errorf("the answer repeats the key: %s", body)
			}
			challenge := resp.Header.Get("WWW-Authenticate")
			if !strings.Contains(challenge, `error="invalid_token"`) || !strings.Contains(challenge, `error_description="`+p.Detail+`"`) {
				t.Errorf("WWW-Authenticate = %q", challenge)
			}

			resp, body = ta.MCPPost(rpcInitialize, "Authorization", tc.authorization)
			if resp.StatusCode != http.StatusUnauthorized || resp.Header.Get("WWW-Authenticate") == "" {
				t.Fatalf("MCP: %d %s", resp.StatusCode, body)
			}
			// The same words, then the way in that needs no key.
			if mp := apptest.Decode[problem.Problem](t, body); mp.Code != p.Code || !strings.HasPrefix(mp.Detail, p.Detail+"; ") ||
				!strings.HasSuffix(mp.Detail, ta.Config.BaseURL+"/.well-known/oauth-protected-resource/mcp") {
				t.Errorf("MCP says %s, HTTP %+v", body, p)
			}
		})
	}
}

// A body declared larger than the endpoint takes is refused at once, before
// it is read, and the request does not count.
func TestDeclaredBodyTooLargeIsRefusedAtOnce(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	addr := serve(t, ta)
	for _, path := range []string{"/api/v1/signals/search", "/mcp"} {
		t.Run(path, func(t *testing.T) {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			c.SetDeadline(time.Now().Add(5 * time.Second))
			body := `{"query":"x"}`
			fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\n"+
				"Accept: application/json, text/event-stream\r\nContent-Length: 99999999999\r\n\r\n%s", path, ta.Key, body)
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil {
				t.Fatalf("no answer within 5 s: %v", err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != http.StatusRequestEntityTooLarge || apptest.Decode[problem.Problem](t, b).Code != failure.CodePayloadTooLarge {
				t.Errorf("%d %s", resp.StatusCode, b)
			}
		})
	}
	acct, _ := ta.Store().AccountByEmail(context.Background(), "dev@example.com")
	if u, err := ta.Store().Usage(context.Background(), acct.ID, time.Now()); err != nil || u.DayUsed != 0 {
		t.Errorf("usage after refused bodies: %+v %v; a refused body does not count", u, err)
	}
}
