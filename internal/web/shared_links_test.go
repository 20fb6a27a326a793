package web_test

import (
	"encoding/json"
	"html"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"signals/internal/apptest"
	"signals/internal/failure"
	"signals/internal/problem"
)

// tracking is what newsletters, social networks and link shorteners add to
// shared links.
const tracking = "utm_source=newsletter&utm_medium=email&fbclid=IwAR123&gclid=abc&ref=hn&unknown=1"

// withTracking adds the tracking parameters to a path, after its own.
func withTracking(path string) string {
	if strings.Contains(path, "?") {
		return path + "&" + tracking
	}
	return path + "?" + tracking
}

// Every public page and feed reads only the parameters it uses: a shared
// link with tracking parameters is a 200, and the canonical link (in HTML
// the link element, in Markdown the Link header, in a feed its self link)
// names the clean address, with only the used parameters, their
// non-default values, in a fixed order. The JSON API stays strict.
func TestSharedLinksIgnoreUnusedParameters(t *testing.T) {
	t.Parallel()
	ta := apptest.StartSite(t)
	base := ta.Config.BaseURL
	pages := []struct{ path, canonical string }{
		{"/", "/"},
		{"/?country=france&tags=job&page_size=20&page=1", "/?tags=job&country=france"},
		{"/?ref=hn&page_size=2&tags=job,funding", "/?tags=funding,job&page_size=2"},
		{"/hubs", "/hubs"},
		{"/hubs/jobs", "/hubs/jobs"},
		{"/hubs/jobs?page=1&page_size=5", "/hubs/jobs?page_size=5"},
		{"/articles", "/articles"},
		{"/articles/hello", "/articles/hello"},
		{"/about", "/about"},
		{"/contact", "/contact"},
		{"/privacy", "/privacy"},
		{"/developers", "/developers"},
		{"/developers/api", "/developers/api"},
		{"/developers/mcp", "/developers/mcp"},
		{"/developers/errors", "/developers/errors"},
		{"/signals/plain-1", "/signals/plain-1"},
		{"/signals/evil%2F1", "/signals/evil%2F1"},
	}
	for _, tt := range pages {
		path := withTracking(tt.path)
		t.Run("html "+path, func(t *testing.T) {
			resp, body := ta.Get(path, "Authorization", "")
			wantAnswer(t, resp, body, http.StatusOK)
			want := `<link rel="canonical" href="` + html.EscapeString(base+tt.canonical) + `">`
			if !strings.Contains(string(body), want) {
				t.Errorf("no %s in:\n%.600s", want, body)
			}
		})
		t.Run("markdown "+path, func(t *testing.T) {
			resp, body := ta.Get(path, "Authorization", "", "Accept", "text/markdown")
			wantAnswer(t, resp, body, http.StatusOK)
			if ct := resp.Header.Get("Content-Type"); ct != "text/markdown; charset=utf-8" {
				t.Errorf("Content-Type %q", ct)
			}
			if got, want := resp.Header.Get("Link"), "<"+base+tt.canonical+`>; rel="canonical"`; got != want {
				t.Errorf("Link %q, want %q", got, want)
			}
		})
	}
	selfLink := regexp.MustCompile(`<(?:atom:)?link href="([^"]*)" rel="self"`)
	feeds := []struct{ path, self string }{
		{"/feed.json", "/feed.json"},
		{"/feed.rss", "/feed.rss"},
		{"/feed.atom", "/feed.atom"},
		{"/feed.atom?page=3&country=france&tags=job", "/feed.atom?tags=job&country=france"},
		{"/hubs/jobs/feed.json", "/hubs/jobs/feed.json"},
		{"/hubs/jobs/feed.rss", "/hubs/jobs/feed.rss"},
		{"/hubs/jobs/feed.atom?tags=funding", "/hubs/jobs/feed.atom"},
	}
	for _, tt := range feeds {
		path := withTracking(tt.path)
		t.Run("feed "+path, func(t *testing.T) {
			resp, body := ta.Get(path, "Authorization", "")
			wantAnswer(t, resp, body, http.StatusOK)
			var self string
			if strings.Contains(tt.path, ".json") {
				var f struct {
					FeedURL string `json:"feed_url"`
				}
				if err := json.Unmarshal(body, &f); err != nil {
					t.Fatal(err)
				}
				self = f.FeedURL
			} else if m := selfLink.FindSubmatch(body); m != nil {
				self = html.UnescapeString(string(m[1]))
			}
			if self != base+tt.self {
				t.Errorf("self link %q, want %q", self, base+tt.self)
			}
		})
	}
	t.Run("the JSON API stays strict", func(t *testing.T) {
		resp, body := ta.Get("/api/v1/signals?utm_source=x")
		apptest.WantStatus(t, resp, body, http.StatusBadRequest)
		if p := apptest.Decode[problem.Problem](t, body); p.Code != failure.CodeUnknownParameter || p.Param != "utm_source" {
			t.Errorf("%s %s, want unknown_parameter utm_source", p.Code, p.Param)
		}
	})
	t.Run("an empty form field still leaves the address, with what the page does not use", func(t *testing.T) {
		noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		req, err := http.NewRequest(http.MethodGet, ta.URL+"/?utm_source=newsletter&tags=job&country=&q=+", nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, body := ta.SendWith(noFollow, req)
		if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/?tags=job" {
			t.Errorf("%d to %q, want 303 to /?tags=job\n%s", resp.StatusCode, resp.Header.Get("Location"), body)
		}
	})
}

