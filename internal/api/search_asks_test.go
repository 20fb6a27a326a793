package api_test

import (
	"context"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"

	"signals/internal/app"
	"signals/internal/apptest"
	"signals/internal/demo"
	"signals/internal/model"
	"signals/internal/reads"
)

// demoSearchApp is a test app holding the demo data, whose account may
// search more than the initial limits allow.
func demoSearchApp(t *testing.T) *apptest.App {
	t.Helper()
	ta := apptest.Start(t)
	ctx := context.Background()
	if err := app.LoadDemo(ctx, ta.Store(), demo.Records(), io.Discard, "signals", apptest.Discard()); err != nil {
		t.Fatal(err)
	}
	if err := ta.Store().SetLimits(ctx, 1, model.Limits{DailyRequests: 1000, MinuteRequests: 100, DailySearches: 50, ConcurrentSearches: 1}); err != nil {
		t.Fatal(err)
	}
	return ta
}

func matchIDs(ms []reads.SearchMatch) []string {
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
	t.Parallel()
	ta := demoSearchApp(t)
	search := func(query string) reads.SearchResponse {
		t.Helper()
		resp, body := ta.SearchSignals(`{"query":"` + query + `","limit":50}`)
		apptest.WantStatus(t, resp, body, 200)
		return apptest.Decode[reads.SearchResponse](t, body)
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
		res, body := apptest.CallTool(t, ta.MCPSession(""), "search_signals", map[string]any{"query": "AI conferences and meetups in Paris", "limit": 50})
		if res.IsError {
			t.Fatalf("search_signals: %s", body)
		}
		got := apptest.Decode[reads.SearchResponse](t, body)
		if ids := matchIDs(got.Matches); len(ids) != 3 || slices.Contains(ids, dakar) || !strings.Contains(string(body), `"country:france"`) {
			t.Errorf("search_signals: %s", body)
		}
	})
}

// TestSearchAnswersQuestions runs questions as people and agents ask them
// through the real service, over HTTP and MCP, with the builtin scorer and
// with the sentence model: the framing of a question counts against no
// match, a kind word in a subject asks for no kind,
// places joined by "and", amounts of money, and names in every language.
// Still missed: "offres d'emploi en robotique en France" (its one answer
// scores 0.84), "software that writes the doctor's notes during a
// consultation" (0.80) and "photograph a shop shelf to know what to
// reorder" (0.49), though each ranks its answer first.
func TestSearchAnswersQuestions(t *testing.T) {
	t.Parallel()
	ta := demoSearchApp(t)
	const (
		kinemo12M = "pn_d4abd660efcd" // Kinemo Robotique raises €12M
		sauti     = "pn-2026-09-0042" // Sauti Labs raises $4.5M
		bordeaux  = "pn-2026-10-0022" // six months of mobile robots in a warehouse near Bordeaux
	)
	mcp := ta.MCPSession("")
	search := func(t *testing.T, query string) []reads.SearchMatch {
		t.Helper()
		resp, body := ta.SearchSignals(`{"query":` + strconv.Quote(query) + `,"limit":50}`)
		apptest.WantStatus(t, resp, body, 200)
		http := apptest.Decode[reads.SearchResponse](t, body)
		res, body := apptest.CallTool(t, mcp, "search_signals", map[string]any{"query": query, "limit": 50})
		if res.IsError {
			t.Fatalf("search_signals %q: %s", query, body)
		}
		if over := apptest.Decode[reads.SearchResponse](t, body); !slices.Equal(matchIDs(over.Matches), matchIDs(http.Matches)) {
			t.Errorf("%q: MCP matches %v, HTTP %v", query, matchIDs(over.Matches), matchIDs(http.Matches))
		}
		return http.Matches
	}
	each := func(t *testing.T, ms []reads.SearchMatch, atLeast int, ok func(reads.SearchMatch) bool) {
		t.Helper()
		if len(ms) < atLeast {
			t.Errorf("%d matches %v, want at least %d", len(ms), matchIDs(ms), atLeast)
		}
		for _, m := range ms {
			if !ok(m) {
				t.Errorf("%s (%s, %v) matches: %.80q", m.ID, m.Tag, m.Country, m.Snippet)
			}
		}
	}
	mentions := func(words ...string) func(reads.SearchMatch) bool {
		return func(m reads.SearchMatch) bool {
			for _, w := range words {
				if strings.Contains(strings.ToLower(m.Snippet), w) {
					return true
				}
			}
			return false
		}
	}
	t.Run("the framing of a question", func(t *testing.T) {
		each(t, search(t, "who is criticising AI coding assistants"), 3, func(m reads.SearchMatch) bool {
			return m.Tag == "product_feedback" && mentions("coding assistant", "assistant de code")(m)
		})
		each(t, search(t, "how are companies preparing for the EU AI Act"), 3, mentions("ai act"))
		// An assistant answering customers is such a chatbot, by any name.
		each(t, search(t, "lessons learned running AI customer service chatbots"), 1, mentions("chatbot", "customer service"))
	})
	t.Run("a law by its short name", func(t *testing.T) {
		atLeast := 3
		if apptest.Search().Provider == "onnx" {
			// The model ranks two of the posts on the Act above the cutoff
			// (docs/search.md, "Choosing the model").
			atLeast = 2
		}
		each(t, search(t, "AI Act"), atLeast, mentions("ai act"))
	})
	t.Run("a kind word in a subject", func(t *testing.T) {
		each(t, search(t, "will automation take people's jobs away"), 0, func(m reads.SearchMatch) bool {
			return !slices.Contains(m.Matched, "tag:job")
		})
		ms := search(t, "retours d'expérience sur les robots dans les entrepôts")
		each(t, ms, 1, mentions("robot", "amr"))
		if !slices.Contains(matchIDs(ms), bordeaux) {
			t.Errorf("matches %v, want %s", matchIDs(ms), bordeaux)
		}
	})
	t.Run("physical AI", func(t *testing.T) {
		each(t, search(t, "warehouse robots"), 5, mentions("warehouse", "entrepôt", "amr", "fulfilment"))
		each(t, search(t, "physical AI"), 20, func(m reads.SearchMatch) bool { return m.Tag == "physical_ai" })
	})
	t.Run("places joined by and", func(t *testing.T) {
		each(t, search(t, "warehouse robots in Spain and Mexico"), 1, func(m reads.SearchMatch) bool {
			return m.Country != nil && (*m.Country == "mexico" || *m.Country == "spain")
		})
	})
	t.Run("an amount", func(t *testing.T) {
		ms := search(t, "funding rounds of more than $50M")
		each(t, ms, 3, func(m reads.SearchMatch) bool { return m.Tag == "funding" && m.ID != kinemo12M && m.ID != sauti })
	})
	t.Run("a name in every language", func(t *testing.T) {
		ms := search(t, "Parla speech recognition")
		each(t, ms, 2, mentions("parla"))
		french := 0
		for _, m := range ms {
			if m.Language == "fr" {
				french++
			}
		}
		if french < 2 {
			t.Errorf("%d French matches of %v, want the French Parla signals too", french, matchIDs(ms))
		}
	})
}
