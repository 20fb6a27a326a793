package web_test

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/mmcdole/gofeed"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"

	"signals/internal/apptest"
	"signals/internal/failure"
	"signals/internal/model"
	"signals/internal/problem"
	"signals/internal/store/storetest"
	"signals/internal/web"
)

// Each kind of page, in HTML and in Markdown, is pinned by a golden file.
func TestSitePagesGolden(t *testing.T) {
	t.Parallel()
	ta := apptest.StartSite(t)
	for _, tt := range []struct{ name, path string }{
		{"home", "/?page_size=2"},
		{"home_filtered", "/?tags=job&country=france"},
		{"hub", "/hubs/jobs"},
		{"hubs", "/hubs"},
		{"signal", "/signals/evil%2F1"},
		{"articles", "/articles"},
		{"article", "/articles/hello"},
		{"about", "/about"},
		{"contact", "/contact"},
		{"subscribe", "/subscribe?tags=job&country=france"},
		{"hub_subscribe", "/hubs/jobs/subscribe"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, format := range []struct{ accept, ext, contentType string }{
				{"text/html", "html", "text/html; charset=utf-8"},
				{"text/markdown", "md", "text/markdown; charset=utf-8"},
			} {
				resp, body := ta.Get(tt.path, "Authorization", "", "Accept", format.accept)
				if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != format.contentType {
					t.Fatalf("%s: %d %s\n%s", format.ext, resp.StatusCode, resp.Header.Get("Content-Type"), body)
				}
				if resp.Header.Get("Vary") != "Accept" || !strings.Contains(resp.Header.Get("Cache-Control"), "private") {
					t.Errorf("Vary=%q Cache-Control=%q", resp.Header.Get("Vary"), resp.Header.Get("Cache-Control"))
				}
				apptest.GoldenText(t, "site_"+tt.name+"."+format.ext, body)
				if bytes.Contains(body, []byte("secret hidden text")) {
					t.Error("a hidden signal is shown")
				}
			}
		})
	}
}

// Every HTML page carries the security headers and links to its feeds.
func TestSiteHTMLHeaders(t *testing.T) {
	t.Parallel()
	ta := apptest.StartSite(t)
	for _, tt := range []struct{ path, feed string }{
		{"/", `href="/feed.atom"`},
		{"/?tags=job", `href="/feed.atom?tags=job"`},
		{"/hubs/jobs", `href="/hubs/jobs/feed.atom"`},
		{"/articles/hello", `href="/feed.atom"`},
		{"/signals/plain-1", `href="/feed.atom"`},
		{"/developers", `href="/feed.atom"`},
		{"/nothing", `href="/feed.atom"`},
		{"/?tags=nope", `href="/feed.atom"`},
	} {
		resp, body := ta.Get(tt.path, "Authorization", "")
		h := resp.Header
		if h.Get("Content-Security-Policy") != web.ContentSecurityPolicy || h.Get("Referrer-Policy") == "" ||
			!strings.Contains(h.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
			t.Errorf("%s: CSP=%q Referrer-Policy=%q", tt.path, h.Get("Content-Security-Policy"), h.Get("Referrer-Policy"))
		}
		if !bytes.Contains(body, []byte(`<link rel="alternate" type="application/atom&#43;xml" title="Atom" `+tt.feed)) {
			t.Errorf("%s: no alternate link %s", tt.path, tt.feed)
		}
		if bytes.Contains(body, []byte("<script>")) || bytes.Contains(body, []byte(" style=")) {
			t.Errorf("%s: an inline script or style, which the CSP would block", tt.path)
		}
	}
}

// Signal text never becomes HTML markup, and source links are marked as
// user-generated.
func TestSiteHTMLEscapesSignals(t *testing.T) {
	t.Parallel()
	ta := apptest.StartSite(t)
	_, body := ta.Get("/", "Authorization", "")
	for _, bad := range []string{"<script>alert", "<b>bold", "<img src=x", `href="javascript:`, `href="https://evil.example`} {
		if bytes.Contains(body, []byte(bad)) {
			t.Errorf("the page holds %q", bad)
		}
	}
	if n := bytes.Count(body, []byte(`rel="nofollow noopener ugc"`)); n != 3 {
		t.Errorf("%d source links with rel=\"nofollow noopener ugc\", want 3", n)
	}
	if !bytes.Contains(body, []byte(`href="https://example.org/post?a=1&amp;b=%3C2%3E"`)) {
		t.Error("the hostile source link is not escaped as expected")
	}
}

