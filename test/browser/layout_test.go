package browser

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// screen is a viewport the layout test looks through.
type screen struct{ width, height int64 }

var (
	phone   = screen{360, 740}
	desktop = screen{1280, 800}
)

func (sc screen) String() string { return fmt.Sprintf("%d px", sc.width) }

// use sets the viewport of b to sc (a phone at twice the pixel density).
func (b *browser) use(sc screen) {
	b.t.Helper()
	scale := 1.0
	if sc == phone {
		scale = 2
	}
	b.run("viewport "+sc.String(), emulation.SetDeviceMetricsOverride(sc.width, sc.height, scale, sc == phone))
}

// TestLayout looks at the pages people land on, share and use, on a phone
// (360 × 740 px) and a desktop screen (1280 × 800 px): the feed's first
// screen (a one-row or folded navigation, the filters folded on the phone
// and open on the desktop, the first signal above the fold), the card
// details (metadata that wraps without a leading separator, "Details" and
// "Source" on one row), the account page (a chart that fits, revoked keys
// as cards like the active ones, each checkbox on its label's line, the
// copy button the size of its key box) and the OAuth consent page (Allow
// and Deny above the fold); no page scrolls sideways. It keeps
// screenshots of each page at both widths: home, signal, account and
// consent, NAME-WIDTH.jpg.
func TestLayout(t *testing.T) {
	s := startSite(t)
	client := s.registerClient(t, "Layout <Check>")
	b := newBrowser(t, true)
	b.signIn(s, "layout@example.com")

	// One revoked key, then a new one shown once.
	b.createKey("old key")
	var key string
	b.eval(`document.querySelector('#new-key').textContent.trim()`, &key)
	for range 3 {
		if got := apiStatus(t, s.url+"/api/v1/signals?page_size=1", key); got != http.StatusOK {
			t.Fatalf("GET /api/v1/signals with the new key: %d", got)
		}
	}
	b.run("revoke", chromedp.Click(`//a[starts-with(normalize-space(.), "Revoke…")][.//bdi[.="old key"]]`, chromedp.BySearch, chromedp.NodeVisible))
	b.waitFor("the confirmation", `/^\/account\/keys\/[^/]+\/revoke$/.test(location.pathname)`)
	b.run("confirm the revocation", chromedp.Click(`form[action$="/revoke"] button[type="submit"]`, chromedp.ByQuery, chromedp.NodeVisible))
	b.waitFor("revoked", `location.pathname === '/account' && document.querySelector('.notice') !== null`)
	b.createKey("phone key")
	for _, sc := range []screen{phone, desktop} {
		b.use(sc)
		b.checkAccount(sc)
		screenshot(t, b, fmt.Sprintf("account-%d", sc.width))
	}

	authorize := s.url + "/oauth/authorize?" + url.Values{"response_type": {"code"}, "client_id": {client},
		"redirect_uri": {"http://127.0.0.1:9/callback"}, "code_challenge": {strings.Repeat("a", 43)},
		"code_challenge_method": {"S256"}, "resource": {s.url + "/mcp"}, "scope": {"signals:read signals:search"},
		"state": {"layout"}}.Encode()
	for _, sc := range []screen{phone, desktop} {
		b.use(sc)
		b.open(s.url + "/")
		b.checkFeed(sc, true)
		screenshot(t, b, fmt.Sprintf("home-%d", sc.width))

		b.open(s.url + "/?tags=funding&country=france")
		var summary string
		b.eval(`(document.querySelector('form.filters summary') || {}).textContent || ''`, &summary)
		if sc == phone && (!strings.Contains(summary, "Funding") || !strings.Contains(summary, "France")) {
			t.Errorf("%s: the folded filters read %q, without the active Funding and France", sc, summary)
		}
		b.checkCards(sc)
		b.noOverflow(sc, "/?tags=funding&country=france")

		b.open(s.url + "/signals/" + url.PathEscape("tf-2026-11-0023"))
		b.noOverflow(sc, "a signal's page")
		b.checkCopyButtons(sc, "a signal's page")
		screenshot(t, b, fmt.Sprintf("signal-%d", sc.width))

		b.open(authorize)
		b.checkConsent(sc)
		screenshot(t, b, fmt.Sprintf("consent-%d", sc.width))
	}

	// With JavaScript, choosing a filter on the phone swaps the feed in
	// place and keeps the filters open for the next choice.
	b.use(phone)
	b.open(s.url + "/")
	b.run("open the filters", chromedp.Click(`form.filters summary`, chromedp.ByQuery, chromedp.NodeVisible))
	b.run("choose Funding", chromedp.Click(`label.chip:has(input[value="funding"])`, chromedp.ByQuery, chromedp.NodeVisible))
	b.waitFor("filtered page", `location.search === '?tags=funding'`)
	var open bool
	b.eval(`document.querySelector('label.chip:has(input[value="funding"])').checkVisibility()`, &open)
	if !open {
		t.Error("the filters folded again after a choice on the phone")
	}
	b.checkClean()
}

