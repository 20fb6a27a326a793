package web_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"signals/internal/apptest"
	"signals/internal/model"
)

// /contact shows the operator's address as a mailto: link, or their own
// contact article, which wins; with neither it says plainly that there is
// none, and never tells readers how an operator publishes one.
func TestContactPage(t *testing.T) {
	t.Parallel()
	withEmail := func(t *testing.T) *apptest.App {
		cfg := apptest.Config(t)
		cfg.ContactEmail = " editors_desk@example.org "
		return apptest.StartWith(t, cfg, apptest.Discard())
	}
	for _, tt := range []struct {
		name       string
		app        func(t *testing.T) *apptest.App
		html, md   string
		notAnyMore string
	}{
		{"setting", withEmail,
			`<a href="mailto:editors_desk@example.org">editors_desk@example.org</a>`,
			`[editors\_desk\@example\.org](mailto:editors_desk@example.org)`, "not published"},
		{"article", func(t *testing.T) *apptest.App {
			ta := withEmail(t)
			if err := ta.Store().PutArticles(context.Background(), []model.Article{{Slug: "contact", Title: "Reach us",
				PublishedAt: time.Date(2026, 10, 5, 0, 0, 0, 0, time.UTC), Body: "Call the desk on 555-0100.\n"}}); err != nil {
				t.Fatal(err)
			}
			return ta
		}, "Call the desk on 555-0100.", "Call the desk on 555-0100.", "editors_desk"},
		{"neither", func(t *testing.T) *apptest.App { return apptest.Start(t) },
			"have not published a way to contact them", "have not published a way to contact them", "mailto:"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ta := tt.app(t)
			for _, f := range []struct{ accept, want string }{{"text/html", tt.html}, {"text/markdown", tt.md}} {
				resp, body := ta.Get("/contact", "Authorization", "", "Accept", f.accept)
				if resp.StatusCode != 200 || !bytes.Contains(body, []byte(f.want)) {
					t.Errorf("%s: %d, want %q in\n%s", f.accept, resp.StatusCode, f.want, body)
				}
				for _, bad := range []string{tt.notAnyMore, "import", "slug", "operator"} {
					if bytes.Contains(body, []byte(bad)) {
						t.Errorf("%s: the page says %q:\n%s", f.accept, bad, body)
					}
				}
			}
		})
	}
}

// /privacy says what is kept, why, for how long and how to delete it, in
// HTML and Markdown; every page's footer links to it, and the sitemap
// lists it.
func TestPrivacyPage(t *testing.T) {
	t.Parallel()
	ta := apptest.StartSite(t)
	for _, accept := range []string{"text/html", "text/markdown"} {
		resp, body := ta.Get("/privacy", "Authorization", "", "Accept", accept)
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d\n%s", accept, resp.StatusCode, body)
		}
		for _, want := range []string{"email address", "Sessions", "30 days, renewed", "15 minutes", "Usage counts",
			"Email interests and digests", "OAuth connections", "deleted after a day", "stored as a hash",
			"Revoke an API key", "Disconnect an app", "Stop email interests", "Delete the account",
			"have not published a contact address"} {
			if !bytes.Contains(body, []byte(want)) {
				t.Errorf("%s: no %q", accept, want)
			}
		}
	}
	if resp, body := ta.Get("/privacy.md", "Authorization", ""); resp.StatusCode != 200 || !bytes.HasPrefix(body, []byte("# Privacy\n")) {
		t.Errorf("/privacy.md: %d\n%.200s", resp.StatusCode, body)
	}
	for _, path := range []string{"/", "/signals/plain-1", "/hubs", "/developers/api", "/contact", "/privacy", "/nothing"} {
		_, body := ta.Get(path, "Authorization", "")
		if !bytes.Contains(body, []byte(`<footer class="site-footer">`)) ||
			!bytes.Contains(body[bytes.Index(body, []byte(`<footer`)):], []byte(`<a href="/privacy">Privacy</a>`)) {
			t.Errorf("%s: the footer does not link to /privacy", path)
		}
	}
	b := apptest.SignedIn(t, ta)
	if body := b.MustGet(t, "/account"); !strings.Contains(body, `<a href="/privacy">Privacy</a>`) {
		t.Error("the account page's footer does not link to /privacy")
	}
	if _, body := ta.Get("/sitemap.xml", "Authorization", ""); !bytes.Contains(body, []byte("<loc>https://signals.example/privacy</loc>")) {
		t.Errorf("the sitemap does not list /privacy:\n%s", body)
	}
}

