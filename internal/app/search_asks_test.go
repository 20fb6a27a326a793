package app

import (
	"context"
	"io"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"signals/internal/api"
	"signals/internal/demo"
	"signals/internal/model"
)

// demoSearchApp is a test app holding the demo data, whose account may
// search more than the initial limits allow.
func demoSearchApp(t *testing.T) *testApp {
	t.Helper()
	ta := newTestApp(t)
	ctx := context.Background()
	if err := LoadDemo(ctx, ta.Store(), demo.Records(), io.Discard, slog.New(slog.NewTextHandler(io.Discard, nil))); err != nil {
		t.Fatal(err)
	}
	if err := ta.Store().SetLimits(ctx, 1, model.Limits{DailyRequests: 1000, MinuteRequests: 100, DailySearches: 50, ConcurrentSearches: 1}); err != nil {
		t.Fatal(err)
	}
	return ta
}

func matchIDs(ms []api.SearchMatch) []string {
	var ids []string
	for _, m := range ms {
		ids = append(ids, m.ID)
	}
	return ids
}

// TestSearchReadsWhatTheQueryAsks runs the searches of issue 17 on the demo
// data through the real service, over HTTP and MCP: what a query asks for
// (a kind of signal, a place) decides what matches, and each match says why.
func TestSearchReadsWhatTheQueryAsks(t *testing.T) {
	ta := demoSearchApp(t)
	search := func(query string) api.SearchResponse {
		t.Helper()
		resp, body := ta.search(`{"query":"` + query + `","limit":50}`)
		wantStatus(t, resp, body, 200)
		return decode[api.SearchResponse](t, body)
	}
	const dakar = "pn-2026-10-0078" // an AI week in Dakar, close in words to any AI event

	t.Run("events in a city", func(t *testing.T) {
		got := search("AI conferences and meetups in Paris")
		ids := matchIDs(got.Matches)
		slices.Sort(ids)
		want := []string{"mb-2026-10-0015", "pn-2026-10-0037", "pn-2026-10-0115"}
		if !slices.Equal(ids, want) {
			t.Errorf("matches %v, want the three Paris events %v (not Dakar, Lyon or Dijon)", ids, want)
		}
		for _, m := range got.Matches {
			if !slices.Contains(m.Matched, "tag:events") || !slices.Contains(m.Matched, "country:france") {
				t.Errorf("%s matched %q, want tag:events and country:france", m.ID, m.Matched)
			}
		}
	})
	t.Run("a kind in everyday words", func(t *testing.T) {
		got := search("criticism of AI coding tools")
		ids := matchIDs(got.Matches)
		if !slices.Contains(ids, "pn-2026-10-0001") {
			t.Errorf("matches %v, want pn-2026-10-0001 (a measured look at coding assistants)", ids)
		}
		for _, m := range got.Matches {
			if m.Tag != "product_feedback" || m.ID == dakar {
				t.Errorf("%s (%s) matches criticism of coding tools", m.ID, m.Tag)
			}
		}
		for _, m := range got.Matches {
			if !slices.Contains(m.Matched, "tag:product_feedback") || !slices.Contains(m.Matched, "coding") {
				t.Errorf("%s matched %q, want tag:product_feedback and coding", m.ID, m.Matched)
			}
		}
	})
	t.Run("a kind and a place only", func(t *testing.T) {
		got := search("LLM jobs in Canada")
		ids := matchIDs(got.Matches)
		slices.Sort(ids)
		if want := []string{"pn-2026-09-0020", "pn-2026-09-0039"}; !slices.Equal(ids, want) {
			t.Errorf("matches %v, want the job signals from Canada %v", ids, want)
		}
		got = search("who is hiring in Europe")
		if len(got.Matches) < 10 {
			t.Errorf("%d matches, want the job signals from Europe", len(got.Matches))
		}
		for _, m := range got.Matches {
			// A signal without a country answers when its text names a
			// European place (Narvik, Norway).
			if m.Tag != "job" || m.Country == nil && !strings.Contains(m.Snippet, "Norway") ||
				m.Country != nil && slices.Contains([]string{"united_states", "canada", "india", "japan"}, *m.Country) {
				t.Errorf("%s (%s, %v) answers who is hiring in Europe", m.ID, m.Tag, m.Country)
			}
		}
	})
	t.Run("off topic", func(t *testing.T) {
		if got := search("best restaurants in Lisbon"); len(got.Matches) != 0 {
			t.Errorf("matches %v for a query about nothing in the window", matchIDs(got.Matches))
		}
	})
	t.Run("MCP", func(t *testing.T) {
		res, body := callTool(t, ta.mcpSession(""), "search_signals", map[string]any{"query": "AI conferences and meetups in Paris", "limit": 50})
		if res.IsError {
			t.Fatalf("search_signals: %s", body)
		}
		got := decode[api.SearchResponse](t, body)
		if ids := matchIDs(got.Matches); len(ids) != 3 || slices.Contains(ids, dakar) || !strings.Contains(string(body), `"country:france"`) {
			t.Errorf("search_signals: %s", body)
		}
	})
}