// TestLayoutWithoutJavaScript: the folded navigation and filters open and
// work with plain HTML on the phone, and both are open on the desktop.
func TestLayoutWithoutJavaScript(t *testing.T) {
	s := startSite(t)
	b := newBrowser(t, false)
	for _, sc := range []screen{phone, desktop} {
		b.use(sc)
		b.open(s.url + "/")
		b.checkFeed(sc, false)
	}
	b.use(phone)
	b.open(s.url + "/")
	b.run("open the menu", chromedp.Click(`.site-header summary`, chromedp.ByQuery, chromedp.NodeVisible))
	b.run("follow Articles", chromedp.Click(`nav.site-nav a[href="/articles"]`, chromedp.ByQuery, chromedp.NodeVisible))
	b.waitFor("articles", `location.pathname === '/articles'`)
	b.open(s.url + "/")
	b.run("open the filters", chromedp.Click(`form.filters summary`, chromedp.ByQuery, chromedp.NodeVisible))
	b.run("choose Funding", chromedp.Click(`label.chip:has(input[value="funding"])`, chromedp.ByQuery, chromedp.NodeVisible),
		chromedp.Click(`form.filters button[type="submit"]`, chromedp.ByQuery, chromedp.NodeVisible))
	b.waitFor("filtered page", `location.search === '?tags=funding' && document.querySelector('.signal .tag').textContent === 'Funding'`)
	b.checkClean()
}

func (b *browser) open(address string) {
	b.t.Helper()
	b.run("open "+address, chromedp.Navigate(address), chromedp.WaitVisible(`main`, chromedp.ByQuery))
	b.waitFor("the page", `true`)
}

// checkFeed checks the first screen of the feed: the navigation on one
// row, or folded behind one control; the filters folded on the phone and
// open on the desktop; the first signal's card, with its metadata line,
// above the fold; nothing wider than the screen. signedIn is whether the
// navigation ends with Account (with JavaScript, the test signs in).
func (b *browser) checkFeed(sc screen, signedIn bool) {
	b.t.Helper()
	var got struct {
		Header         float64
		Links, Shown   int
		Rows           int
		MenuShown      bool
		Chips, Summary bool
		Card, Meta     float64
		Cards          int
	}
	b.eval(`(() => {
		const shown = e => e !== null && e.checkVisibility({visibilityProperty: true});
		const links = Array.from(document.querySelectorAll('nav.site-nav a'));
		const visible = links.filter(shown);
		const tops = visible.map(a => a.getBoundingClientRect().top).sort((x, y) => x - y);
		const card = document.querySelector('.signals .signal');
		return {
			header: document.querySelector('.site-header').getBoundingClientRect().height,
			links: links.length, shown: visible.length,
			rows: tops.filter((t, i) => i === 0 || t - tops[i - 1] > 2).length,
			menuShown: shown(document.querySelector('.site-header summary')),
			chips: shown(document.querySelector('form.filters label.chip')),
			summary: shown(document.querySelector('form.filters summary')),
			card: card ? card.getBoundingClientRect().top : -1,
			meta: card ? card.querySelector('.signal-meta').getBoundingClientRect().bottom : -1,
			cards: document.querySelectorAll('.signals .signal').length,
		};
	})()`, &got)
	if got.Header > 72 {
		b.t.Errorf("%s: the header is %v px high, more than one row", sc, got.Header)
	}
	switch {
	case got.Shown == got.Links && got.Rows == 1 && !got.MenuShown:
		// one row
	case sc == phone && got.Shown == 0 && got.MenuShown:
		// folded behind one control
	default:
		b.t.Errorf("%s: %d of %d navigation links show, on %d rows (menu control shown: %v); want one row%s",
			sc, got.Shown, got.Links, got.Rows, got.MenuShown, map[bool]string{true: " or a folded menu", false: ""}[sc == phone])
	}
	if sc == phone && (got.Chips || !got.Summary) {
		b.t.Errorf("%s: the filters are not folded behind one control (chips shown: %v, control shown: %v)", sc, got.Chips, got.Summary)
	}
	if sc == desktop && (!got.Chips || got.Summary) {
		b.t.Errorf("%s: the filters are not open (chips shown: %v, fold control shown: %v)", sc, got.Chips, got.Summary)
	}
	if got.Cards == 0 {
		b.t.Fatalf("%s: no signal on the feed", sc)
	}
	if got.Card < 0 || got.Meta > float64(sc.height) {
		b.t.Errorf("%s: the first signal's card starts at %v px and its first line ends at %v px, below the fold at %d px", sc, got.Card, got.Meta, sc.height)
	}
	b.checkCards(sc)
	b.noOverflow(sc, "/")
	b.wantNav(map[bool]string{true: "Account", false: "Sign in"}[signedIn])
}

