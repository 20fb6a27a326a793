package browser

import (
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// Queries the demo data answers with matches.
const (
	firstQuery  = "humanoid robot teleoperation"
	secondQuery = "warehouse robotics startup raising money"
)

// TestSearchInChromium signs in, types a query into the feed's search box
// and submits it, then a second one on the search page, and repeats the
// first: with JavaScript, htmx swaps the answers in (the address follows,
// the document stays); without, they are plain forms. Each answer shows its
// matches' relevance and reasons and the searches left today; the repeated
// one is a cache hit that leaves the count as it was.
func TestSearchInChromium(t *testing.T) {
	eachWay(t, func(t *testing.T, javascript bool) {
		name := wayName(javascript)
		axe := axeScript(t)
		s := startSite(t)
		b := newBrowser(t, javascript)

		// Signed out, the box leads to what the search does and a
		// sign-in link that comes back to the query.
		b.run("open /", chromedp.Navigate(s.url+"/"), chromedp.WaitVisible(`#s-box`, chromedp.ByQuery))
		b.run("search signed out", chromedp.SendKeys(`#s-box`, firstQuery, chromedp.ByQuery),
			chromedp.Click(`.search-box button[type="submit"]`, chromedp.ByQuery))
		b.waitFor("the sign-in offer", `location.pathname === '/search' && document.querySelector('.search-sign-in a') !== null`)
		var next string
		b.eval(`new URL(document.querySelector('.search-sign-in a').href).searchParams.get('next')`, &next)
		if want := "/search?query=" + url.QueryEscape(firstQuery); next != want {
			t.Errorf("the sign-in link returns to %q, want %q", next, want)
		}
		b.signIn(s, "searcher-"+name+"@example.com")

		b.run("open /", chromedp.Navigate(s.url+"/"), chromedp.WaitVisible(`#s-box`, chromedp.ByQuery))
		if javascript {
			b.eval(`window.__sameDocument = true`, nil) // a full load forgets it
		}
		b.run("search from the feed", chromedp.SendKeys(`#s-box`, firstQuery, chromedp.ByQuery),
			chromedp.Click(`.search-box button[type="submit"]`, chromedp.ByQuery))
		b.wantAnswer(firstQuery, "9 searches left today", false)

		b.eval(`document.querySelector('#s-query').value = ''`, nil)
		b.run("search again", chromedp.SendKeys(`#s-query`, secondQuery, chromedp.ByQuery),
			chromedp.Click(`.search-form button[type="submit"]`, chromedp.ByQuery))
		b.wantAnswer(secondQuery, "8 searches left today", false)
		if javascript {
			b.audit(axe, "/search")
			screenshot(t, b, "search-1280")
		}

		b.eval(`document.querySelector('#s-query').value = ''`, nil)
		b.run("repeat the first", chromedp.SendKeys(`#s-query`, firstQuery, chromedp.ByQuery),
			chromedp.Click(`.search-form button[type="submit"]`, chromedp.ByQuery))
		b.wantAnswer(firstQuery, "8 searches left today", true)
		if javascript {
			var same bool
			b.eval(`window.__sameDocument === true`, &same)
			if !same {
				t.Error("a search reloaded the page: htmx did not swap it in")
			}
		}

		// At 360 px: nothing scrolls sideways (reloading answers from
		// the cache).
		b.run("360 px", emulation.SetDeviceMetricsOverride(360, 740, 2, true), chromedp.Reload(),
			chromedp.WaitVisible(`.searches-left`, chromedp.ByQuery))
		var width int
		b.eval(`document.documentElement.scrollWidth`, &width)
		if width > 360 {
			t.Errorf("the search page is %d px wide on a 360 px screen", width)
		}
		if javascript {
			b.audit(axe, "/search (360 px)")
			screenshot(t, b, "search-360")
		}
		b.checkClean()
	})
}

// wantAnswer waits for the answer to query and checks what it shows: the
// address names the query, each match its relevance (at least the cutoff)
// and the reasons it matched, and the count of searches left.
func (b *browser) wantAnswer(query, left string, cacheHit bool) {
	b.t.Helper()
	b.waitFor("the answer to "+query, `location.pathname === '/search' &&
		new URLSearchParams(location.search).get('query') === `+jsString(query)+` &&
		document.querySelector('.searches-left') !== null &&
		document.querySelector('.searches-left').textContent.includes(`+jsString(left)+`)`)
	var shown struct {
		Relevance []string
		Reasons   []string
		Links     []string
		Cache     bool
	}
	b.eval(`({
		relevance: Array.from(document.querySelectorAll('.signal .relevance')).map(e => e.textContent),
		reasons: Array.from(document.querySelectorAll('.signal .reasons')).map(e => e.textContent),
		links: Array.from(document.querySelectorAll('.signal a.permalink')).map(e => new URL(e.href).pathname),
		cache: document.querySelector('.cache-hit') !== null,
	})`, &shown)
	if len(shown.Relevance) == 0 {
		b.t.Fatalf("%q: no match shown", query)
	}
	for _, r := range shown.Relevance {
		v, err := strconv.ParseFloat(strings.TrimPrefix(r, "Relevance "), 64)
		if err != nil || v < 0.85 || v > 1 {
			b.t.Errorf("%q: a match shows %q", query, r)
		}
	}
	if len(shown.Reasons) == 0 || !strings.HasPrefix(shown.Reasons[0], "Matched ") {
		b.t.Errorf("%q: the first match does not say why it matched: %q", query, shown.Reasons)
	}
	for _, l := range shown.Links {
		if !strings.HasPrefix(l, "/signals/") {
			b.t.Errorf("%q: a match links to %s, not its signal page", query, l)
		}
	}
	if shown.Cache != cacheHit {
		b.t.Errorf("%q: the page says cache hit %v, want %v", query, shown.Cache, cacheHit)
	}
}
