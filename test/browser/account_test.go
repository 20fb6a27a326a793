package browser

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// TestAccountInChromium signs in as a new person would: asks for a link on
// /sign-in, reads it from the mail the service wrote to its outbox, opens
// it and presses the button; then, on /account, creates a key, reads it
// from the page, uses it against the HTTP API, revokes it and sees the
// next call refused. With JavaScript on, the account's forms go through
// htmx; off, they are plain forms. The console must stay free of errors
// and CSP violations throughout.
func TestAccountInChromium(t *testing.T) {
	eachWay(t, func(t *testing.T, javascript bool) {
		name := wayName(javascript)
		axe := axeScript(t)
		s := startSite(t)
		b := newBrowser(t, javascript)
		email := "reader-" + name + "@example.com"

		b.run("open /sign-in", chromedp.Navigate(s.url+"/sign-in"), chromedp.WaitVisible(`#email`, chromedp.ByQuery))
		b.wantNav("Sign in")
		b.run("ask for a link", chromedp.SendKeys(`#email`, email, chromedp.ByQuery),
			chromedp.Click(`form[action="/sign-in"] button[type="submit"]`, chromedp.ByQuery, chromedp.NodeVisible))
		b.waitFor("check your email", `document.querySelector('main h1').textContent === 'Check your email'`)

		link := s.signInLink(t, email)
		b.run("open the link", chromedp.Navigate(link), chromedp.WaitVisible(`form[action="/sign-in/confirm"] button`, chromedp.ByQuery))
		b.run("confirm", chromedp.Click(`form[action="/sign-in/confirm"] button[type="submit"]`, chromedp.ByQuery))
		b.waitFor("the account", `location.pathname === '/account' && document.querySelector('main h1').textContent === 'Your account'`)
		b.wantNav("Account")
		if javascript { // axe-core runs as a page script
			b.audit(axe, "/account")
		}
		if javascript {
			// A full page load would forget this: it shows that the
			// forms below went through htmx.
			b.eval(`window.__sameDocument = true`, nil)
		}

		b.run("create a key", chromedp.SendKeys(`#key-name`, "browser key", chromedp.ByQuery),
			chromedp.Click(`form[action="/account/keys"] button[type="submit"]`, chromedp.ByQuery))
		b.waitFor("the new key", `document.querySelector('#new-key') !== null`)
		var key string
		b.eval(`document.querySelector('#new-key').textContent.trim()`, &key)
		if !regexp.MustCompile(`^sig_[0-9A-Za-z]{38}$`).MatchString(key) {
			t.Fatalf("the page shows %q as the new key", key)
		}
		if javascript {
			b.audit(axe, "the new key")
		}
		b.fitsAPhone(axe, javascript)
		var stored string
		b.eval(`JSON.stringify(window.localStorage) + JSON.stringify(window.sessionStorage)`, &stored)
		if strings.Contains(stored, key) {
			t.Error("the browser keeps the key in its storage")
		}
		if got := apiStatus(t, s.url+"/api/v1/signals?page_size=1", key); got != http.StatusOK {
			t.Fatalf("GET /api/v1/signals with the new key: %d, want 200", got)
		}

		// Revoking asks first, on a page of its own.
		b.run("revoke", chromedp.Click(`//a[starts-with(normalize-space(.), "Revoke…")][.//bdi[.="browser key"]]`, chromedp.BySearch, chromedp.NodeVisible))
		b.waitFor("the confirmation", `/^\/account\/keys\/[^/]+\/revoke$/.test(location.pathname) &&
				document.querySelector('main h1').textContent.includes('browser key')`)
		b.run("confirm the revocation", chromedp.Click(`form[action$="/revoke"] button[type="submit"]`, chromedp.ByQuery, chromedp.NodeVisible))
		b.waitFor("revoked", `location.pathname === '/account' && document.querySelector('.notice') !== null &&
				document.querySelector('.notice').textContent.startsWith('The key is revoked')`)
		var shownAgain bool
		b.eval(`document.body.textContent.includes(`+jsString(key)+`)`, &shownAgain)
		if shownAgain {
			t.Error("the key is shown again after the page that created it")
		}
		if got := apiStatus(t, s.url+"/api/v1/signals?page_size=1", key); got != http.StatusUnauthorized {
			t.Errorf("GET /api/v1/signals with the revoked key: %d, want 401", got)
		}
		if javascript {
			var same bool
			b.eval(`window.__sameDocument === true`, &same)
			if !same {
				t.Error("a form reloaded the page: htmx did not handle it")
			}
		}
		b.checkClean()
	})
}

