package app_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"signals/internal/apptest"
	"signals/internal/failure"
	"signals/internal/model"
	"signals/internal/problem"
)

// TestUnknownParametersAreNamedInSortedOrder sends three unknown parameters
// many times: the problem must name the same one, the first in sorted order,
// every time (query strings are maps, so any other rule varies).
func TestUnknownParametersAreNamedInSortedOrder(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	if err := ta.Store().SetLimits(t.Context(), 1, model.Limits{DailyRequests: 1000, MinuteRequests: 1000, DailySearches: 10, ConcurrentSearches: 1}); err != nil {
		t.Fatal(err)
	}
	for i := range 40 {
		resp, body := ta.Get("/api/v1/signals?zeta=1&mu=2&alpha=3")
		apptest.WantStatus(t, resp, body, http.StatusBadRequest)
		if p := apptest.Decode[problem.Problem](t, body); p.Code != failure.CodeUnknownParameter || p.Param != "alpha" {
			t.Fatalf("attempt %d: problem %s %s, want unknown_parameter alpha", i, p.Code, p.Param)
		}
	}
	for _, tc := range []struct{ tool, args string }{
		{"list_signals", `{"zeta":1,"mu":2,"alpha":3}`},
		{"search_signals", `{"query":"x","zeta":1,"mu":2,"alpha":3}`},
	} {
		isError, p := ta.MCPCall(tc.tool, tc.args)
		if !isError || p["code"] != string(failure.CodeUnknownParameter) || p["param"] != "alpha" {
			t.Errorf("%s(%s) = %v, want unknown_parameter alpha", tc.tool, tc.args, p)
		}
	}
}

// TestJSONNamesAreExact: JSON member names match exactly, once. A name in
// another case is an unknown parameter, and a name given twice makes the
// object ambiguous, so it is not valid JSON for the service.
func TestJSONNamesAreExact(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	for _, tc := range []struct {
		name, body string
		code       failure.Code
		param      string
	}{
		{"upper_case", `{"QUERY":"robots"}`, failure.CodeUnknownParameter, "QUERY"},
		{"title_case", `{"query":"robots","Limit":2}`, failure.CodeUnknownParameter, "Limit"},
		{"duplicate", `{"query":"robots","query":"funding"}`, failure.CodeInvalidJSON, ""},
		{"duplicate_limit", `{"query":"robots","limit":2,"limit":3}`, failure.CodeInvalidJSON, ""},
	} {
		t.Run("http_"+tc.name, func(t *testing.T) {
			resp, body := ta.SearchSignals(tc.body)
			apptest.WantStatus(t, resp, body, http.StatusBadRequest)
			if p := apptest.Decode[problem.Problem](t, body); p.Code != tc.code || p.Param != tc.param {
				t.Errorf("problem %s %q, want %s %q\n%s", p.Code, p.Param, tc.code, tc.param, body)
			}
		})
		t.Run("mcp_"+tc.name, func(t *testing.T) {
			isError, p := ta.MCPCall("search_signals", tc.body)
			param, _ := p["param"].(string)
			if !isError || p["status"] != 400.0 || p["code"] != string(tc.code) || param != tc.param {
				t.Errorf("search_signals(%s) = %v, want 400 %s %q", tc.body, p, tc.code, tc.param)
			}
		})
	}
	isError, p := ta.MCPCall("list_signals", `{"page_size":2,"page_size":3}`)
	if !isError || p["code"] != string(failure.CodeInvalidJSON) {
		t.Errorf("list_signals with page_size twice = %v, want invalid_json", p)
	}
}

