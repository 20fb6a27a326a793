package mcp_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"signals/internal/mcp"
	"signals/internal/model"
)

// TestToolsListSize measures the answer to tools/list as a client receives
// it over HTTP: every byte of it is read by an agent before its first call.
func TestToolsListSize(t *testing.T) {
	e := newEnv(t)
	req, err := http.NewRequest(http.MethodPost, e.srv.URL+mcp.Path, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+e.key)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var answer struct {
		Result struct {
			Tools []json.RawMessage `json:"tools"`
		} `json:"result"`
	}
	if err := json.Unmarshal(body, &answer); err != nil || len(answer.Result.Tools) != 3 {
		t.Fatalf("tools/list answered %d %s (%v)", resp.StatusCode, body, err)
	}
	const most = 8000 // 8 KB, counted as the smaller of its two readings
	t.Logf("tools/list is %d bytes", len(body))
	if len(body) > most {
		t.Errorf("tools/list is %d bytes, more than %d", len(body), most)
	}
	for _, name := range []string{"afghanistan", "zimbabwe", "GET /api"} {
		if strings.Contains(string(body), name) {
			t.Errorf("tools/list names %q", name)
		}
	}
}

// TestResources reads the resources that list the country and language
// keys, which the tool schemas name instead of listing them.
func TestResources(t *testing.T) {
	e := newEnv(t)
	cs := e.connect()
	list, err := cs.ListResources(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{"signals://countries": model.Countries, "signals://languages": model.Languages}
	if len(list.Resources) != len(want) {
		t.Errorf("%d resources, want %d", len(list.Resources), len(want))
	}
	for _, r := range list.Resources {
		values, ok := want[r.URI]
		if !ok || r.Name == "" || r.MIMEType != "application/json" {
			t.Errorf("resource %+v", r)
			continue
		}
		read, err := cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: r.URI})
		if err != nil {
			t.Fatalf("%s: %v", r.URI, err)
		}
		var got []string
		if len(read.Contents) != 1 || read.Contents[0].URI != r.URI || json.Unmarshal([]byte(read.Contents[0].Text), &got) != nil ||
			!slices.Equal(got, values) || r.Size != int64(len(read.Contents[0].Text)) {
			t.Errorf("%s: read %+v", r.URI, read.Contents)
		}
	}
	if _, err := cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: "signals://cities"}); err == nil {
		t.Error("an unknown resource was read")
	}
	if u := e.usage(); u.DayUsed != 0 {
		t.Errorf("listing and reading resources used %d requests", u.DayUsed)
	}
}

// TestRefusalNamesCloseValues checks that a value outside a filter's
// values is refused in a short problem that names the values closest to
// it and, for a long list, the resource that holds it rather than the list.
func TestRefusalNamesCloseValues(t *testing.T) {
	for _, tc := range []struct {
		name, tool string
		args       map[string]any
		param      string
		suggested  []string
		resource   string
	}{
		{"misspelt country", mcp.ListTool, map[string]any{"country": "frnace"}, "country", []string{"france"}, "signals://countries"},
		{"country in a search", mcp.SearchTool, map[string]any{"query": "robots", "country": []string{"canada", "usa"}}, "country",
			[]string{"united_states"}, "signals://countries"},
		{"beginning of a country", mcp.ListTool, map[string]any{"country": "united"}, "country",
			[]string{"united_arab_emirates", "united_kingdom", "united_states"}, "signals://countries"},
		{"long unknown country", mcp.ListTool, map[string]any{"country": strings.Repeat("atlantis ", 500)}, "country", nil, "signals://countries"},
		{"two countries", mcp.ListTool, map[string]any{"country": []string{"canada", "france"}}, "country", nil, "signals://countries"},
		{"country not a string", mcp.ListTool, map[string]any{"country": 7}, "country", nil, "signals://countries"},
		{"plural tag", mcp.SearchTool, map[string]any{"query": "robots", "tags": "jobs"}, "tags", []string{"job"}, ""},
		{"language by name", mcp.SearchTool, map[string]any{"query": "robots", "language": "english"}, "language", []string{"en"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			res := e.call(e.connect(), tc.tool, tc.args)
			text := res.Content[0].(*sdk.TextContent).Text
			if !res.IsError {
				t.Fatalf("succeeded: %s", text)
			}
			if len(text) > 1000 {
				t.Errorf("the refusal is %d bytes, more than 1000: %s", len(text), text)
			}
			var p struct {
				Status    int      `json:"status"`
				Code      string   `json:"code"`
				Param     string   `json:"param"`
				Detail    string   `json:"detail"`
				Suggested []string `json:"suggested_values"`
				Allowed   []string `json:"allowed_values"`
				Resource  string   `json:"allowed_values_resource"`
			}
			if err := json.Unmarshal([]byte(text), &p); err != nil {
				t.Fatal(err)
			}
			if p.Status != 400 || p.Code != "invalid_parameter" || p.Param != tc.param || !slices.Equal(p.Suggested, tc.suggested) {
				t.Errorf("problem %s, want %s with suggested_values %q", text, tc.param, tc.suggested)
			}
			for _, v := range tc.suggested {
				if !strings.Contains(p.Detail, v) {
					t.Errorf("the detail %q does not name %s", p.Detail, v)
				}
			}
			if tc.resource != "" && (p.Resource != tc.resource || p.Allowed != nil || !strings.Contains(p.Detail, tc.resource)) {
				t.Errorf("problem %s, want the resource %s in place of allowed_values", text, tc.resource)
			}
			if tc.resource == "" && (p.Resource != "" || len(p.Allowed) == 0) {
				t.Errorf("problem %s, want a short list in allowed_values", text)
			}
		})
	}
}