// In Markdown, nothing a signal says forms a link, an image, a heading or
// HTML: parsing the page finds only the page's own structure.
func TestSiteMarkdownEscapesSignals(t *testing.T) {
	t.Parallel()
	ta := apptest.StartSite(t)
	for _, path := range []string{"/", "/hubs/jobs", "/?q=%3Cb%3E%5Bx%5D(y)", "/signals/evil%2F1"} {
		_, body := ta.Get(path, "Authorization", "", "Accept", "text/markdown")
		md := goldmark.New(goldmark.WithExtensions(extension.GFM))
		doc := md.Parser().Parse(text.NewReader(body))
		err := ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if !entering {
				return ast.WalkContinue, nil
			}
			switch n := n.(type) {
			case *ast.Image, *ast.RawHTML, *ast.HTMLBlock:
				t.Errorf("%s: a %s node", path, n.Kind())
			case *ast.Link:
				if d := string(n.Destination); !strings.HasPrefix(d, ta.Config.BaseURL) {
					t.Errorf("%s: a link to %s", path, d)
				}
			case *ast.AutoLink:
				if u := string(n.URL(body)); !strings.HasPrefix(u, ta.Config.BaseURL) && !strings.HasPrefix(u, "https://example.org/") {
					t.Errorf("%s: an autolink to %s", path, u)
				}
			case *ast.Heading:
				if h := string(n.Lines().Value(body)); n.Level > 1 && !headingOfOurs(h) {
					t.Errorf("%s: a heading %q", path, h)
				}
			case *east.Strikethrough:
				t.Errorf("%s: strikethrough from signal text", path)
			}
			return ast.WalkContinue, nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// headingOfOurs matches the "N. Kind, Source, …; published …" headings of
// a feed view.
func headingOfOurs(h string) bool {
	if h == "Related signals" { // a signal page's section
		return true
	}
	num, rest, ok := strings.Cut(h, ". ")
	return ok && strings.Trim(num, "0123456789") == "" && strings.Contains(rest, "; published ")
}

// A bad filter is a 400: in HTML and Markdown explained in words, to a
// program that asks for JSON as the API's problem details.
func TestSiteBadFilter(t *testing.T) {
	t.Parallel()
	ta := apptest.StartSite(t)
	_, apiBody := ta.Get("/api/v1/signals?page_size=99")
	want := apptest.Decode[problem.Problem](t, apiBody)
	for _, tt := range []struct{ accept, contentType, says string }{
		{"", "text/html; charset=utf-8", "Page size must be a whole number from 1 to 50."},
		{"text/markdown", "text/markdown; charset=utf-8", "Page size must be a whole number from 1 to 50."},
		{"application/json", "application/problem+json", want.ValidationMessage},
	} {
		resp, body := ta.Get("/?page_size=99", "Authorization", "", "Accept", tt.accept)
		if resp.StatusCode != 400 || resp.Header.Get("Content-Type") != tt.contentType {
			t.Fatalf("Accept %q: %d %s", tt.accept, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		if !bytes.Contains(body, []byte(tt.says)) {
			t.Errorf("Accept %q: the page does not say %q:\n%s", tt.accept, tt.says, body)
		}
		if hasCode := bytes.Contains(body, []byte(want.Code)); hasCode != (tt.accept == "application/json") {
			t.Errorf("Accept %q: the code %s shows: %v", tt.accept, want.Code, hasCode)
		}
	}
	t.Run("hub pages read only paging", func(t *testing.T) {
		resp, body := ta.Get("/hubs/jobs?tags=funding", "Authorization", "")
		if resp.StatusCode != 200 || !bytes.Contains(body, []byte(`<link rel="canonical" href="`+ta.Config.BaseURL+`/hubs/jobs">`)) {
			t.Errorf("%d\n%s", resp.StatusCode, body)
		}
	})
	t.Run("empty form fields mean any", func(t *testing.T) {
		resp, body := ta.Get("/?tags=job&language=&country=&q=", "Authorization", "")
		if resp.StatusCode != 200 || !bytes.Contains(body, []byte("Signals 1–1")) {
			t.Errorf("%d\n%s", resp.StatusCode, body)
		}
	})
}

// docs/api.md: Markdown with the front end's router headers is a conflict;
// prefetch keeps the normal format; HEAD answers like GET without a body.
func TestSiteNegotiation(t *testing.T) {
	t.Parallel()
	ta := apptest.StartSite(t)
	for _, path := range []string{"/", "/hubs/jobs", "/articles/hello", "/about", "/hubs", "/articles", "/signals/plain-1"} {
		resp, body := ta.Get(path, "Authorization", "", "Accept", "text/markdown", "HX-Request", "true")
		if resp.StatusCode != 400 || !bytes.Contains(body, []byte(string(failure.CodeConflictingFormats))) {
			t.Errorf("%s with HX-Request: %d\n%s", path, resp.StatusCode, body)
		}
		resp, _ = ta.Get(path, "Authorization", "", "Accept", "text/markdown", "Sec-Purpose", "prefetch")
		if ct := resp.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
			t.Errorf("%s prefetch: %s", path, ct)
		}
		resp, _ = ta.Get(path, "Authorization", "", "HX-Boosted", "true")
		if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || ct != "text/html; charset=utf-8" {
			t.Errorf("%s boosted: %d %s", path, resp.StatusCode, ct)
		}
		resp, body = ta.Do(http.MethodHead, path, nil, "Authorization", "", "Accept", "text/markdown")
		if resp.StatusCode != 200 || len(body) != 0 || resp.Header.Get("Content-Type") != "text/markdown; charset=utf-8" {
			t.Errorf("HEAD %s: %d %s, %d bytes", path, resp.StatusCode, resp.Header.Get("Content-Type"), len(body))
		}
	}
	for _, path := range []string{"/feed.json", "/assets/nothing.css"} {
		resp, _ := ta.Get(path, "Authorization", "", "Accept", "text/markdown")
		if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/markdown") {
			t.Errorf("%s negotiated Markdown", path)
		}
	}
}

// Every feed parses with a real feed parser and holds the public signals
// of its filter with their source links, authors and dates.
func TestFeeds(t *testing.T) {
	t.Parallel()
	ta := apptest.StartSite(t)
	for _, tt := range []struct {
		path, contentType string
		ids               []string
	}{
		{"/feed.json", "application/feed+json", []string{"evil/1", "plain-2", "plain-1"}},
		{"/feed.rss", "application/rss+xml; charset=utf-8", []string{"evil/1", "plain-2", "plain-1"}},
		{"/feed.atom", "application/atom+xml; charset=utf-8", []string{"evil/1", "plain-2", "plain-1"}},
		{"/feed.atom?tags=job", "application/atom+xml; charset=utf-8", []string{"plain-2"}},
		{"/hubs/jobs/feed.json", "application/feed+json", []string{"plain-2"}},
		{"/hubs/jobs/feed.rss", "application/rss+xml; charset=utf-8", []string{"plain-2"}},
		{"/hubs/jobs/feed.atom", "application/atom+xml; charset=utf-8", []string{"plain-2"}},
	} {
		t.Run(tt.path, func(t *testing.T) {
			resp, body := ta.Get(tt.path, "Authorization", "")
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != tt.contentType ||
				resp.Header.Get("Access-Control-Allow-Origin") != "*" {
				t.Fatalf("%d %s ACAO=%q\n%s", resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Access-Control-Allow-Origin"), body)
			}
			f, err := gofeed.NewParser().ParseString(string(body))
			if err != nil {
				t.Fatalf("the feed does not parse: %v\n%s", err, body)
			}
			if len(f.Items) != len(tt.ids) {
				t.Fatalf("%d items, want %d", len(f.Items), len(tt.ids))
			}
			for i, it := range f.Items {
				if !strings.Contains(it.GUID, strings.ReplaceAll(tt.ids[i], "/", "%2F")) && it.GUID != tt.ids[i] {
					t.Errorf("item %d: id %q, want %s", i, it.GUID, tt.ids[i])
				}
				if it.Link != ta.Config.BaseURL+"/signals/"+url.PathEscape(tt.ids[i]) || it.PublishedParsed == nil ||
					len(it.Authors) == 0 || it.Description == "" && it.Content == "" {
					t.Errorf("item %d lacks a link, a date, an author or a snippet: %+v", i, it)
				}
			}
			if strings.HasPrefix(tt.path, "/feed.") && !strings.Contains(tt.path, "?") {
				name := strings.TrimPrefix(tt.path, "/")
				apptest.GoldenText(t, name, body)
			}
		})
	}
	t.Run("hostile text reads as text", func(t *testing.T) {
		for _, path := range []string{"/feed.json", "/feed.rss", "/feed.atom"} {
			_, body := ta.Get(path, "Authorization", "")
			f, err := gofeed.NewParser().ParseString(string(body))
			if err != nil {
				t.Fatal(err)
			}
			it := f.Items[0]
			got := it.Description
			if it.Content != "" {
				got = it.Content
			}
			if path == "/feed.rss" {
				// An RSS description is HTML: the snippet is escaped in it.
				if strings.Contains(got, "<script>") || !strings.Contains(got, "&lt;script&gt;") {
					t.Errorf("%s: description %q", path, got)
				}
				continue
			}
			if !strings.HasPrefix(got, "<script>alert(1)</script>") {
				t.Errorf("%s: the text does not read back as sent: %q", path, got)
			}
		}
	})
	t.Run("bad filter", func(t *testing.T) {
		for _, tt := range []struct{ path, contentType string }{
			{"/feed.json?tags=nope", "text/plain; charset=utf-8"},
			{"/feed.rss?language=de", "text/plain; charset=utf-8"},
			{"/hubs/none/feed.json", "application/problem+json"},
		} {
			path := tt.path
			resp, body := ta.Get(path, "Authorization", "")
			if resp.StatusCode/100 != 4 || resp.Header.Get("Content-Type") != tt.contentType {
				t.Errorf("%s: %d %s\n%s", path, resp.StatusCode, resp.Header.Get("Content-Type"), body)
			}
		}
	})
}

// Feeds answer conditional requests, and a change of the data changes
// them at once.
func TestFeedValidators(t *testing.T) {
	t.Parallel()
	ta := apptest.StartSite(t)
	resp, first := ta.Get("/feed.json", "Authorization", "")
	etag, modified := resp.Header.Get("ETag"), resp.Header.Get("Last-Modified")
	if etag == "" || modified == "" {
		t.Fatalf("ETag=%q Last-Modified=%q", etag, modified)
	}
	for _, h := range [][]string{{"If-None-Match", etag}, {"If-Modified-Since", modified}} {
		resp, body := ta.Get("/feed.json", "Authorization", "", h[0], h[1])
		if resp.StatusCode != http.StatusNotModified || len(body) != 0 {
			t.Errorf("%s: %d, want 304", h[0], resp.StatusCode)
		}
	}
	_, md := ta.Get("/", "Authorization", "", "Accept", "text/markdown")
	ta.Put(storetest.Sig("newest", 60))
	if _, md2 := ta.Get("/", "Authorization", "", "Accept", "text/markdown"); bytes.Equal(md, md2) || !bytes.Contains(md2, []byte("ID: `newest`")) {
		t.Error("the Markdown view did not change with the data")
	}
	resp, second := ta.Get("/feed.json", "Authorization", "", "If-None-Match", etag)
	if resp.StatusCode != 200 || bytes.Equal(first, second) || !bytes.Contains(second, []byte(`"newest"`)) {
		t.Fatalf("after an import: %d, the feed did not change", resp.StatusCode)
	}
	if resp.Header.Get("ETag") == etag {
		t.Error("the ETag did not change with the feed")
	}
	if err := ta.Store().SetStatus(context.Background(), "newest", model.StatusHidden, nil); err != nil {
		t.Fatal(err)
	}
	_, third := ta.Get("/feed.json", "Authorization", "")
	if bytes.Contains(third, []byte(`"newest"`)) {
		t.Error("a hidden signal stays in the feed")
	}
}

// In Markdown, ids and authors' names are code spans that read as they
// are: an agent copies tf-2026-11-0023, not tf\-2026\-11\-0023.
func TestSiteMarkdownIDsCopyAsTheyAre(t *testing.T) {
	t.Parallel()
	ta := apptest.StartSite(t)
	ta.Put(storetest.Sig("tf-2026-11-0023", 9, func(s *model.Signal) { s.AuthorName = "scalinglaws_fan" }))
	_, body := ta.Get("/", "Authorization", "", "Accept", "text/markdown")
	for _, want := range []string{"- ID: `tf-2026-11-0023`\n", "- Author: `scalinglaws_fan`", "- ID: `evil/1`\n"} {
		if !bytes.Contains(body, []byte(want)) {
			t.Errorf("the page lacks %q:\n%s", want, body)
		}
	}
}

// Every public page has a description, a canonical link from the base URL
// and Open Graph tags; no page uses attributes HTML does not have (htmx
// reads its data-hx-* forms).
func TestSiteHTMLMetadata(t *testing.T) {
	t.Parallel()
	ta := apptest.StartSite(t)
	base := ta.Config.BaseURL
	for _, tt := range []struct{ path, canonical string }{
		{"/", base + "/"},
		{"/?tags=job&page=1", base + "/?tags=job"},
		{"/hubs", base + "/hubs"},
		{"/hubs/jobs", base + "/hubs/jobs"},
		{"/articles", base + "/articles"},
		{"/articles/hello", base + "/articles/hello"},
		{"/about", base + "/about"},
		{"/contact", base + "/contact"},
		{"/developers", base + "/developers"},
		{"/developers/api", base + "/developers/api"},
		{"/developers/mcp", base + "/developers/mcp"},
		{"/developers/errors", base + "/developers/errors"},
	} {
		_, body := ta.Get(tt.path, "Authorization", "")
		page := string(body)
		canonical := strings.ReplaceAll(tt.canonical, "&", "&amp;")
		for _, want := range []string{
			`<link rel="canonical" href="` + canonical + `">`,
			`<meta property="og:url" content="` + canonical + `">`,
			`<meta property="og:site_name" content="Signals">`,
			`<meta property="og:type" content="`,
			`<meta property="og:title" content="`,
			`<meta property="og:description" content="`,
			`<meta name="description" content="`,
		} {
			if !strings.Contains(page, want) {
				t.Errorf("%s: no %s", tt.path, want)
			}
		}
		if strings.Contains(page, `<meta name="description" content="">`) {
			t.Errorf("%s: an empty description", tt.path)
		}
		if m := regexp.MustCompile(`\shx-[a-z-]+=`).FindString(page); m != "" {
			t.Errorf("%s: the attribute %q is not HTML; htmx reads data-hx-*", tt.path, m)
		}
	}
}

// Signal text reaches a page without the characters HTML cannot hold, each
// field a signal supplies is isolated from the page's direction, and a
// snippet says its language.
func TestSiteHTMLSignalText(t *testing.T) {
	t.Parallel()
	ta := apptest.StartSite(t)
	ta.Put(storetest.Sig("bidi", 9, func(s *model.Signal) {
		s.Text = "bell\a vt\v nul del\x7f c1\u0085 nonchar\ufffe \u202Ereversed\u202C and \u2066isolate"
		s.AuthorName, s.AuthorHeadline = "\u202Enimda", "head\x01line"
		s.Language = "en"
	}))
	_, body := ta.Get("/", "Authorization", "")
	page := string(body)
	for _, bad := range []string{"\a", "\v", "\x7f", "\u0085", "\ufffe", "\x01"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page holds %q", bad)
		}
	}
	for _, want := range []string{
		`<p class="snippet" dir="auto" lang="en">bell vt nul del c1 nonchar ` + "\u202Ereversed",
		`<strong><bdi>` + "\u202Enimda" + `</bdi></strong> · <bdi>headline</bdi>`,
		`<p class="snippet" dir="auto" lang="fr">Signal plain-2`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q:\n%s", want, regexp.MustCompile(`<p class="snippet".*`).FindAllString(page, -1))
		}
	}
}

// A wrong address is a page for people: a sentence that shows the path
// escaped, and links back to the site and its feeds.
func TestSiteNotFoundPage(t *testing.T) {
	t.Parallel()
	ta := apptest.StartSite(t)
	resp, body := ta.Get("/nothing%3Cb%3E%E2%80%AE", "Authorization", "")
	page := string(body)
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("%d", resp.StatusCode)
	}
	main := page[strings.Index(page, "<main"):strings.Index(page, "</main>")]
	for _, want := range []string{
		"<h1>Page not found</h1>",
		`<p class="lede">There is no page at /nothing%3Cb%3E%E2%80%AE.</p>`,
		`<a href="/">home page</a>`, `<a href="/feed.atom">Atom</a>`, `<a href="/developers">`,
		"code <code>not_found</code>",
	} {
		if !strings.Contains(main, want) {
			t.Errorf("the page lacks %q:\n%s", want, main)
		}
	}
	if strings.Contains(page, "nothing at") {
		t.Error("the page still reads like an API message")
	}
	_, md := ta.Get("/nothing", "Authorization", "", "Accept", "text/markdown")
	if !bytes.Contains(md, []byte("[JSON Feed]("+ta.Config.BaseURL+"/feed.json)")) {
		t.Errorf("the Markdown page does not link the feeds:\n%s", md)
	}
}

