// Package browser drives a real Chromium through the website of
// `serve --demo`: the filter form, the pager and an article, and signing
// in through the outbox to create, use and revoke an API key, with
// JavaScript on (htmx navigates) and off (plain links and forms), checking
// the content, the console, the Content-Security-Policy, the layout at 360
// px and an axe-core accessibility audit.
//
// It needs Debian's chromium (`apt-get install -y chromium`) and the npm
// packages of this folder (`npm ci`); without them it skips, except under
// CI=true, where it fails. SIGNALS_SCREENSHOT_DIR keeps the screenshots.
package browser

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"signals/internal/app"
	"signals/internal/demo"
)

// required reports whether a missing tool fails the test instead of
// skipping it.
// eachWay runs test twice, with JavaScript on ("javascript") and off
// ("no-javascript"): every page must work either way.
func eachWay(t *testing.T, test func(t *testing.T, javascript bool)) {
	for _, javascript := range []bool{true, false} {
		t.Run(wayName(javascript), func(t *testing.T) { test(t, javascript) })
	}
}

func wayName(javascript bool) string {
	if javascript {
		return "javascript"
	}
	return "no-javascript"
}

// axeScript is axe-core, from test/browser's npm packages, which audit
// runs as a page script.
func axeScript(t *testing.T) []byte {
	t.Helper()
	axe, err := os.ReadFile(filepath.Join("node_modules", "axe-core", "axe.min.js"))
	need(t, "axe-core (run npm ci in test/browser)", err)
	return axe
}

func required() bool { return os.Getenv("CI") == "true" }

func need(t *testing.T, what string, err error) {
	t.Helper()
	if err == nil {
		return
	}
	if required() {
		t.Fatalf("%s: %v (CI=true: the browser test must run)", what, err)
	}
	t.Skipf("skipping the browser test: %s: %v", what, err)
}

// TestEmbeddedHTMXIsThePinnedPackage checks that the htmx the binary serves
// is byte for byte the one package.json pins (go generate ./internal/web
// copies it).
func TestEmbeddedHTMXIsThePinnedPackage(t *testing.T) {
	pinned, err := os.ReadFile(filepath.Join("node_modules", "htmx.org", "dist", "htmx.min.js"))
	need(t, "npm packages of test/browser (run npm ci there)", err)
	embedded, err := os.ReadFile(filepath.Join("..", "..", "internal", "web", "assets", "htmx.min.js"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(pinned, embedded) {
		t.Fatal("internal/web/assets/htmx.min.js differs from the pinned npm package: run go generate ./internal/web")
	}
}

// site is a demo service on a loopback port; its mail is written to the
// outbox folder.
type site struct {
	url    string
	outbox string
	app    *app.App
}

func startSite(t *testing.T) *site {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	ctx := context.Background()
	outbox := filepath.Join(t.TempDir(), "outbox")
	a, err := app.New(ctx, app.Config{BaseURL: base, Database: filepath.Join(t.TempDir(), "browser.db"),
		Mail: app.MailConfig{Outbox: outbox, DigestHour: 7}}, log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	if err := app.LoadDemo(ctx, a.Store(), demo.Records(), io.Discard, "signals", log); err != nil {
		t.Fatal(err)
	}
	// serve embeds new signals in the background; here they are embedded
	// before the first page, so that signal pages list related signals.
	if _, err := a.Search().IndexOnce(ctx); err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: a.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return &site{url: base, outbox: outbox, app: a}
}

// browser is one Chromium tab that records console errors, exceptions and
// CSP violations.
type browser struct {
	t   *testing.T
	ctx context.Context

	mu       sync.Mutex
	problems []string
}

func newBrowser(t *testing.T, javascript bool) *browser {
	t.Helper()
	path := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		need(t, "chromium", fmt.Errorf("not on PATH (apt-get install -y chromium)"))
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path),
		chromedp.NoSandbox, chromedp.Flag("disable-gpu", true), chromedp.WindowSize(1280, 900))
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(allocCtx)
	ctx, cancelTimeout := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(func() { cancelTimeout(); cancel(); cancelAlloc() })
	b := &browser{t: t, ctx: ctx}
	chromedp.ListenTarget(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.APITypeError || ev.Type == runtime.APITypeWarning {
				b.report("console %s: %s", ev.Type, args(ev.Args))
			}
		case *runtime.EventExceptionThrown:
			b.report("exception: %s", ev.ExceptionDetails.Error())
		case *cdplog.EventEntryAdded:
			if ev.Entry.Level == cdplog.LevelError || ev.Entry.Level == cdplog.LevelWarning {
				b.report("%s %s: %s", ev.Entry.Source, ev.Entry.Level, ev.Entry.Text)
			}
		}
	})
	actions := []chromedp.Action{cdplog.Enable(), runtime.Enable(),
		// A listener installed before any page script records every CSP
		// violation, including those the console does not show.
		chromedp.ActionFunc(func(ctx context.Context) error {
			_, err := page.AddScriptToEvaluateOnNewDocument(`window.__csp = [];
document.addEventListener('securitypolicyviolation', e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));`).Do(ctx)
			return err
		})}
	if !javascript {
		actions = append(actions, emulation.SetScriptExecutionDisabled(true))
	}
	if err := chromedp.Run(ctx, actions...); err != nil {
		need(t, "starting chromium", err)
	}
	return b
}

