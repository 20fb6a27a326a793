package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"signals/internal/apptest"
	"signals/internal/model"
	"signals/internal/problem"
	"signals/internal/store/storetest"
)

// An empty search says, over MCP through the SDK's client and over HTTP
// alike, what to try next: broader words, the filters that narrowed it by
// name, a listing with q, and whether it used one of the day's searches.
func TestEmptySearchLeadsOn(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	ta.Put(apptest.Fixtures()...)
	cs := ta.MCPSession("")
	args := map[string]any{"query": "underwater basket weaving championship", "tags": "funding", "country": []string{"canada"}}
	steps := func(b []byte) []string {
		var body struct {
			Matches   []any    `json:"matches"`
			NextSteps []string `json:"next_steps"`
		}
		if err := json.Unmarshal(b, &body); err != nil || len(body.Matches) != 0 {
			t.Fatalf("%s (%v)", b, err)
		}
		return body.NextSteps
	}
	res, b := apptest.CallTool(t, cs, "search_signals", args)
	if res.IsError {
		t.Fatalf("search_signals failed: %s", b)
	}
	got := strings.Join(steps(b), "\n")
	for _, want := range []string{"fewer or broader words", "tags (funding)", "country (canada)", "without them",
		"list_signals", "q", "used one of the day's searches; 9 searches remain today"} {
		if !strings.Contains(got, want) {
			t.Errorf("next_steps do not say %q:\n%s", want, got)
		}
	}

	// The same search again is answered from the cache, and says so.
	resp, body := ta.Do(http.MethodPost, "/api/v1/signals/search",
		strings.NewReader(`{"query":"underwater basket weaving championship","tags":["funding"],"country":"canada"}`),
		"Content-Type", "application/json")
	apptest.WantStatus(t, resp, body, http.StatusOK)
	if got := steps(body); !strings.Contains(got[len(got)-1], "came from the cache and used no search; 9 searches remain today") {
		t.Errorf("cached: %q", got)
	}

	// A search with matches has no next_steps.
	resp, body = ta.Do(http.MethodPost, "/api/v1/signals/search",
		strings.NewReader(`{"query":"seed round for a robotics startup"}`), "Content-Type", "application/json")
	apptest.WantStatus(t, resp, body, http.StatusOK)
	if strings.Contains(string(body), "next_steps") || !strings.Contains(string(body), `"mb-1"`) {
		t.Errorf("a search with a match: %s", body)
	}
}

// get_signal and GET /api/v1/signals/{id} take what people copy instead of
// an id: the signal's page address, its Markdown address, the id with
// spaces around it. Anything else is not_found naming the forms taken.
func TestGetTakesWhatPeopleCopy(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	ta.Put(apptest.Fixtures()...)
	cs := ta.MCPSession("")
	page := ta.Config.BaseURL + "/signals/" + url.PathEscape(apptest.OddID)
	for _, ref := range []string{apptest.OddID, page, page + ".md", page + "?from=%2F%3Ftags%3Devents", " " + apptest.OddID + "  ", "/signals/" + url.PathEscape(apptest.OddID)} {
		res, b := apptest.CallTool(t, cs, "get_signal", map[string]any{"id": ref})
		if res.IsError || !strings.Contains(string(b), `"id":`+jsonString(apptest.OddID)) {
			t.Errorf("get_signal(%q): %s", ref, b)
		}
		resp, body := ta.Get("/api/v1/signals/" + url.PathEscape(ref))
		apptest.WantStatus(t, resp, body, http.StatusOK)
	}
	for _, ref := range []string{"nope", "https://elsewhere.example/signals/tf-3", ta.Config.BaseURL + "/signals/hidden-5"} {
		res, b := apptest.CallTool(t, cs, "get_signal", map[string]any{"id": ref})
		p := problemOf(t, res, b)
		if p["code"] != "not_found" || !strings.Contains(p["detail"].(string), ta.Config.BaseURL+"/signals/{id}") ||
			!strings.Contains(p["detail"].(string), "list_signals") {
			t.Errorf("get_signal(%q): %s", ref, b)
		}
		resp, body := ta.Get("/api/v1/signals/" + url.PathEscape(ref))
		apptest.WantStatus(t, resp, body, http.StatusNotFound)
	}
}

// A refused filter value suggests the value it means, not only one spelled
// like it.
func TestRefusedValuesSuggestTheirMeaning(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	cs := ta.MCPSession("")
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"list_signals", map[string]any{"tags": "fundraising"}, "funding"},
		{"search_signals", map[string]any{"query": "robots", "tags": []string{"hiring"}}, "job"},
		{"list_signals", map[string]any{"language": "français"}, "fr"},
		{"search_signals", map[string]any{"query": "robots", "sources": "linkedin"}, "professional_network"},
	} {
		res, b := apptest.CallTool(t, cs, tc.tool, tc.args)
		p := problemOf(t, res, b)
		suggested, _ := p["suggested_values"].([]any)
		if p["code"] != "invalid_parameter" || len(suggested) == 0 || suggested[0] != tc.want ||
			!strings.Contains(p["detail"].(string), "did you mean "+tc.want) {
			t.Errorf("%s(%v): %s", tc.tool, tc.args, b)
		}
	}
	resp, body := ta.Get("/api/v1/signals?tags=raise")
	apptest.WantStatus(t, resp, body, http.StatusBadRequest)
	if p := apptest.Decode[problem.Problem](t, body); !slices.Equal(p.SuggestedValues, []string{"funding"}) {
		t.Errorf("tags=raise: %s", body)
	}
}