// A filter that does not validate shows the feed's filter form again, with
// what was sent and the error next to its field.
func TestSiteBadFilterForm(t *testing.T) {
	t.Parallel()
	ta := apptest.StartSite(t)
	for _, tt := range []struct{ name, path, errorID, clear string }{
		{"language", "/?tags=job&language=de&q=robots", "f-language-error", "/?tags=job&amp;q=robots"},
		{"tag", "/?tags=job,nope", "f-tags-error", "/?tags=job"},
		{"no field", "/?tags=job&page_size=99", "f-error", "/?tags=job"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := ta.Get(tt.path, "Authorization", "")
			page := string(body)
			if resp.StatusCode != http.StatusBadRequest {
				t.Fatalf("%d", resp.StatusCode)
			}
			for _, want := range []string{
				`<form class="filters"`,
				`<input type="checkbox" id="f-tags-job" name="tags" value="job" checked>`,
				`id="` + tt.errorID + `" class="error" role="alert">`,
				`<a href="` + tt.clear + `">`,
			} {
				if !strings.Contains(page, want) {
					t.Errorf("the page lacks %q", want)
				}
			}
			if strings.Contains(page, "No public signal matches") {
				t.Error("the page says no signal matches, though nothing was looked for")
			}
			if strings.Contains(page, "invalid_parameter") {
				t.Error("the page shows the API's code")
			}
		})
	}
	_, body := ta.Get("/?tags=job&language=de&q=robots", "Authorization", "")
	for _, want := range []string{`aria-describedby="f-language-error"`, `value="robots"`} {
		if !bytes.Contains(body, []byte(want)) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

// A page deeper than a listing with q reaches is the feed page again,
// status 400: the filter form keeps the filter, the message says how deep
// the listing reaches, and nothing is listed. A hub whose filter holds q
// reaches as deep.
func TestSiteTooDeepPage(t *testing.T) {
	t.Parallel()
	ta := apptest.StartSite(t)
	if err := ta.Store().CreateHub(context.Background(), model.Hub{Slug: "plain", Title: "Plain", Description: "Plain words.",
		Filter: "q=plain"}); err != nil {
		t.Fatal(err)
	}
	resp, body := ta.Get("/?tags=job&q=robots&page=501", "Authorization", "")
	page := string(body)
	if resp.StatusCode != http.StatusBadRequest || resp.Header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Fatalf("%d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	for _, want := range []string{
		"<title>Page not valid",
		`<form class="filters"`,
		`<input type="checkbox" id="f-tags-job" name="tags" value="job" checked>`,
		`value="robots"`,
		`id="f-error" class="error" role="alert">Page 501 is deeper than a search for words reaches: 10000 results at most, ` +
			`so at 20 signals a page the last page is 500. Narrow the filters to reach older signals. ` +
			`<a href="/?tags=job&amp;q=robots">Go to the first page</a>`,
		"No signals are listed for this page.",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q:\n%s", want, page)
		}
	}
	if strings.Contains(page, `class="signals"`) {
		t.Error("the page lists signals")
	}
	if resp, _ := ta.Get("/?q=robots&page=500", "Authorization", ""); resp.StatusCode != http.StatusOK {
		t.Errorf("page 500 with q: %d", resp.StatusCode)
	}
	for _, tt := range []struct {
		path   string
		status int
	}{
		{"/hubs/plain?page=501", http.StatusBadRequest},
		{"/hubs/plain?page_size=50&page=200", http.StatusOK},
		{"/hubs/jobs?page=501", http.StatusOK}, // no q: past the end, not too deep
	} {
		resp, body := ta.Get(tt.path, "Authorization", "")
		if resp.StatusCode != tt.status {
			t.Errorf("%s: %d, want %d", tt.path, resp.StatusCode, tt.status)
		}
		if tt.status == http.StatusBadRequest && !bytes.Contains(body, []byte("10000 results at most")) {
			t.Errorf("%s: the page does not say how deep the listing reaches:\n%s", tt.path, body)
		}
	}
}