// checkCards checks the cards of a feed page: in every card, "Details" and
// "Source" sit side by side on one row, and no metadata line starts with a
// separator (on the phone, some lines wrap, so that this is seen).
func (b *browser) checkCards(sc screen) {
	b.t.Helper()
	var got struct {
		Apart   []string
		Leading []string
		Wrapped int
	}
	b.eval(`(() => {
		const out = {apart: [], leading: [], wrapped: 0};
		for (const card of document.querySelectorAll('.signals .signal')) {
			const d = card.querySelector('.permalink').getBoundingClientRect();
			const s = card.querySelector('.source').getBoundingClientRect();
			if (Math.abs(d.top - s.top) > 2 || s.left - d.right > 32 || s.left < d.right) {
				out.apart.push(card.getAttribute('aria-label') + ': Details at ' + [d.left, d.top] + ', Source at ' + [s.left, s.top]);
			}
			const meta = card.querySelector('.signal-meta');
			const box = meta.getBoundingClientRect();
			const left = box.left + parseFloat(getComputedStyle(meta).paddingLeft);
			const items = Array.from(meta.children);
			items.forEach((item, i) => {
				const r = item.getBoundingClientRect();
				if (i === 0 || r.top - items[i - 1].getBoundingClientRect().top < 2) return;
				out.wrapped++;
				// The item starts a line: a separator before it must not show.
				const before = getComputedStyle(item, '::before');
				if (before.content === 'none' || before.content === 'normal' || before.display === 'none') return;
				const clip = getComputedStyle(meta).overflowX;
				const sepRight = r.left + parseFloat(before.left || 0) + parseFloat(before.width || 0);
				if (before.position === 'absolute' && (clip === 'hidden' || clip === 'clip') && sepRight <= left + 0.5) return;
				out.leading.push(card.getAttribute('aria-label') + ': ' + item.textContent);
			});
		}
		return out;
	})()`, &got)
	for _, a := range got.Apart {
		b.t.Errorf("%s: Details and Source are not side by side on one row: %s", sc, a)
	}
	for _, l := range got.Leading {
		b.t.Errorf("%s: a metadata line starts with a separator: %s", sc, l)
	}
	if sc == phone && got.Wrapped == 0 {
		b.t.Errorf("%s: no metadata line wraps, so the separators were not checked", sc)
	}
}

// noOverflow checks that the page does not scroll sideways.
func (b *browser) noOverflow(sc screen, what string) {
	b.t.Helper()
	var width float64
	b.eval(`document.documentElement.scrollWidth`, &width)
	if width > float64(sc.width) {
		b.t.Errorf("%s: %s is %v px wide", sc, what, width)
	}
}