// A 401 says where a key is made and, on /mcp, where OAuth starts.
func TestUnauthorizedSaysWhereToGo(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	account := ta.Config.BaseURL + "/account"
	metadata := ta.Config.BaseURL + "/.well-known/oauth-protected-resource/mcp"
	for _, authorization := range []string{"", "Bearer sig_0123456789abcdef0123456789abcdef"} {
		resp, body := ta.Get("/api/v1/signals", "Authorization", authorization)
		apptest.WantStatus(t, resp, body, http.StatusUnauthorized)
		if p := apptest.Decode[problem.Problem](t, body); !strings.Contains(p.Detail, account) || strings.Contains(p.Detail, metadata) {
			t.Errorf("HTTP %q: %s", authorization, body)
		}
		resp, body = ta.MCPPost(rpcInitialize, "Authorization", authorization)
		if resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("MCP %q: %d %s", authorization, resp.StatusCode, body)
		}
		if p := apptest.Decode[problem.Problem](t, body); !strings.Contains(p.Detail, account) || !strings.Contains(p.Detail, metadata) {
			t.Errorf("MCP %q: %s", authorization, body)
		}
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// The SDK's client, connecting without a key, gets a 401 whose body says
// where a key is made and where OAuth starts (the client reports only
// the status, so the transport keeps the body).
func TestSDKClientSeesWhereToGo(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	rec := &bodyRecorder{}
	c := sdk.NewClient(&sdk.Implementation{Name: "signals-app-test", Version: "1"}, nil)
	_, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: ta.URL + "/mcp",
		HTTPClient: &http.Client{Transport: rec}}, nil)
	if err == nil || !strings.Contains(err.Error(), "Unauthorized") {
		t.Fatalf("connect without a key: %v", err)
	}
	if !strings.Contains(rec.body, ta.Config.BaseURL+"/account") || !strings.Contains(rec.body, "/.well-known/oauth-protected-resource/mcp") {
		t.Errorf("the 401 says %s", rec.body)
	}
}

// bodyRecorder is an HTTP transport that keeps the body of the last
// answer it carried.
type bodyRecorder struct{ body string }

func (b *bodyRecorder) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	raw, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	b.body = string(raw)
	resp.Body = io.NopCloser(bytes.NewReader(raw))
	return resp, err
}

// A signal's page has its Markdown at its path plus ".md", as the fixed
// pages do; an id that itself ends in ".md" keeps its page.
func TestSignalPageMarkdownAddress(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	ta.Put(apptest.Fixtures()...)
	ta.Put(storetest.Sig("notes.md", 9, func(s *model.Signal) {}))
	for _, tc := range []struct{ path, contentType, says string }{
		{"/signals/tf-3.md", "text/markdown; charset=utf-8", "tf-3"},
		{"/signals/" + url.PathEscape(apptest.OddID) + ".md", "text/markdown; charset=utf-8", "Meetup on agents"},
		{"/signals/notes.md", "text/html; charset=utf-8", "notes.md"},
		{"/signals/notes.md.md", "text/markdown; charset=utf-8", "notes.md"},
	} {
		resp, body := ta.Get(tc.path, "Authorization", "")
		apptest.WantStatus(t, resp, body, http.StatusOK)
		if resp.Header.Get("Content-Type") != tc.contentType || !strings.Contains(string(body), tc.says) {
			t.Errorf("%s: %s\n%s", tc.path, resp.Header.Get("Content-Type"), body)
		}
	}
	if resp, body := ta.Get("/signals/hidden-5.md", "Authorization", ""); resp.StatusCode != http.StatusNotFound {
		t.Errorf("a hidden signal's Markdown address: %d %s", resp.StatusCode, body)
	}
}

// The account page shows the account's role.
func TestAccountPageShowsTheRole(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	b := apptest.NewBrowser(ta)
	b.SignIn(t, "ed@example.org", "")
	if page := b.MustGet(t, "/account"); !strings.Contains(page, "Role: reader.") {
		t.Errorf("a reader's account page does not say so")
	}
	a, err := ta.Store().AccountByEmail(context.Background(), "ed@example.org")
	if err != nil {
		t.Fatal(err)
	}
	if err := ta.Store().SetRole(context.Background(), a.ID, model.RoleEditor); err != nil {
		t.Fatal(err)
	}
	if page := b.MustGet(t, "/account"); !strings.Contains(page, "Role: <strong>editor</strong>") {
		t.Errorf("an editor's account page does not say so")
	}
}