// A page past the end says so and leads to the last page that has
// signals, not to a newer page as empty.
func TestSitePastTheEnd(t *testing.T) {
	t.Parallel()
	ta := apptest.StartSite(t)
	for _, tt := range []struct{ path, want, back string }{
		{"/?page=999", "Go to the first page", `href="/"`},
		{"/?page_size=1&page=999", "Go to the last page, 3", `href="/?page_size=1&amp;page=3"`},
		{"/?tags=events&page=2", "it has no signals", `href="/?tags=events"`},
	} {
		_, body := ta.Get(tt.path, "Authorization", "")
		page := string(body)
		for _, want := range []string{"is past the end of this feed", tt.want, tt.back} {
			if !strings.Contains(page, want) {
				t.Errorf("%s: the page lacks %q", tt.path, want)
			}
		}
		if strings.Contains(page, `rel="prev"`) || strings.Contains(page, "No public signal matches") {
			t.Errorf("%s: the page leads to a newer page or says nothing matches", tt.path)
		}
	}
	_, md := ta.Get("/?page_size=1&page=999", "Authorization", "", "Accept", "text/markdown")
	if !bytes.Contains(md, []byte("Page 999 is past the end; the last page with signals is 3: <"+ta.Config.BaseURL+"/?page_size=1&page=3>")) {
		t.Errorf("Markdown:\n%s", md)
	}
}