// checkAccount checks the account page: nothing wider than the screen;
// the usage chart within the screen, today's bars included, its labels at
// least 11 px; active and revoked keys in the same layout, every fact of a
// revoked key shown whole; each checkbox and radio button of Email
// interests on the line of its label; the rename control on one line; a
// gap between Sign out and the section links; the copy button as high as
// the key box beside it.
func (b *browser) checkAccount(sc screen) {
	b.t.Helper()
	b.noOverflow(sc, "/account")
	var got struct {
		Chart   struct{ Left, Right, Width float64 }
		Bars    float64
		Label   float64
		Layouts []string
		Cut     []string
		Apart   []string
		Rename  float64
		Line    float64
		Gap     float64
	}
	b.eval(`(() => {
		document.querySelectorAll('#interests details').forEach(d => d.open = true);
		const rect = e => {
			const r = e.getBoundingClientRect();
			return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height};
		};
		const chart = rect(document.querySelector('svg.chart'));
		const cut = [];
		for (const td of document.querySelectorAll('#keys td[data-label], #keys td:first-child')) {
			const r = document.createRange();
			r.selectNodeContents(td);
			const box = (td.closest('.table') || td).getBoundingClientRect();
			if (r.getBoundingClientRect().right > Math.min(innerWidth, box.right) + 0.5) cut.push(td.textContent.trim());
		}
		const apart = [];
		for (const input of document.querySelectorAll('#interests input[type=checkbox], #interests input[type=radio]')) {
			const label = document.querySelector('label[for="' + input.id + '"]');
			const text = document.createRange();
			text.selectNodeContents(label);
			const line = text.getClientRects()[0];
			const r = rect(input);
			const mid = (r.top + r.bottom) / 2;
			if (mid < line.top || mid > line.bottom || r.left > line.left) apart.push(label.textContent);
		}
		const signOut = rect(document.querySelector('form[action="/sign-out"] button'));
		const sections = rect(document.querySelector('nav[aria-label="Account sections"]'));
		const summary = document.querySelector('#keys summary');
		return {
			chart: chart,
			bars: Math.max(...Array.from(document.querySelectorAll('svg.chart rect')).map(e => rect(e).right)),
			label: Math.min(...Array.from(document.querySelectorAll('svg.chart text')).map(e => rect(e).height)),
			layouts: Array.from(document.querySelectorAll('#keys table')).map(t =>
				getComputedStyle(t.querySelector('tbody tr')).display + ' ' + getComputedStyle(t.querySelector('thead')).position),
			cut: cut, apart: apart,
			rename: rect(summary).height, line: parseFloat(getComputedStyle(summary).lineHeight),
			gap: sections.top - signOut.bottom,
		};
	})()`, &got)
	if got.Chart.Left < 0 || got.Chart.Right > float64(sc.width) || got.Bars > float64(sc.width) {
		b.t.Errorf("%s: the usage chart spans %v–%v px and its bars end at %v px, past the screen", sc, got.Chart.Left, got.Chart.Right, got.Bars)
	}
	if got.Label < 11 {
		b.t.Errorf("%s: the chart's smallest label is %v px high, want at least 11", sc, got.Label)
	}
	if len(got.Layouts) != 2 {
		b.t.Errorf("%s: %d key tables, want the active and the revoked keys", sc, len(got.Layouts))
	} else if got.Layouts[0] != got.Layouts[1] {
		b.t.Errorf("%s: active and revoked keys are laid out differently: %q", sc, got.Layouts)
	}
	if len(got.Cut) > 0 {
		b.t.Errorf("%s: key facts run past the screen: %q", sc, got.Cut)
	}
	if len(got.Apart) > 0 {
		b.t.Errorf("%s: these Email interests' boxes are not on their label's line: %q", sc, got.Apart)
	}
	if got.Rename > 1.5*got.Line {
		b.t.Errorf("%s: the rename control is %v px high, more than one %v px line", sc, got.Rename, got.Line)
	}
	if got.Gap < 8 {
		b.t.Errorf("%s: %v px between Sign out and the section links, want at least 8", sc, got.Gap)
	}
	b.checkCopyButtons(sc, "/account")
}