// fitsAPhone checks the account page on a 360 px screen: axe-core finds no
// serious violation (with JavaScript), the page does not
// scroll sideways, every Revoke button shows whole, a key's prefix, dates and
// "never" each stay on one line, every caption shows whole, and the chart
// fits the screen (TestLayout checks its labels' size).
func (b *browser) fitsAPhone(axe []byte, javascript bool) {
	b.t.Helper()
	b.run("360 px", emulation.SetDeviceMetricsOverride(360, 800, 2, true))
	defer b.run("back to 1280 px", emulation.ClearDeviceMetricsOverride())
	if javascript { // axe-core runs as a page script
		b.audit(axe, "/account (360 px)")
	}
	var got struct {
		Width, Revoke, Chart float64 // Chart: where the chart ends
		Split, Cut           []string
	}
	b.eval(`({
		width: document.documentElement.scrollWidth,
		revoke: Math.max(...Array.from(document.querySelectorAll('#keys td button')).map(e => e.getBoundingClientRect().right)),
		chart: document.querySelector('svg.chart').getBoundingClientRect().right,
		split: Array.from(document.querySelectorAll('#keys td[data-label]')).filter(td =>
			td.getBoundingClientRect().height > 1.5 * parseFloat(getComputedStyle(td).lineHeight)).map(td => td.textContent),
		cut: Array.from(document.querySelectorAll('.account-area caption, .account-area figcaption')).filter(c => {
			const r = document.createRange();
			r.selectNodeContents(c);
			// Within the screen, and within the box that scrolls it.
			const box = (c.closest('.table') || c.parentElement).getBoundingClientRect();
			return r.getBoundingClientRect().right > Math.min(360, box.right) + 0.5;
		}).map(c => c.textContent),
	})`, &got)
	if got.Width > 360 {
		b.t.Errorf("/account is %v px wide on a 360 px screen", got.Width)
	}
	if got.Revoke > 360 {
		b.t.Errorf("a Revoke button ends at %v px on a 360 px screen", got.Revoke)
	}
	if got.Chart > 360 {
		b.t.Errorf("the usage chart ends at %v px on a 360 px screen", got.Chart)
	}
	if len(got.Split) > 0 {
		b.t.Errorf("key facts wrap on a 360 px screen: %q", got.Split)
	}
	if len(got.Cut) > 0 {
		b.t.Errorf("captions run past a 360 px screen: %q", got.Cut)
	}
}

// wantNav checks that the main navigation ends with the entry named label
// (Sign in, or Account), and offers not the other one.
func (b *browser) wantNav(label string) {
	b.t.Helper()
	var entries []string
	b.eval(`Array.from(document.querySelectorAll('nav.site-nav a')).map(a => a.textContent)`, &entries)
	if len(entries) == 0 || entries[len(entries)-1] != label {
		b.t.Errorf("navigation %v, want it to end with %q", entries, label)
	}
	other := map[string]string{"Sign in": "Account", "Account": "Sign in"}[label]
	if slices.Contains(entries, other) {
		b.t.Errorf("navigation %v offers %q too", entries, other)
	}
}

// signInLink waits for the mail to email in the outbox (one RFC 5322 file
// per message) and returns the sign-in link it holds.
func (s *site) signInLink(t *testing.T, email string) string {
	t.Helper()
	pattern := regexp.MustCompile(regexp.QuoteMeta(s.url) + `/sign-in/confirm\?token=[A-Za-z0-9_-]{43}`)
	deadline := time.Now().Add(10 * time.Second)
	for {
		files, _ := filepath.Glob(filepath.Join(s.outbox, "*.eml"))
		for _, f := range files {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(raw), email) {
				if link := pattern.FindString(string(raw)); link != "" {
					return link
				}
				t.Fatalf("the mail to %s holds no sign-in link:\n%s", email, raw)
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no mail to %s in %s (%d files)", email, s.outbox, len(files))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// apiStatus calls GET address over HTTP with key and returns the status.
func apiStatus(t *testing.T, address, key string) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, address, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// audit runs axe-core on the current page and reports its serious and
// critical violations under label.
func (b *browser) audit(axe []byte, label string) {
	b.t.Helper()
	var result struct {
		Violations []struct {
			ID, Impact, Help string
			Nodes            []struct{ Target []any }
		}
	}
	var raw json.RawMessage
	b.run("axe", chromedp.Evaluate(string(axe)+"\n;true", nil),
		chromedp.Evaluate(`axe.run(document, {runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']}).then(r => ({violations: r.violations}))`,
			&raw, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
	if err := json.Unmarshal(raw, &result); err != nil {
		b.t.Fatal(err)
	}
	for _, v := range result.Violations {
		if v.Impact == "serious" || v.Impact == "critical" {
			b.t.Errorf("%s: %s %s: %s, at %v", label, v.Impact, v.ID, v.Help, fmt.Sprint(v.Nodes))
		}
	}
}