// The filter form sends its empty fields; the feed answers with its address
// without them, so that the address bar and shared links stay short, and a
// change of a chip or a list submits the form where JavaScript runs.
func TestSiteFilterAddressDropsEmptyFields(t *testing.T) {
	t.Parallel()
	ta := apptest.StartSite(t)
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, tt := range []struct{ query, location string }{
		{"?tags=job&language=&country=&q=", "/?tags=job"},
		{"?language=&country=&q=", "/"},
		{"?tags=&tags=job&sources=microblog&q=", "/?tags=job&sources=microblog"},
		{"?fbclid=x&country=&tags=job", "/?tags=job"},
	} {
		req, err := http.NewRequest(http.MethodGet, ta.URL+"/"+tt.query, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, body := ta.SendWith(noFollow, req)
		if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != tt.location {
			t.Errorf("%s: %d to %q, want 303 to %q\n%s", tt.query, resp.StatusCode, resp.Header.Get("Location"), tt.location, body)
		}
	}
	resp, body := ta.Get("/?tags=job", "Authorization", "")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%d\n%s", resp.StatusCode, body)
	}
	if !bytes.Contains(body, []byte(`aria-label="Filter signals" data-autosubmit>`)) {
		t.Error("the filter form is not marked to submit on a change")
	}
	// htmx puts the focus back on the chip pressed, by its id.
	if !bytes.Contains(body, []byte(`<input type="checkbox" id="f-tags-job" name="tags" value="job" checked>`)) {
		t.Error("the chips have no ids")
	}
	src := regexp.MustCompile(`<script src="(/assets/site[^"]*\.js)"`).FindSubmatch(body)
	if src == nil {
		t.Fatal("no site script on the page")
	}
	_, script := ta.Get(string(src[1]), "Authorization", "")
	if !bytes.Contains(script, []byte(`form.hasAttribute("data-autosubmit")`)) || !bytes.Contains(script, []byte("form.requestSubmit()")) {
		t.Error("the site's script does not submit a data-autosubmit form on a change")
	}
}