// TestWholeNumbersAreIntegers: JSON Schema counts 5.0 as an integer, so the
// service does too; 5.5 is still out of range.
func TestWholeNumbersAreIntegers(t *testing.T) {
	t.Parallel()
	ta, _ := apptest.StartAt(t, apptest.Noon)
	ta.Put(apptest.Fixtures()...)
	for _, limit := range []string{"5.0", "5.00", "5e0", "0.5e1"} {
		resp, body := ta.SearchSignals(`{"query":"seed round for a robotics startup","limit":` + limit + `}`)
		apptest.WantStatus(t, resp, body, http.StatusOK)
	}
	for _, limit := range []string{"5.5", "1e-1", "1e400"} {
		resp, body := ta.SearchSignals(`{"query":"x","limit":` + limit + `}`)
		apptest.WantStatus(t, resp, body, http.StatusBadRequest)
		p := apptest.Decode[problem.Problem](t, body)
		if p.Code != failure.CodeInvalidParameter || p.Param != "limit" || p.Minimum == nil || *p.Minimum != 1 || *p.Maximum != 50 {
			t.Errorf("limit %s: %s", limit, body)
		}
	}
	for _, args := range []string{`{"page":1.0}`, `{"page_size":2.0,"page":1e0}`} {
		if isError, p := ta.MCPCall("list_signals", args); isError {
			t.Errorf("list_signals(%s) = %v", args, p)
		}
	}
	if isError, p := ta.MCPCall("list_signals", `{"page_size":2.0}`); isError || len(p["signals"].([]any)) != 2 {
		t.Errorf("list_signals page_size 2.0 = %v", p)
	}
	if isError, p := ta.MCPCall("search_signals", `{"query":"seed round for a robotics startup","limit":1.0}`); isError {
		t.Errorf("search_signals limit 1.0 = %v", p)
	}
	isError, p := ta.MCPCall("list_signals", `{"page":1.5}`)
	if !isError || p["code"] != string(failure.CodeInvalidParameter) || p["param"] != "page" || p["minimum"] != 1.0 {
		t.Errorf("list_signals page 1.5 = %v", p)
	}
}

// initialAndActual matches a statement of initial limits followed, in the
// same sentence, by a pointer to the usage endpoint for the actual ones.
var initialAndActual = regexp.MustCompile(`(?is)initial[^.]*?limits[^.]*?(actual[^.]*?/api/v1/usage|/api/v1/usage[^.]*?actual)`)

// limitStatement matches a number of requests or searches per window.
var limitStatement = regexp.MustCompile(`[0-9][0-9,]* (per minute|per UTC day|fresh searches)`)

// TestLimitsAreCalledInitial: wherever the service states its account
// limits it says they are the initial ones and where to read the actual
// ones.
func TestLimitsAreCalledInitial(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	res, err := ta.MCPSession("2025-11-25").ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		// An MCP client cannot call the HTTP API: the descriptions point
		// to none of it.
		if strings.Contains(tool.Description, "/api/") {
			t.Errorf("%s: description points to the HTTP API:\n%s", tool.Name, tool.Description)
		}
		for _, limit := range limitStatement.FindAllStringIndex(tool.Description, -1) {
			if before := tool.Description[max(limit[0]-60, 0):limit[0]]; !strings.Contains(before, "initial") {
				t.Errorf("%s: %q is not called an initial limit:\n%s", tool.Name, tool.Description[limit[0]:limit[1]], tool.Description)
			}
		}
	}
	// The table of /developers states the initial limits the code gives.
	_, page := ta.Get("/developers", "Accept", "text/markdown")
	l := model.InitialLimits
	for _, n := range []int{l.DailyRequests, l.MinuteRequests, l.DailySearches, l.ConcurrentSearches} {
		if cell := "| " + thousands(n) + " |"; !strings.Contains(string(page), cell) {
			t.Errorf("/developers has no table cell %q: the initial limits are %+v", cell, l)
		}
	}
	for _, path := range []string{"/developers", "/llms.txt", "/.well-known/mcp.json", "/openapi.json"} {
		resp, body := ta.Get(path, "Accept", "text/markdown")
		apptest.WantStatus(t, resp, body, http.StatusOK)
		if !initialAndActual.Match(body) {
			t.Errorf("%s does not call the limits initial and point to /api/v1/usage for the actual ones", path)
		}
	}
}

