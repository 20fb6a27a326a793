package browser

import (
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// TestSignalPageInChromium opens a signal from a filtered feed, follows
// the way back to the same filtered feed, opens it again and moves on to a
// related signal, with JavaScript on (htmx navigates) and off; at 360 px
// nothing on the page may overflow.
func TestSignalPageInChromium(t *testing.T) {
	eachWay(t, func(t *testing.T, javascript bool) {
		s := startSite(t)
		b := newBrowser(t, javascript)
		const feed = "/?tags=physical_ai"
		open := func() string {
			t.Helper()
			b.run("open a signal", chromedp.Click(`ol.signals li:first-child a[href^="/signals/"]`, chromedp.NodeVisible))
			b.waitFor("signal page", `location.pathname.startsWith('/signals/') && document.querySelector('main p.back a') !== null`)
			var path string
			b.eval(`location.pathname`, &path)
			return path
		}
		b.run("open the filtered feed", chromedp.Navigate(s.url+feed), chromedp.WaitVisible(`ol.signals`, chromedp.ByQuery))
		first := open()

		var page struct {
			Heading, Canonical, Back string
			Related                  []string
		}
		b.eval(`({heading: document.querySelector('main h1').textContent,
				canonical: document.querySelector('link[rel=canonical]').href,
				back: document.querySelector('main p.back a').getAttribute('href'),
				related: Array.from(document.querySelectorAll('.related-list a')).map(a => a.getAttribute('href'))})`, &page)
		if page.Heading == "" || strings.HasSuffix(page.Heading, "…") {
			t.Errorf("heading %q is empty or a cut copy", page.Heading)
		}
		// htmx swaps the body and title, not the head's links: the
		// canonical link is read from a page loaded whole.
		if !javascript && page.Canonical != s.url+first {
			t.Errorf("canonical %q, want the clean address %q", page.Canonical, s.url+first)
		}
		if page.Back != feed {
			t.Errorf("the way back leads to %q, want %q", page.Back, feed)
		}
		if len(page.Related) == 0 || len(page.Related) > 5 {
			t.Fatalf("%d related signals, want 1 to 5", len(page.Related))
		}

		b.run("back to the feed", chromedp.Click(`main p.back a`, chromedp.NodeVisible))
		b.waitFor("the filtered feed again", `location.pathname === '/' && location.search === '`+strings.TrimPrefix(feed, "/")+`' && document.querySelector('ol.signals') !== null`)
		b.allTags("Physical AI")

		if again := open(); again != first {
			t.Errorf("the same first signal opened %s, then %s", first, again)
		}
		b.run("open a related signal", chromedp.Click(`.related-list li:first-child a`, chromedp.NodeVisible))
		b.waitFor("the related signal", `location.pathname + location.search === `+jsString(page.Related[0]))
		var back string
		b.eval(`document.querySelector('main p.back a').getAttribute('href')`, &back)
		if back != feed {
			t.Errorf("a related signal's way back leads to %q, want %q", back, feed)
		}

		if javascript {
			// Reloaded whole with a tracking parameter, the page names its
			// clean address (TestLayout photographs it).
			b.run("reload", chromedp.Navigate(s.url+first+"?from=%2F%3Ftags%3Dphysical_ai&fbclid=x"),
				chromedp.WaitVisible(`main h1`, chromedp.ByQuery))
			var canonical string
			b.eval(`document.querySelector('link[rel=canonical]').href`, &canonical)
			if canonical != s.url+first {
				t.Errorf("canonical %q, want the clean address %q", canonical, s.url+first)
			}
			b.run("360 px", emulation.SetDeviceMetricsOverride(360, 740, 2, true),
				chromedp.Navigate(s.url+first), chromedp.WaitVisible(`main h1`, chromedp.ByQuery))
			var width int
			b.eval(`document.documentElement.scrollWidth`, &width)
			if width > 360 {
				t.Errorf("the signal page is %d px wide on a 360 px screen", width)
			}
		}
		b.checkClean()
	})
}
