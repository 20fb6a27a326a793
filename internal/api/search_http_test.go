package api_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"signals/internal/apptest"
	"signals/internal/failure"
	"signals/internal/model"
	"signals/internal/problem"
	"signals/internal/reads"
)

func TestSearchValidation(t *testing.T) {
	t.Parallel()
	ta, _ := apptest.StartAt(t, apptest.Noon)
	emoji := strings.Repeat("🤖", 600) // 1,200 UTF-16 code units
	tests := []struct {
		name, body string
		status     int
		code       failure.Code
		param      string
	}{
		{"missing_query", `{}`, 400, failure.CodeMissingParameter, "query"},
		{"blank_query", `{"query":"  \n "}`, 400, failure.CodeInvalidParameter, "query"},
		{"query_1201_units", `{"query":"` + strings.Repeat("a", 1201) + `"}`, 400, failure.CodeInvalidParameter, "query"},
		{"query_emoji_over", `{"query":"` + emoji + `a"}`, 400, failure.CodeInvalidParameter, "query"},
		{"query_not_string", `{"query":42}`, 400, failure.CodeInvalidParameter, "query"},
		{"language_other", `{"query":"x","language":["other"]}`, 400, failure.CodeInvalidParameter, "language"},
		{"tags_a_number", `{"query":"x","tags":5}`, 400, failure.CodeInvalidParameter, "tags"},
		{"bad_tag_as_a_string", `{"query":"x","tags":"robots"}`, 400, failure.CodeInvalidParameter, "tags"},
		{"bad_tag", `{"query":"x","tags":["job","robots"]}`, 400, failure.CodeInvalidParameter, "tags"},
		{"bad_country", `{"query":"x","country":["atlantis"]}`, 400, failure.CodeInvalidParameter, "country"},
		{"limit_zero", `{"query":"x","limit":0}`, 400, failure.CodeInvalidParameter, "limit"},
		{"limit_51", `{"query":"x","limit":51}`, 400, failure.CodeInvalidParameter, "limit"},
		{"limit_fraction", `{"query":"x","limit":2.5}`, 400, failure.CodeInvalidParameter, "limit"},
		{"observed_after_bad", `{"query":"x","observed_after":"2026-10-01"}`, 400, failure.CodeInvalidParameter, "observed_after"},
		{"unknown_field", `{"query":"x","page":2}`, 400, failure.CodeUnknownParameter, "page"},
		{"not_json", `query=x`, 400, failure.CodeInvalidJSON, ""},
		{"two_objects", `{"query":"x"}{"query":"y"}`, 400, failure.CodeInvalidJSON, ""},
		{"array", `[{"query":"x"}]`, 400, failure.CodeInvalidJSON, ""},
		{"empty_body", ``, 400, failure.CodeInvalidJSON, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := ta.SearchSignals(tt.body)
			apptest.WantStatus(t, resp, body, tt.status)
			p := apptest.Decode[problem.Problem](t, body)
			if p.Code != tt.code || p.Param != tt.param {
				t.Errorf("problem = %s %s, want %s %s\n%s", p.Code, p.Param, tt.code, tt.param, body)
			}
			if p.Code == failure.CodeInvalidParameter && p.AllowedValues == nil && p.Minimum == nil && tt.param != "observed_after" {
				t.Errorf("no allowed values or range: %s", body)
			}
		})
	}
	t.Run("emoji_at_the_limit", func(t *testing.T) {
		resp, body := ta.SearchSignals(`{"query":"` + emoji + `"}`)
		apptest.WantStatus(t, resp, body, http.StatusOK)
	})
	t.Run("unsupported_media_type", func(t *testing.T) {
		resp, body := ta.SearchSignals(`{"query":"x"}`, "Content-Type", "text/plain")
		apptest.WantStatus(t, resp, body, http.StatusUnsupportedMediaType)
		resp, body = ta.SearchSignals(`{"query":"x"}`, "Content-Type", "")
		apptest.WantStatus(t, resp, body, http.StatusUnsupportedMediaType)
	})
	t.Run("payload_too_large", func(t *testing.T) {
		resp, body := ta.SearchSignals(`{"query":"x","tags":[` + strings.Repeat(`"job",`, 6000) + `"job"]}`)
		apptest.WantStatus(t, resp, body, http.StatusRequestEntityTooLarge)
		apptest.Golden(t, "error_payload_too_large", body)
	})
	// Invalid searches count as requests but consume no search.
	u, _ := ta.Store().Usage(context.Background(), 1, apptest.Noon)
	if u.SearchesUsed != 1 {
		t.Errorf("searches used = %d, want 1 (only the valid one)", u.SearchesUsed)
	}
}