// thousands writes n with comma thousands separators, as the pages do.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// TestMCPAndOpenAPIDescribeRequestsAlike: the input schema of each tool is
// the OpenAPI schema of the same request, both generated from one Go type,
// but for the long enumerations, which the tool schema gives as a pattern
// and a resource that lists them.
func TestMCPAndOpenAPIDescribeRequestsAlike(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	_, body := ta.Get("/openapi.json")
	var doc map[string]any
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatal(err)
	}
	schemas := doc["components"].(map[string]any)["schemas"].(map[string]any)
	res, err := ta.MCPSession("2025-11-25").ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		if tool.Name != "search_signals" {
			continue
		}
		got, _ := json.Marshal(tool.InputSchema)
		request := inlineRefs(schemas["SearchRequest"], schemas).(map[string]any)
		delete(request, "description")
		country := request["properties"].(map[string]any)["country"].(map[string]any)
		country["description"] = country["description"].(string) + " Listed at signals://countries."
		key := map[string]any{"type": "string", "pattern": "^[a-z]+(_[a-z]+)*$"}
		if c := schemas["Country"].(map[string]any); len(c["enum"].([]any)) != len(model.Countries) {
			t.Errorf("the OpenAPI Country lists %d keys, want %d", len(c["enum"].([]any)), len(model.Countries))
		}
		country["anyOf"] = []any{key, map[string]any{"type": "array", "items": key}}
		want, _ := json.Marshal(request)
		if !apptest.SameJSON(t, got, want) {
			t.Errorf("search_signals input schema\n%s\nis not the OpenAPI SearchRequest\n%s", got, want)
		}
	}
}

// inlineRefs replaces every $ref to a component schema with the component,
// keeping the referring schema's description.
func inlineRefs(v any, schemas map[string]any) any {
	switch v := v.(type) {
	case map[string]any:
		if ref, ok := v["$ref"].(string); ok {
			out := map[string]any{}
			for k, x := range inlineRefs(schemas[strings.TrimPrefix(ref, "#/components/schemas/")], schemas).(map[string]any) {
				out[k] = x
			}
			delete(out, "description")
			if d, ok := v["description"]; ok {
				out["description"] = d
			}
			return out
		}
		out := map[string]any{}
		for k, x := range v {
			out[k] = inlineRefs(x, schemas)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = inlineRefs(x, schemas)
		}
		return out
	}
	return v
}

// TestSearchQueryMustBeUnicodeText: a query holding bytes that are not
// UTF-8, a lone surrogate escape or NUL is refused over HTTP and MCP, never
// searched with U+FFFD in its place; the list's q is held to the same rule.
func TestSearchQueryMustBeUnicodeText(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	ta.Put(apptest.Fixtures()...)
	for _, tc := range []struct{ name, body string }{
		{"invalid_bytes", "{\"query\":\"robots \xff\xfe\"}"},
		{"lone_surrogate", `{"query":"robots \ud800"}`},
		{"lone_low_surrogate", `{"query":"\uDFFF"}`},
		{"nul", `{"query":"robots\u0000funding"}`},
	} {
		t.Run("http_"+tc.name, func(t *testing.T) {
			resp, body := ta.SearchSignals(tc.body)
			apptest.WantStatus(t, resp, body, http.StatusBadRequest)
			if p := apptest.Decode[problem.Problem](t, body); p.Code != failure.CodeInvalidParameter || p.Param != "query" {
				t.Errorf("problem %s %q, want invalid_parameter query\n%s", p.Code, p.Param, body)
			}
		})
		t.Run("mcp_"+tc.name, func(t *testing.T) {
			isError, p := ta.MCPCall("search_signals", tc.body)
			if !isError || p["status"] != 400.0 || p["code"] != string(failure.CodeInvalidParameter) || p["param"] != "query" {
				t.Errorf("search_signals(%q) = %v, want 400 invalid_parameter query", tc.body, p)
			}
		})
	}
	for _, args := range []string{"{\"q\":\"a\xff\"}", `{"q":"a\ud800"}`, `{"q":"a\u0000"}`} {
		isError, p := ta.MCPCall("list_signals", args)
		if !isError || p["code"] != string(failure.CodeInvalidParameter) || p["param"] != "q" {
			t.Errorf("list_signals(%q) = %v, want invalid_parameter q", args, p)
		}
	}
	// A surrogate pair is one character, and fine.
	resp, body := ta.SearchSignals(`{"query":"robots \ud83e\udd16"}`)
	apptest.WantStatus(t, resp, body, http.StatusOK)
}