func args(list []*runtime.RemoteObject) string {
	var parts []string
	for _, a := range list {
		if a.Value != nil {
			parts = append(parts, string(a.Value))
		} else {
			parts = append(parts, a.Description)
		}
	}
	return strings.Join(parts, " ")
}

func (b *browser) report(format string, a ...any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.problems = append(b.problems, fmt.Sprintf(format, a...))
}

func (b *browser) run(what string, actions ...chromedp.Action) {
	b.t.Helper()
	if err := chromedp.Run(b.ctx, actions...); err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
}

func (b *browser) eval(expr string, out any) {
	b.t.Helper()
	b.run(expr, chromedp.Evaluate(expr, out))
}

// waitFor waits until a JavaScript condition holds (DevTools evaluates it
// even with the page's scripts off) and htmx, when it runs, has settled: it
// processes swapped-in content (boosting its links) as the swap settles,
// and a link clicked before then is followed by a full page load.
func (b *browser) waitFor(what, cond string) {
	b.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		// A plain navigation replaces the document under an evaluation:
		// such an error only means "not yet".
		var ok bool
		err := chromedp.Run(b.ctx, chromedp.Evaluate(`document.readyState === 'complete' && (`+cond+`) &&
			document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling') === null`, &ok))
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			var url string
			chromedp.Run(b.ctx, chromedp.Location(&url))
			b.t.Fatalf("%s: %s did not become true (at %s; last error %v)", what, cond, url, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// checkClean fails on any console error, exception or CSP violation seen
// so far.
func (b *browser) checkClean() {
	b.t.Helper()
	var csp []string
	b.eval(`window.__csp || []`, &csp)
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, p := range append(b.problems, csp...) {
		b.t.Errorf("browser: %s", p)
	}
	b.problems = nil
}

func TestWebsiteInChromium(t *testing.T) {
	eachWay(t, func(t *testing.T, javascript bool) {
		name := wayName(javascript)
		s := startSite(t)
		b := newBrowser(t, javascript)
		b.run("open /", chromedp.Navigate(s.url+"/"), chromedp.WaitVisible(`main h1`))
		var title string
		b.eval(`document.querySelector('main h1').textContent`, &title)
		if title != "Public feed" {
			t.Fatalf("h1 = %q", title)
		}
		if javascript {
			var loaded bool
			b.eval(`typeof htmx === 'object' && htmx.version.startsWith('2.')`, &loaded)
			if !loaded {
				t.Fatal("htmx did not load")
			}
			// A full page load would forget this: it shows that the
			// navigations below went through htmx.
			b.eval(`window.__sameDocument = true`, nil)
		}
		screenshot(t, b, "home-"+name)

		// Choose a filter in the form: with JavaScript the chip alone
		// submits it; without, the Filter button does. Empty fields
		// stay out of the address either way.
		choose := []chromedp.Action{chromedp.Click(`label.chip:has(input[value="funding"])`, chromedp.NodeVisible)}
		if !javascript {
			choose = append(choose, chromedp.Click(`form.filters button[type="submit"]`, chromedp.NodeVisible))
		}
		b.run("choose Funding", choose...)
		b.waitFor("filtered page", `location.search === '?tags=funding' && document.querySelector('.status').textContent.startsWith('Signals 1–20')`)
		b.allTags("Funding")

		// Follow the next page.
		b.run("next page", chromedp.Click(`a[rel="next"]`, chromedp.NodeVisible))
		b.waitFor("page 2", `location.search.includes('page=2') && document.querySelector('.pager .current').textContent === 'Page 2'`)
		b.allTags("Funding")
		var first string
		b.eval(`document.querySelector('.status').textContent`, &first)
		if !strings.HasPrefix(first, "Signals 21–") {
			t.Errorf("page 2 says %q", first)
		}

		// Open an article.
		b.run("articles", chromedp.Click(`nav.site-nav a[href="/articles"]`, chromedp.NodeVisible))
		b.waitFor("article list", `location.pathname === '/articles' && document.querySelector('.card a') !== null`)
		b.run("open article", chromedp.Click(`.card a[href="/articles/how-we-review"]`, chromedp.NodeVisible))
		b.waitFor("article", `location.pathname === '/articles/how-we-review' && document.querySelector('main h1').textContent === 'How a signal gets on the feed'`)
		if javascript {
			var same bool
			b.eval(`window.__sameDocument === true`, &same)
			if !same {
				t.Error("a navigation reloaded the page: htmx did not handle it")
			}
		}
		b.checkClean()
	})
}

// allTags checks that every signal on the page has the tag label.
func (b *browser) allTags(label string) {
	b.t.Helper()
	var tags []string
	b.eval(`Array.from(document.querySelectorAll('.signal .tag')).map(e => e.textContent)`, &tags)
	if len(tags) == 0 {
		b.t.Fatal("no signals on the page")
	}
	for _, tag := range tags {
		if tag != label {
			b.t.Fatalf("a %q signal on a %q page", tag, label)
		}
	}
}

// screenshot saves the whole page as name.jpg (JPEG quality 70: a long page
// is a few hundred kilobytes) under SIGNALS_SCREENSHOT_DIR (or a new
// temporary folder) and prints where.
func screenshot(t *testing.T, b *browser, name string) {
	t.Helper()
	dir := os.Getenv("SIGNALS_SCREENSHOT_DIR")
	if dir == "" {
		var err error
		if dir, err = os.MkdirTemp("", "signals-screenshots-"); err != nil {
			t.Fatal(err)
		}
	}
	var jpeg []byte
	b.run("screenshot", chromedp.FullScreenshot(&jpeg, 70))
	path := filepath.Join(dir, name+".jpg")
	if err := os.WriteFile(path, jpeg, 0o644); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(os.Stderr, "screenshot %s: %s\n", name, path)
}

// screenshots names the pages TestAccessibility keeps a picture of, at
// 1280 px and at 360 px (TestLayout takes those of the feed, a signal's
// page, the account page and the consent page).
var screenshots = map[string]string{"/developers/api": "developers-api"}

// TestAccessibility runs axe-core on one page of each kind, in the light
// and dark themes, and fails on any serious or critical violation; it also
// checks that nothing overflows a 360 px wide screen.
func TestAccessibility(t *testing.T) {
	axe := axeScript(t)
	s := startSite(t)
	b := newBrowser(t, true)
	pages := []string{"/", "/?tags=funding&country=france", "/hubs", "/hubs/funding", "/articles",
		"/articles/welcome", "/about", "/contact", "/developers", "/developers/api", "/developers/mcp", "/developers/errors", "/nothing", "/?page_size=99",
		"/privacy", "/signals/tf-2026-11-0023", "/?tags=funding&q=zzzz+qqqq",
		"/sign-in", "/sign-in/confirm?token=short", "/search?query=robots+raising+money",
		"/subscribe?tags=funding&country=france", "/hubs/funding/subscribe"}
	b.run("open /", chromedp.Navigate(s.url+"/"), chromedp.WaitVisible(`main`, chromedp.ByQuery))
	for _, scheme := range []string{"light", "dark"} {
		b.run("color scheme", emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}))
		for _, path := range pages {
			b.run("open "+path, chromedp.Navigate(s.url+path), chromedp.WaitVisible(`main`, chromedp.ByQuery))
			b.audit(axe, path+" ("+scheme+")")
			if shot, ok := screenshots[path]; ok && scheme == "light" {
				screenshot(t, b, shot+"-1280")
			}
		}
	}
	b.run("360 px", emulation.SetDeviceMetricsOverride(360, 800, 2, true), chromedp.Navigate(s.url+"/"), chromedp.WaitVisible(`main`, chromedp.ByQuery))
	for _, path := range pages {
		b.run("open "+path, chromedp.Navigate(s.url+path), chromedp.WaitVisible(`main`, chromedp.ByQuery))
		var width int
		b.eval(`document.documentElement.scrollWidth`, &width)
		if width > 360 {
			t.Errorf("%s is %d px wide on a 360 px screen", path, width)
		}
		b.audit(axe, path+" (360 px)") // what scrolls sideways there must take the keyboard
		if shot, ok := screenshots[path]; ok {
			screenshot(t, b, shot+"-360")
		}
	}
	// Two of the pages are an error page on purpose; their status shows in
	// the console as a failed load, which is not a fault.
	b.forgive("the server responded with a status of 40")
	b.checkClean()
}

// forgive drops the console problems that contain text: what a test
// caused on purpose, such as the failed load of an error page.
func (b *browser) forgive(text string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	kept := b.problems[:0]
	for _, p := range b.problems {
		if !strings.Contains(p, text) {
			kept = append(kept, p)
		}
	}
	b.problems = kept
}
