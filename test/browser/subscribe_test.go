package browser

import (
	"io"
	"net/http"
	"strings"
	"testing"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/mmcdole/gofeed"
)

// TestSubscribeInChromium follows the Subscribe entry of the feed, of a
// filtered feed and of a hub to the subscribe page, at 1280 px and at
// 360 px, copies a feed's address with its Copy button, and checks that the
// address copied is a feed that parses and holds the view's signals. It
// also checks that an anonymous visitor sees, next to the feed's search
// box, that searching by meaning needs signing in, with the link.
func TestSubscribeInChromium(t *testing.T) {
	s := startSite(t)
	b := newBrowser(t, true)
	b.run("allow the clipboard", cdpbrowser.GrantPermissions([]cdpbrowser.PermissionType{
		cdpbrowser.PermissionTypeClipboardReadWrite, cdpbrowser.PermissionTypeClipboardSanitizedWrite}).WithOrigin(s.url))
	for _, width := range []int64{1280, 360} {
		b.run("width", emulation.SetDeviceMetricsOverride(width, 900, 1, width < 600))
		for _, tc := range []struct {
			view, subscribe, format, tag string
		}{
			{"/", "/subscribe", "rss", ""},
			{"/?tags=funding&country=france", "/subscribe?tags=funding&country=france", "atom", "funding"},
			{"/hubs/funding", "/hubs/funding/subscribe", "json", "funding"},
		} {
			b.run("open "+tc.view, chromedp.Navigate(s.url+tc.view), chromedp.WaitVisible(`main h1`, chromedp.ByQuery))
			// Near the title: before the list of signals, on screen
			// without scrolling.
			var near bool
			b.eval(`(() => { const a = document.querySelector('main a.subscribe');
				const r = a && a.getBoundingClientRect();
				return !!r && r.width > 0 && r.bottom < innerHeight && r.right <= innerWidth &&
					a.textContent === 'Subscribe' && !!(a.compareDocumentPosition(document.querySelector('main ol.signals')) & Node.DOCUMENT_POSITION_FOLLOWING); })()`, &near)
			if !near {
				t.Errorf("%s at %d px: no visible Subscribe entry near the title", tc.view, width)
			}
			b.run("follow Subscribe", chromedp.Click(`main a.subscribe`, chromedp.NodeVisible))
			b.waitFor("the subscribe page", `location.pathname + location.search === `+jsString(tc.subscribe)+
				` && document.querySelector('#feed-`+tc.format+`') !== null`)
			var explained bool
			b.eval(`document.querySelector('main').textContent.includes('What is a feed reader?')`, &explained)
			if !explained {
				t.Errorf("%s: the page does not say what a feed reader is", tc.subscribe)
			}
			b.run("copy", chromedp.Click(`button[data-copy="feed-`+tc.format+`"]`, chromedp.NodeVisible))
			b.waitFor("copied", `document.querySelector('button[data-copy="feed-`+tc.format+`"]').textContent === 'Copied'`)
			var copied, shown string
			b.run("read the clipboard", chromedp.Evaluate(`navigator.clipboard.readText()`, &copied, func(p *runtime.EvaluateParams) *runtime.EvaluateParams {
				return p.WithAwaitPromise(true)
			}))
			b.eval(`document.getElementById('feed-`+tc.format+`').textContent`, &shown)
			if copied == "" || copied != shown || !strings.HasPrefix(copied, s.url+"/") {
				t.Fatalf("%s: copied %q, the page shows %q", tc.subscribe, copied, shown)
			}
			checkFeed(t, copied, tc.tag)
			var scroll int64
			b.eval(`document.documentElement.scrollWidth`, &scroll)
			if scroll > width {
				t.Errorf("%s is %d px wide on a %d px screen", tc.subscribe, scroll, width)
			}
		}
		// An anonymous visitor is told, on screen, that searching by
		// meaning needs signing in; the link signs in.
		b.run("open the feed", chromedp.Navigate(s.url+"/"), chromedp.WaitVisible(`main h1`, chromedp.ByQuery))
		var note struct {
			Text, Href string
			Visible    bool
		}
		b.eval(`(() => { const p = document.querySelector('form.search-box .search-note'); const r = p && p.getBoundingClientRect();
			return {text: p ? p.textContent : '', href: p && p.querySelector('a') ? p.querySelector('a').getAttribute('href') : '',
				visible: !!r && r.width > 0 && r.height > 0 && getComputedStyle(p).visibility === 'visible' && r.right <= innerWidth}; })()`, &note)
		if !note.Visible || !strings.Contains(note.Text, "needs an account") || !strings.HasPrefix(note.Href, "/sign-in?next=") {
			t.Errorf("at %d px the search box's note is %+v", width, note)
		}
	}
	b.checkClean()
}

// checkFeed fetches a feed's address and parses it as feed readers do;
// when tag is set, every item is in that category.
func checkFeed(t *testing.T, address, tag string) {
	t.Helper()
	resp, err := http.Get(address)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: %d %v", address, resp.StatusCode, err)
	}
	f, err := gofeed.NewParser().ParseString(string(body))
	if err != nil {
		t.Fatalf("%s does not parse as a feed: %v", address, err)
	}
	if len(f.Items) == 0 {
		t.Fatalf("%s has no items", address)
	}
	if tag != "" {
		for _, it := range f.Items {
			if !strings.Contains(strings.ToLower(strings.Join(it.Categories, " ")), tag) {
				t.Errorf("%s: item %s is not about %s (categories %q)", address, it.Link, tag, it.Categories)
				break
			}
		}
	}
}
