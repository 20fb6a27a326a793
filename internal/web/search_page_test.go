package web_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"signals/internal/apptest"
	"signals/internal/model"
	"signals/internal/reads"
)

// usageNow reads the account's usage through the API (which counts the
// read as a request, as the contract says).
func usageNow(t *testing.T, ta *apptest.App) reads.UsageResponse {
	t.Helper()
	resp, body := ta.Get("/api/v1/usage")
	apptest.WantStatus(t, resp, body, http.StatusOK)
	return apptest.Decode[reads.UsageResponse](t, body)
}

// searchPage opens /search?query=q (and more parameters) in b.
func searchPage(t *testing.T, b *apptest.Browser, query string, more url.Values, header ...string) (*http.Response, string) {
	t.Helper()
	v := url.Values{"query": {query}}
	for name, values := range more {
		v[name] = values
	}
	return b.Get("/search?"+v.Encode(), header...)
}

// TestSearchPageSharesTheAPIsSearches runs a semantic search from the
// website and another from the API: both spend from one daily count, and
// the same search repeated, from either, is a cache hit that costs nothing.
func TestSearchPageSharesTheAPIsSearches(t *testing.T) {
	t.Parallel()
	ta, _ := apptest.StartAt(t, apptest.Noon)
	ta.Put(apptest.Fixtures()...)
	b := apptest.SignedIn(t, ta)
	if u := usageNow(t, ta); u.DailySearches.Used != 0 || u.DailyRequests.Used != 1 {
		t.Fatalf("before: %+v", u)
	}

	resp, page := searchPage(t, b, "seed round for a robotics startup", nil)
	apptest.WantPage(t, resp, page, http.StatusOK)
	if !regexp.MustCompile(`<span class="relevance">Relevance (0\.(8[5-9]|9[0-9])|1\.00)</span>`).MatchString(page) {
		t.Errorf("the page shows no relevance at or above the cutoff:\n%s", page)
	}
	for _, want := range []string{"Matched ", `href="/signals/mb-1"`, "9 searches left today (of 10)",
		"they come back at 00:00 UTC, in 12 hours"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q:\n%s", want, page)
		}
	}
	if strings.Contains(page, "From the cache") {
		t.Error("a fresh search says it came from the cache")
	}
	// The page spends a search, not a request: requests are the API's and
	// MCP's (docs/mcp.md).
	if u := usageNow(t, ta); u.DailySearches.Used != 1 || u.DailyRequests.Used != 2 {
		t.Errorf("after the page's search: searches %+v, requests %+v", u.DailySearches, u.DailyRequests)
	}

	resp, body := ta.SearchSignals(`{"query":"a French company hiring a machine learning engineer"}`)
	apptest.WantStatus(t, resp, body, http.StatusOK)
	if r := apptest.Decode[reads.SearchResponse](t, body); r.CacheHit || r.SearchesRemaining != 8 {
		t.Errorf("API search: cache_hit %v, searches_remaining %d", r.CacheHit, r.SearchesRemaining)
	}
	if u := usageNow(t, ta); u.DailySearches.Used != 2 {
		t.Errorf("after the API's search: %+v", u.DailySearches)
	}

	// The page's search again, written differently, and the API's search
	// from the page: both answer from the cache, and cost nothing.
	for _, query := range []string{"  seed round  for a robotics startup ", "a French company hiring a machine learning engineer"} {
		resp, page = searchPage(t, b, query, nil)
		apptest.WantPage(t, resp, page, http.StatusOK)
		for _, want := range []string{"From the cache", "cost nothing", "8 searches left today (of 10)"} {
			if !strings.Contains(page, want) {
				t.Errorf("%q again: the page lacks %q:\n%s", query, want, page)
			}
		}
	}
	resp, body = ta.SearchSignals(`{"query":"seed round for a robotics startup"}`)
	apptest.WantStatus(t, resp, body, http.StatusOK)
	if r := apptest.Decode[reads.SearchResponse](t, body); !r.CacheHit || r.SearchesRemaining != 8 {
		t.Errorf("the page's search from the API: cache_hit %v, searches_remaining %d", r.CacheHit, r.SearchesRemaining)
	}
	if u := usageNow(t, ta); u.DailySearches.Used != 2 {
		t.Errorf("after cache hits: %+v", u.DailySearches)
	}
}