// codeNames are what a reader must never see of a bad value: the API's
// codes and field names.
var codeNames = []string{"invalid_parameter", "unknown_parameter", "allowed_values", "validation_message",
	"page_size", "observed_after", "code <code>", "(code"}

// A bad value of a parameter a page uses is explained in words, quoting
// it, saying what is allowed, with a link to the same address without it;
// the rest of the address is kept, the tracking parameters are not.
func TestSharedLinksExplainBadValues(t *testing.T) {
	t.Parallel()
	ta := apptest.StartSite(t)
	base := ta.Config.BaseURL
	long := strings.Repeat("x", 201)
	for _, tt := range []struct {
		name, path string
		// says are in the explanation; clear is the clearing link.
		says  []string
		clear string
	}{
		{"country", "/?country=atlantis&tags=job",
			[]string{"“atlantis” is not a country we list.", "Choose a country from the list."}, "/?tags=job"},
		{"two countries", "/?country=france,canada",
			[]string{"Country takes one choice, and this address gives 2: “france” and “canada”."}, "/"},
		{"tag", "/?tags=job,nope&q=robots",
			[]string{"“nope” is not a kind of signal we list.", "Choose kinds from the list."}, "/?tags=job&q=robots"},
		{"tags", "/?tags=nope,nix",
			[]string{"“nope” and “nix” are not kinds of signal we list."}, "/"},
		{"source", "/?sources=fax",
			[]string{"“fax” is not a source we list.", "Choose sources from the list."}, "/"},
		{"language", "/?language=de&country=france",
			[]string{"“de” is not a language we list."}, "/?country=france"},
		{"page size", "/?page_size=abc&tags=job",
			[]string{"“abc” is not a page size.", "Page size must be a whole number from 1 to 50."}, "/?tags=job"},
		{"page size too big", "/?page_size=99",
			[]string{"“99” is not a page size.", "Page size must be a whole number from 1 to 50."}, "/"},
		{"page zero", "/?page=0&language=fr",
			[]string{"“0” is not a page number.", "Page must be a whole number from 1 to 1000000."}, "/?language=fr"},
		{"page too deep", "/?q=robots&page=501",
			[]string{"Page 501 is deeper than a search for words reaches", "the last page is 500.",
				"Narrow the filters to reach older signals."}, "/?q=robots"},
		{"collected after", "/?observed_after=yesterday&tags=job",
			[]string{"“yesterday” is not a time we can read.", "such as 2026-10-01T12:00:00Z"}, "/?tags=job"},
		{"words too long", "/?q=" + long,
			[]string{"These words are 201 characters long.", "Words can be at most 200 characters."}, "/"},
		{"hub page", "/hubs/jobs?page=abc",
			[]string{"“abc” is not a page number."}, "/hubs/jobs"},
		{"hub page size", "/hubs/jobs?page_size=0&page=2",
			[]string{"“0” is not a page size."}, "/hubs/jobs?page=2"},
	} {
		path := withTracking(tt.path)
		t.Run(tt.name+" html", func(t *testing.T) {
			resp, body := ta.Get(path, "Authorization", "")
			wantAnswer(t, resp, body, http.StatusBadRequest)
			page := string(body)
			main := page[strings.Index(page, "<main"):strings.Index(page, "</main>")]
			for _, want := range tt.says {
				if !strings.Contains(main, html.EscapeString(want)) {
					t.Errorf("the page lacks %q:\n%s", want, main)
				}
			}
			if link := `<a href="` + html.EscapeString(tt.clear) + `">`; !strings.Contains(main, link) {
				t.Errorf("the page lacks the clearing link %s:\n%s", link, main)
			}
			for _, code := range codeNames {
				if strings.Contains(main, code) {
					t.Errorf("the page shows %q", code)
				}
			}
			if strings.Contains(main, `class="signals"`) {
				t.Error("the page lists signals")
			}
		})
		t.Run(tt.name+" markdown", func(t *testing.T) {
			resp, body := ta.Get(path, "Authorization", "", "Accept", "text/markdown")
			wantAnswer(t, resp, body, http.StatusBadRequest)
			md := string(body)
			if !strings.Contains(md, "<"+base+tt.clear+">") {
				t.Errorf("the page lacks the clearing link <%s>:\n%s", base+tt.clear, md)
			}
			for _, want := range tt.says[:1] {
				if !strings.Contains(strings.ReplaceAll(md, `\`, ""), want) {
					t.Errorf("the page lacks %q:\n%s", want, md)
				}
			}
			for _, code := range codeNames[:4] {
				if strings.Contains(md, code) {
					t.Errorf("the page shows %q", code)
				}
			}
		})
	}
	t.Run("every bad value at once", func(t *testing.T) {
		path := "/?country=atlantis&tags=nope,job&page_size=abc&" + tracking
		resp, body := ta.Get(path, "Authorization", "")
		wantAnswer(t, resp, body, http.StatusBadRequest)
		for _, want := range []string{
			`id="f-tags-error" class="error" role="alert">“nope” is not a kind of signal we list. Choose kinds from the list. ` +
				`<a href="/?tags=job&amp;country=atlantis&amp;page_size=abc">Show the feed without “nope”</a>`,
			`id="f-country-error" class="error" role="alert">“atlantis” is not a country we list. Choose a country from the list. ` +
				`<a href="/?tags=nope,job&amp;page_size=abc">Show the feed without it</a>`,
			`id="f-error" class="error" role="alert">“abc” is not a page size. Page size must be a whole number from 1 to 50. ` +
				`<a href="/?tags=nope,job&amp;country=atlantis">Show 20 signals a page</a>`,
		} {
			if !strings.Contains(string(body), want) {
				t.Errorf("the page lacks %s", want)
			}
		}
		_, md := ta.Get(path, "Authorization", "", "Accept", "text/markdown")
		for _, want := range []string{"“nope” is not a kind", "“atlantis” is not a country", "“abc” is not a page size"} {
			if !strings.Contains(strings.ReplaceAll(string(md), `\`, ""), want) {
				t.Errorf("the Markdown lacks %q:\n%s", want, md)
			}
		}
	})
	t.Run("the clearing link works", func(t *testing.T) {
		_, body := ta.Get("/?country=atlantis&tags=job&utm_source=x", "Authorization", "")
		m := regexp.MustCompile(`role="alert">[^<]*<a href="([^"]*)"`).FindSubmatch(body)
		if m == nil {
			t.Fatalf("no clearing link:\n%s", body)
		}
		resp, page := ta.Get(html.UnescapeString(string(m[1])), "Authorization", "")
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(page), "Signals 1–1") {
			t.Errorf("%s: %d\n%s", m[1], resp.StatusCode, page)
		}
	})
	t.Run("markdown lists the choices", func(t *testing.T) {
		_, body := ta.Get("/?country=atlantis", "Authorization", "", "Accept", "text/markdown")
		if !strings.Contains(string(body), "Choices: Canada (`canada`), France (`france`).") {
			t.Errorf("the page does not list the countries of the public signals:\n%s", body)
		}
	})
	t.Run("a program that asks for JSON gets problem details", func(t *testing.T) {
		resp, body := ta.Get("/?country=atlantis&utm_source=x", "Authorization", "", "Accept", "application/json")
		wantAnswer(t, resp, body, http.StatusBadRequest)
		if p := apptest.Decode[problem.Problem](t, body); p.Code != failure.CodeInvalidParameter || p.Param != "country" {
			t.Errorf("%s %s", p.Code, p.Param)
		}
	})
	t.Run("feeds", func(t *testing.T) {
		for _, tt := range []struct{ path, says, clear string }{
			{"/feed.rss?country=atlantis&tags=job", "“atlantis” is not a country we list. Choose from: Canada (canada), France (france).", "/feed.rss?tags=job"},
			{"/feed.json?tags=nope", "“nope” is not a kind of signal we list. Choose from: Job (job), Funding (funding)", "/feed.json"},
			{"/feed.atom?observed_after=yesterday", "“yesterday” is not a time we can read.", "/feed.atom"},
		} {
			resp, body := ta.Get(withTracking(tt.path), "Authorization", "")
			wantAnswer(t, resp, body, http.StatusBadRequest)
			if ct := resp.Header.Get("Content-Type"); ct != "text/plain; charset=utf-8" {
				t.Errorf("%s: Content-Type %q", tt.path, ct)
			}
			text := string(body)
			if !strings.Contains(text, tt.says) || !strings.Contains(text, ": "+base+tt.clear+"\n") {
				t.Errorf("%s: the answer lacks %q or %s:\n%s", tt.path, tt.says, tt.clear, text)
			}
			for _, code := range codeNames[:4] {
				if strings.Contains(text, code) {
					t.Errorf("%s: the answer shows %q", tt.path, code)
				}
			}
		}
		resp, body := ta.Get("/feed.json?tags=nope", "Authorization", "", "Accept", "application/json")
		wantAnswer(t, resp, body, http.StatusBadRequest)
		if resp.Header.Get("Content-Type") != "application/problem+json" {
			t.Errorf("a JSON client: %s", resp.Header.Get("Content-Type"))
		}
	})
}

// wantAnswer checks the status of a page or feed, which answers in its own
// format (wantStatus is the API's).
func wantAnswer(t *testing.T, resp *http.Response, body []byte, status int) {
	t.Helper()
	if resp.StatusCode != status {
		t.Fatalf("status %d, want %d\n%.2000s", resp.StatusCode, status, body)
	}
}
