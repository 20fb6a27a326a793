package app

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"signals/internal/api"
	"signals/internal/failure"
	"signals/internal/problem"
)

func (ta *testApp) search(body string, header ...string) (*http.Response, []byte) {
	ta.t.Helper()
	h := append([]string{"Content-Type", "application/json"}, header...)
	return ta.do(http.MethodPost, "/api/v1/signals/search", strings.NewReader(body), h...)
}

func TestSearchValidation(t *testing.T) {
	ta, _ := newClockApp(t, noon)
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
		{"tags_not_array", `{"query":"x","tags":"job"}`, 400, failure.CodeInvalidParameter, "tags"},
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
			resp, body := ta.search(tt.body)
			wantStatus(t, resp, body, tt.status)
			p := decode[problem.Problem](t, body)
			if p.Code != tt.code || p.Param != tt.param {
				t.Errorf("problem = %s %s, want %s %s\n%s", p.Code, p.Param, tt.code, tt.param, body)
			}
			if p.Code == failure.CodeInvalidParameter && p.AllowedValues == nil && p.Minimum == nil && tt.param != "observed_after" {
				t.Errorf("no allowed values or range: %s", body)
			}
		})
	}
	t.Run("emoji_at_the_limit", func(t *testing.T) {
		resp, body := ta.search(`{"query":"` + emoji + `"}`)
		wantStatus(t, resp, body, http.StatusOK)
	})
	t.Run("unsupported_media_type", func(t *testing.T) {
		resp, body := ta.search(`{"query":"x"}`, "Content-Type", "text/plain")
		wantStatus(t, resp, body, http.StatusUnsupportedMediaType)
		resp, body = ta.search(`{"query":"x"}`, "Content-Type", "")
		wantStatus(t, resp, body, http.StatusUnsupportedMediaType)
	})
	t.Run("payload_too_large", func(t *testing.T) {
		resp, body := ta.search(`{"query":"x","tags":[` + strings.Repeat(`"job",`, 6000) + `"job"]}`)
		wantStatus(t, resp, body, http.StatusRequestEntityTooLarge)
		golden(t, "error_payload_too_large", body)
	})
	// Invalid searches count as requests but consume no search.
	u, _ := ta.Store().Usage(context.Background(), 1, noon)
	if u.SearchesUsed != 1 {
		t.Errorf("searches used = %d, want 1 (only the valid one)", u.SearchesUsed)
	}
}

func TestSearchAnswers(t *testing.T) {
	ta, _ := newClockApp(t, noon)
	ta.put(fixtures()...)
	body := `{"query":"seed round for a robotics startup","limit":5}`
	resp, first := ta.search(body)
	wantStatus(t, resp, first, http.StatusOK)
	golden(t, "search_fresh", first)
	r := decode[api.SearchResponse](t, first)
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
	resp, again := ta.search(`{"query":"  seed round for a robotics   startup ","limit":5}`)
	wantStatus(t, resp, again, http.StatusOK)
	if r := decode[api.SearchResponse](t, again); !r.CacheHit || r.SearchesRemaining != 9 {
		t.Errorf("identical search: hit=%v remaining=%d", r.CacheHit, r.SearchesRemaining)
	}
	resp, b := ta.do(http.MethodGet, "/api/v1/signals/search", nil)
	wantStatus(t, resp, b, http.StatusNotFound) // a signal whose id is "search"
	resp, b = ta.do(http.MethodDelete, "/api/v1/signals/search", nil)
	wantStatus(t, resp, b, http.StatusMethodNotAllowed)
	if resp.Header.Get("Allow") != "GET, HEAD, POST" {
		t.Errorf("Allow = %q", resp.Header.Get("Allow"))
	}
}