// TestSearchPageRunsNoSearchUnasked: a visitor who is not signed in is
// told what the search does and how to sign in; a prefetch and a HEAD run
// nothing; the page is never kept by a cache nor given as Markdown.
func TestSearchPageRunsNoSearchUnasked(t *testing.T) {
	t.Parallel()
	ta, _ := apptest.StartAt(t, apptest.Noon)
	ta.Put(apptest.Fixtures()...)

	visitor := apptest.NewBrowser(ta)
	resp, page := visitor.Get("/search?query=robotics+funding&tags=funding&utm_source=newsletter")
	apptest.WantPage(t, resp, page, http.StatusOK)
	signIn := `href="/sign-in?next=` + strings.ReplaceAll(url.QueryEscape("/search?query=robotics+funding&tags=funding"), "&", "&amp;") + `"`
	for _, want := range []string{signIn, "Sign in to search for “robotics funding”", "10 searches a day", "Within kind Funding",
		`<meta name="robots" content="noindex">`} {
		if !strings.Contains(page, want) {
			t.Errorf("the signed-out page lacks %s:\n%s", want, page)
		}
	}
	if strings.Contains(page, "Relevance") {
		t.Error("a visitor's page shows matches")
	}
	resp, page = visitor.Get("/search")
	apptest.WantPage(t, resp, page, http.StatusOK)
	if !strings.Contains(page, `href="/sign-in?next=%2Fsearch"`) {
		t.Errorf("the bare page has no sign-in link:\n%s", page)
	}

	b := apptest.SignedIn(t, ta)
	for _, h := range [][]string{{"Sec-Purpose", "prefetch"}, {"Purpose", "prefetch"}, {"Sec-Purpose", "prefetch;prerender"}} {
		resp, page = searchPage(t, b, "robotics funding", nil, h...)
		apptest.WantPage(t, resp, page, http.StatusServiceUnavailable)
		if !strings.Contains(page, "a search runs only when you open it") || strings.Contains(page, "Relevance") {
			t.Errorf("%s: %s", h, page)
		}
	}
	resp, page = b.Do(http.MethodHead, "/search?query=robotics+funding", nil)
	apptest.WantPage(t, resp, page, http.StatusOK)
	if page != "" {
		t.Errorf("HEAD has a body: %s", page)
	}
	resp, page = searchPage(t, b, "", nil, "Accept", "text/markdown")
	apptest.WantPage(t, resp, page, http.StatusBadRequest) // HTML: a personal page is never Markdown
	if !strings.Contains(page, "Write what you are looking for") {
		t.Errorf("Markdown asked, empty query:\n%s", page)
	}
	if u := usageNow(t, ta); u.DailySearches.Used != 0 {
		t.Errorf("searches ran: %+v", u.DailySearches)
	}
	// The bare page, signed in, shows the form and what is left.
	resp, page = b.Get("/search")
	apptest.WantPage(t, resp, page, http.StatusOK)
	if !strings.Contains(page, `name="query"`) || !strings.Contains(page, "10 searches left today") {
		t.Errorf("the bare page:\n%s", page)
	}
}

// TestSearchPageRefusalsInWords: a spent allowance, and values no search
// takes, read as sentences a person can act on, never as error codes.
func TestSearchPageRefusalsInWords(t *testing.T) {
	t.Parallel()
	ta, _ := apptest.StartAt(t, apptest.Noon)
	ta.Put(apptest.Fixtures()...)
	if err := ta.Store().SetLimits(context.Background(), 1, model.Limits{DailyRequests: 1000, MinuteRequests: 100,
		DailySearches: 2, ConcurrentSearches: 1}); err != nil {
		t.Fatal(err)
	}
	b := apptest.SignedIn(t, ta)
	for _, tt := range []struct {
		name   string
		query  string
		more   url.Values
		want   []string
		status int
	}{
		{"empty", "   ", nil, []string{"Write what you are looking for"}, http.StatusBadRequest},
		{"too long", strings.Repeat("é", 1201), nil, []string{"Your search is 1,201 characters long; a search reads at most 1,200."}, http.StatusBadRequest},
		{"country", "robots", url.Values{"country": {"atlantis"}}, []string{"“atlantis” is not a country",
			`<a href="/search?query=robots">Search every country</a>`}, http.StatusBadRequest},
		{"kind", "robots", url.Values{"tags": {"funding,robots"}}, []string{"“robots” is not a kind of signal. The kinds are Job, Funding,"},
			http.StatusBadRequest},
		{"language", "robots", url.Values{"language": {"other"}}, []string{"signals in other languages can be browsed on the feed, not searched"},
			http.StatusBadRequest},
		{"date", "robots", url.Values{"observed_after": {"yesterday"}}, []string{"“yesterday” is not a date and time"},
			http.StatusBadRequest},
		{"first", "seed round for a robotics startup", nil, []string{"1 search left today (of 2)"}, http.StatusOK},
		{"second", "a French company hiring a machine learning engineer", url.Values{"language": {"fr"}, "fbclid": {"x"}},
			[]string{"No searches left today (of 2)", "Within language French"}, http.StatusOK},
		{"spent", "launch notes", nil, []string{"You have used your 2 searches for today. They come back at 00:00 UTC, in 12 hours."},
			http.StatusTooManyRequests},
		{"cached still", "seed round for a robotics startup", nil, []string{"From the cache"}, http.StatusOK},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp, page := searchPage(t, b, tt.query, tt.more)
			apptest.WantPage(t, resp, page, tt.status)
			for _, want := range tt.want {
				if !strings.Contains(page, want) {
					t.Errorf("the page lacks %q:\n%s", want, page)
				}
			}
			for _, code := range []string{"invalid_parameter", "search_limit_reached", "allowed_values", "(code"} {
				if strings.Contains(page, code) {
					t.Errorf("the page speaks API: %q", code)
				}
			}
		})
	}
	resp, _ := searchPage(t, b, "another one", nil)
	if got := resp.Header.Get("Retry-After"); got != "43185" {
		t.Errorf("Retry-After = %q, want the seconds to midnight", got)
	}
	if u := usageNow(t, ta); u.DailySearches.Used != 2 {
		t.Errorf("searches %+v", u.DailySearches)
	}
}

// TestFeedHasASearchBox: the feed's search box leads to /search with the
// feed's filters and words.
func TestFeedHasASearchBox(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	ta.Put(apptest.Fixtures()...)
	resp, body := ta.Get("/?tags=funding&q=robotics", "Authorization", "")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", resp.StatusCode)
	}
	page := string(body)
	for _, want := range []string{`<form class="search-box" method="get" action="/search" role="search"`,
		`name="query" value="robotics"`, `<input type="hidden" name="tags" value="funding">`} {
		if !strings.Contains(page, want) {
			t.Errorf("the feed lacks %s", want)
		}
	}
}