// checkCopyButtons checks that every copy button on the page shows beside
// the box it copies, as high as that box (the account's new key, a
// signal's id).
func (b *browser) checkCopyButtons(sc screen, what string) {
	b.t.Helper()
	var got []struct {
		ID                                   string
		Top, Bottom, ButtonTop, ButtonBottom float64
	}
	b.eval(`Array.from(document.querySelectorAll('button[data-copy]')).map(button => {
		const box = document.getElementById(button.dataset.copy).getBoundingClientRect();
		const r = button.getBoundingClientRect();
		return {id: button.dataset.copy, top: box.top, bottom: box.bottom, buttonTop: r.top, buttonBottom: r.bottom};
	})`, &got)
	if len(got) == 0 {
		b.t.Errorf("%s: %s has no copy button", sc, what)
	}
	for _, c := range got {
		if c.ButtonBottom-c.ButtonTop < 1 || math.Abs(c.Top-c.ButtonTop) > 1 || math.Abs(c.Bottom-c.ButtonBottom) > 1 {
			b.t.Errorf("%s: on %s, #%s spans %v–%v px and its copy button %v–%v px", sc, what, c.ID, c.Top, c.Bottom, c.ButtonTop, c.ButtonBottom)
		}
	}
}

// checkConsent checks the OAuth consent page: Allow and Deny above the
// fold, nothing wider than the screen.
func (b *browser) checkConsent(sc screen) {
	b.t.Helper()
	var bottom float64
	b.eval(`Math.max(...Array.from(document.querySelectorAll('button[name="decision"]')).map(e => e.getBoundingClientRect().bottom))`, &bottom)
	if bottom > float64(sc.height) || bottom <= 0 {
		b.t.Errorf("%s: Allow and Deny end at %v px, below the fold at %d px", sc, bottom, sc.height)
	}
	b.noOverflow(sc, "the consent page")
}

// signIn signs in as email through /sign-in and the link the service
// mails to the outbox, and ends on /account.
func (b *browser) signIn(s *site, email string) {
	b.t.Helper()
	b.run("open /sign-in", chromedp.Navigate(s.url+"/sign-in"), chromedp.WaitVisible(`#email`, chromedp.ByQuery))
	b.run("ask for a link", chromedp.SendKeys(`#email`, email, chromedp.ByQuery),
		chromedp.Click(`form[action="/sign-in"] button[type="submit"]`, chromedp.ByQuery, chromedp.NodeVisible))
	b.waitFor("check your email", `document.querySelector('main h1').textContent === 'Check your email'`)
	b.run("open the link", chromedp.Navigate(s.signInLink(b.t, email)), chromedp.WaitVisible(`form[action="/sign-in/confirm"] button`, chromedp.ByQuery))
	b.run("confirm", chromedp.Click(`form[action="/sign-in/confirm"] button[type="submit"]`, chromedp.ByQuery))
	b.waitFor("the account", `location.pathname === '/account' && document.querySelector('main h1').textContent === 'Your account'`)
}

// createKey creates a key named name on /account and waits for it.
func (b *browser) createKey(name string) {
	b.t.Helper()
	b.run("create "+name, chromedp.SendKeys(`#key-name`, name, chromedp.ByQuery),
		chromedp.Click(`form[action="/account/keys"] button[type="submit"]`, chromedp.ByQuery))
	b.waitFor("the new key", `document.querySelector('#new-key') !== null && document.querySelector('.notice bdi').textContent === `+jsString(name))
}

// registerClient registers a public OAuth client named name, redirecting
// to 127.0.0.1:9, and returns its client_id.
func (s *site) registerClient(t *testing.T, name string) string {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"client_name": name, "redirect_uris": []string{"http://127.0.0.1:9/callback"}})
	resp, err := http.Post(s.url+"/oauth/register", "application/json", strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out struct {
		ClientID string `json:"client_id"`
	}
	if err := json.Unmarshal(raw, &out); err != nil || resp.StatusCode != http.StatusCreated || out.ClientID == "" {
		t.Fatalf("register: %d %s", resp.StatusCode, raw)
	}
	return out.ClientID
}