func TestSearchAnswers(t *testing.T) {
	t.Parallel()
	ta, _ := apptest.StartAt(t, apptest.Noon)
	ta.Put(apptest.Fixtures()...)
	body := `{"query":"seed round for a robotics startup","limit":5}`
	resp, first := ta.SearchSignals(body)
	apptest.WantStatus(t, resp, first, http.StatusOK)
	// Relevance is the scorer's: the sentence model's answer has a golden
	// file of its own.
	name := "search_fresh"
	if apptest.Search().Provider == "onnx" {
		name += "_onnx"
	}
	apptest.Golden(t, name, first)
	r := apptest.Decode[reads.SearchResponse](t, first)
	if r.CacheHit || r.SearchesRemaining != 9 || r.SearchedAtAlias != r.SearchedAt || r.ExpiresAtAlias != r.ExpiresAt {
		t.Errorf("fresh answer: %+v", r)
	}
	for _, m := range r.Matches {
		if m.Relevance < 0.85 || len([]rune(m.Snippet)) > 280 {
			t.Errorf("match %s: relevance %v snippet %d", m.ID, m.Relevance, len([]rune(m.Snippet)))
		}
	}
	if strings.Contains(string(first), `"text"`) {
		t.Error("search matches carry the text")
	}
	resp, again := ta.SearchSignals(`{"query":"  seed round for a robotics   startup ","limit":5}`)
	apptest.WantStatus(t, resp, again, http.StatusOK)
	if r := apptest.Decode[reads.SearchResponse](t, again); !r.CacheHit || r.SearchesRemaining != 9 {
		t.Errorf("identical search: hit=%v remaining=%d", r.CacheHit, r.SearchesRemaining)
	}
	resp, b := ta.Do(http.MethodGet, "/api/v1/signals/search", nil)
	apptest.WantStatus(t, resp, b, http.StatusNotFound) // a signal whose id is "search"
	resp, b = ta.Do(http.MethodDelete, "/api/v1/signals/search", nil)
	apptest.WantStatus(t, resp, b, http.StatusMethodNotAllowed)
	if resp.Header.Get("Allow") != "GET, HEAD, POST" {
		t.Errorf("Allow = %q", resp.Header.Get("Allow"))
	}
}

// TestOneValueForAList: a filter that takes a list takes one value as a
// list of one, in the search body and in the arguments of the MCP tools
// (through the SDK's client over HTTP), as agents often write it.
func TestOneValueForAList(t *testing.T) {
	t.Parallel()
	ta, _ := apptest.StartAt(t, apptest.Noon)
	ta.Put(apptest.Fixtures()...)
	query := "hiring engineers in Paris"
	resp, one := ta.SearchSignals(`{"query":"` + query + `","country":"france","tags":"job","language":"fr"}`)
	apptest.WantStatus(t, resp, one, http.StatusOK)
	resp, many := ta.SearchSignals(`{"query":"` + query + `","country":["france"],"tags":["job"],"language":["fr"]}`)
	apptest.WantStatus(t, resp, many, http.StatusOK)
	if r := apptest.Decode[map[string]any](t, many); r["cache_hit"] != true {
		t.Errorf("the same search with arrays was not the cached one: %s", many)
	}

	cs := ta.MCPSession("")
	res, got := apptest.CallTool(t, cs, "search_signals", map[string]any{"query": query, "country": "france", "tags": "job", "language": "fr"})
	if r := apptest.Decode[map[string]any](t, got); res.IsError || r["cache_hit"] != true {
		t.Errorf("search_signals with one country: %s", got)
	}
	res, got = apptest.CallTool(t, cs, "list_signals", map[string]any{"country": "france", "sources": "professional_network"})
	_, want := ta.Get("/api/v1/signals?country=france&sources=professional_network")
	if res.IsError || !apptest.SameJSON(t, got, want) || !strings.Contains(string(got), `"country":"france"`) {
		t.Errorf("list_signals with one country:\n got %s\nwant %s", got, want)
	}

	// A misspelt country is refused naming the key it is close to: over
	// HTTP with every key in allowed_values, over MCP with the resource
	// that lists them.
	resp, body := ta.SearchSignals(`{"query":"x","country":"frnace"}`)
	apptest.WantStatus(t, resp, body, http.StatusBadRequest)
	if p := apptest.Decode[problem.Problem](t, body); p.Param != "country" || len(p.AllowedValues) != len(model.Countries) ||
		!slices.Equal(p.SuggestedValues, []string{"france"}) {
		t.Errorf("HTTP refusal of frnace: %s", body)
	}
	res, got = apptest.CallTool(t, cs, "search_signals", map[string]any{"query": "x", "country": "frnace"})
	if p := apptest.Decode[problem.Problem](t, got); !res.IsError || p.AllowedValues != nil || p.AllowedValuesResource != "signals://countries" ||
		!slices.Equal(p.SuggestedValues, []string{"france"}) || len(res.Content[0].(*sdk.TextContent).Text) > 1000 {
		t.Errorf("MCP refusal of frnace: %s", got)
	}
}
