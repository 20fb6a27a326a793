package browser

import (
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// TestSharedLinksInChromium opens links as they get shared, with the
// tracking parameters of newsletters and social networks: each page loads
// (200) with a canonical link to the clean address, and each feed fetched
// from the site answers 200 with its clean self link. A bad filter value
// reads as a sentence with a link that clears it, and the link works.
func TestSharedLinksInChromium(t *testing.T) {
	s := startSite(t)
	b := newBrowser(t, true)

	// A signal's page, as the feed links it.
	b.run("open /", chromedp.Navigate(s.url+"/"), chromedp.WaitVisible(`main h1`))
	var signal string
	b.eval(`document.querySelector('a.permalink').getAttribute('href')`, &signal)
	if !strings.HasPrefix(signal, "/signals/") {
		t.Fatalf("the first signal links to %q", signal)
	}

	for _, tt := range []struct{ path, canonical string }{
		{"/?utm_source=newsletter", "/"},
		{"/?utm_source=newsletter&utm_medium=email&tags=funding&page=1", "/?tags=funding"},
		{signal + "?fbclid=IwAR0abcdef", signal},
		{"/hubs/funding?ref=hn", "/hubs/funding"},
		{"/articles/welcome?gclid=abc", "/articles/welcome"},
		{"/hubs?utm_campaign=launch", "/hubs"},
		{"/articles?fbclid=IwAR0abcdef", "/articles"},
		{"/about?ref=hn", "/about"},
		{"/contact?utm_source=newsletter", "/contact"},
		{"/privacy?gclid=abc", "/privacy"},
		{"/developers?utm_source=newsletter", "/developers"},
		{"/developers/api?ref=hn", "/developers/api"},
		{"/developers/mcp?fbclid=IwAR0abcdef", "/developers/mcp"},
		{"/developers/errors?utm_medium=email", "/developers/errors"},
	} {
		resp, err := chromedp.RunResponse(b.ctx, chromedp.Navigate(s.url+tt.path))
		if err != nil {
			t.Fatalf("open %s: %v", tt.path, err)
		}
		if resp.Status != 200 {
			t.Errorf("%s: status %d", tt.path, resp.Status)
		}
		var canonical string
		b.eval(`document.querySelector('link[rel="canonical"]')?.href ?? ''`, &canonical)
		if canonical != s.url+tt.canonical {
			t.Errorf("%s: canonical %q, want %q", tt.path, canonical, s.url+tt.canonical)
		}
	}

	self := regexp.MustCompile(`<(?:atom:)?link href="([^"]*)" rel="self"|"feed_url": ?"([^"]*)"`)
	for _, tt := range []struct{ path, self string }{
		{"/feed.json?utm_source=newsletter", "/feed.json"},
		{"/feed.rss?utm_source=newsletter", "/feed.rss"},
		{"/feed.atom?utm_source=newsletter&tags=funding", "/feed.atom?tags=funding"},
		{"/hubs/funding/feed.atom?ref=hn", "/hubs/funding/feed.atom"},
		{"/hubs/funding/feed.json?fbclid=IwAR0abcdef", "/hubs/funding/feed.json"},
		{"/hubs/funding/feed.rss?gclid=abc", "/hubs/funding/feed.rss"},
	} {
		var got struct {
			Status int
			Body   string
		}
		b.run("fetch "+tt.path, chromedp.Evaluate(`fetch(`+jsString(tt.path)+`).then(async r => ({status: r.status, body: await r.text()}))`,
			&got, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
		if got.Status != 200 {
			t.Errorf("%s: status %d", tt.path, got.Status)
			continue
		}
		m := self.FindStringSubmatch(got.Body)
		if m == nil {
			t.Errorf("%s: no self link in\n%.400s", tt.path, got.Body)
			continue
		}
		if link := html.UnescapeString(m[1] + strings.ReplaceAll(m[2], `\u0026`, "&")); link != s.url+tt.self {
			t.Errorf("%s: self link %q, want %q", tt.path, link, s.url+tt.self)
		}
	}

	// A country we do not list: the feed page says so next to the
	// country field, with a link that clears it and keeps the rest.
	resp, err := chromedp.RunResponse(b.ctx, chromedp.Navigate(s.url+"/?country=atlantis&tags=funding&utm_source=newsletter"))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != 400 {
		t.Errorf("/?country=atlantis: status %d, want 400", resp.Status)
	}
	var message string
	b.eval(`document.querySelector('#f-country-error')?.textContent ?? ''`, &message)
	for _, want := range []string{"“atlantis” is not a country we list.", "Choose a country from the list.", "Show the feed without it"} {
		if !strings.Contains(message, want) {
			t.Errorf("the message %q lacks %q", message, want)
		}
	}
	for _, code := range []string{"invalid_parameter", "allowed_values", "code"} {
		if strings.Contains(message, code) {
			t.Errorf("the message %q shows %q", message, code)
		}
	}
	var describedBy string
	b.eval(`document.querySelector('#f-country').getAttribute('aria-describedby') ?? ''`, &describedBy)
	if describedBy != "f-country-error" {
		t.Errorf("the country field is described by %q", describedBy)
	}
	b.run("clear the country", chromedp.Click(`#f-country-error a`, chromedp.NodeVisible))
	b.waitFor("the feed without the country", `location.search === '?tags=funding' && document.querySelector('.status').textContent.startsWith('Signals 1–')`)
	b.allTags("Funding")

	// The 400 of the bad filter shows in the console as a failed load,
	// which is what it is meant to be.
	b.forgive("the server responded with a status of 400")
	b.checkClean()
}