// An empty feed suggests the next step: a link per active filter that
// drops it, fewer words, and for a signed-in reader the same words as a
// semantic search.
func TestEmptyFeedSuggests(t *testing.T) {
	t.Parallel()
	ta := apptest.StartSite(t)
	path := "/?tags=job,funding&country=canada&q=" + "quantum+robot+llama"
	want := []string{
		`<a href="/?tags=job&amp;country=canada&amp;q=quantum&#43;robot&#43;llama">Without kind Funding</a>`,
		`<a href="/?tags=funding&amp;country=canada&amp;q=quantum&#43;robot&#43;llama">Without kind Job</a>`,
		`<a href="/?tags=funding,job&amp;q=quantum&#43;robot&#43;llama">Without country Canada</a>`,
		`<a href="/?tags=funding,job&amp;country=canada">Without words “quantum robot llama”</a>`,
		`<a href="/?tags=funding,job&amp;country=canada&amp;q=quantum&#43;robot">Fewer words: “quantum robot”</a>`,
	}
	resp, body := ta.Get(path, "Authorization", "")
	if resp.StatusCode != 200 {
		t.Fatalf("%d", resp.StatusCode)
	}
	for _, w := range want {
		if !bytes.Contains(body, []byte(w)) {
			t.Errorf("no %s in\n%s", w, body)
		}
	}
	for _, bad := range []string{"No signals.", "No public signal matches these filters.", "/search?"} {
		if bytes.Contains(body, []byte(bad)) {
			t.Errorf("signed out, the page says %q", bad)
		}
	}
	b := apptest.SignedIn(t, ta)
	_, signed := b.Get(path)
	if !strings.Contains(signed, `<a href="/search?country=canada&amp;query=quantum&#43;robot&#43;llama&amp;tags=funding%2Cjob">Search by meaning instead</a>`) {
		t.Errorf("signed in, no semantic search link:\n%s", signed)
	}
	_, md := ta.Get(path, "Authorization", "", "Accept", "text/markdown")
	if !bytes.Contains(md, []byte("- Without kind Job: <https://signals.example/?tags=funding&country=canada&q=quantum+robot+llama>\n")) {
		t.Errorf("the Markdown feed does not suggest:\n%s", md)
	}
	ta2 := apptest.Start(t)
	if _, body := ta2.Get("/", "Authorization", ""); !bytes.Contains(body, []byte("No signal is public yet.")) {
		t.Errorf("an empty site:\n%s", body)
	}
}

// TestEmptyHubLeadsToTheFeed checks that a hub with nothing public says so
// once and leads to the whole feed, whose filter a reader can change.
func TestEmptyHubLeadsToTheFeed(t *testing.T) {
	t.Parallel()
	ta := apptest.StartSite(t)
	hub := model.Hub{Slug: "nothing", Title: "Nothing", Description: "Never matches.", Filter: "q=zzqqxxnotaword"}
	if err := ta.Store().CreateHub(context.Background(), hub); err != nil {
		t.Fatal(err)
	}
	resp, body := ta.Get("/hubs/nothing", "Authorization", "")
	if resp.StatusCode != 200 {
		t.Fatalf("%d", resp.StatusCode)
	}
	if !bytes.Contains(body, []byte(`No public signal is in this hub yet. <a href="/">Browse the whole public feed</a>.`)) {
		t.Errorf("the empty hub does not lead to the feed:\n%s", body)
	}
	for _, bad := range []string{"No signals.", "No public signal matches these filters."} {
		if bytes.Contains(body, []byte(bad)) {
			t.Errorf("the empty hub says %q", bad)
		}
	}
	_, md := ta.Get("/hubs/nothing", "Authorization", "", "Accept", "text/markdown")
	if !bytes.Contains(md, []byte("No public signal is in this hub yet. Browse the whole public feed: <https://signals.example/>.\n")) {
		t.Errorf("the empty hub's Markdown does not lead to the feed:\n%s", md)
	}
}
