package web_test

import (
	"bytes"
	"html"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/mmcdole/gofeed"

	"signals/internal/apptest"
	"signals/internal/model"
	"signals/internal/store/storetest"
)

// Feeds title items by their text, name filtered feeds by their filter,
// keep paragraphs in RSS, carry an icon and a language, and date
// themselves by their newest signal, alike in every format.
func TestFeedDocuments(t *testing.T) {
	t.Parallel()
	ta := apptest.StartSite(t)
	ta.Put(storetest.Sig("paras", 0, func(s *model.Signal) {
		s.Text = "First <paragraph>\nstill first\n\nSecond & last"
	}))
	formats := []string{"json", "rss", "atom"}
	parse := func(t *testing.T, path string) (*gofeed.Feed, string) {
		t.Helper()
		resp, body := ta.Get(path, "Authorization", "")
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d\n%s", path, resp.StatusCode, body)
		}
		f, err := gofeed.NewParser().ParseString(string(body))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		return f, resp.Header.Get("Last-Modified")
	}
	for _, format := range formats {
		f, _ := parse(t, "/feed."+format)
		if f.Items[1].Title != "Signal plain-2 about AI funding." {
			t.Errorf("%s: item title %q", format, f.Items[1].Title)
		}
		if f.Language != "en" || f.Image == nil || !strings.Contains(f.Image.URL, "/assets/favicon.") {
			t.Errorf("%s: language %q, image %+v", format, f.Language, f.Image)
		}
		f, _ = parse(t, "/feed."+format+"?tags=funding,job&country=france")
		if f.Title != "Signals: Funding, Job · France" {
			t.Errorf("%s: filtered feed titled %q", format, f.Title)
		}
	}
	f, _ := parse(t, "/feed.rss")
	if d := f.Items[3].Description; !strings.Contains(d, "<p>First &lt;paragraph&gt;<br>still first</p><p>Second &amp; last</p>") {
		t.Errorf("RSS description %q", d)
	}
	_, body := ta.Get("/feed.json", "Authorization", "")
	if !bytes.Contains(body, []byte(`"icon": "https://signals.example/assets/favicon.`)) || !bytes.Contains(body, []byte(`"favicon": `)) {
		t.Error("the JSON Feed has no icon or favicon")
	}
	// The newest signal, evil/1, was collected at 12:03:01; jobs' only
	// signal, plain-2, at 12:02:01.
	for prefix, want := range map[string]string{"": "Thu, 01 Oct 2026 12:03:01 GMT", "/hubs/jobs": "Thu, 01 Oct 2026 12:02:01 GMT"} {
		for _, format := range formats {
			if _, got := parse(t, prefix+"/feed."+format); got != want {
				t.Errorf("%s/feed.%s: Last-Modified %q, want %q", prefix, format, got, want)
			}
		}
	}
}

// A hub leads to its subscribe page by its title, and the list of hubs
// leads to each hub's.
func TestHubFeedLinks(t *testing.T) {
	t.Parallel()
	ta := apptest.StartSite(t)
	// The hub and the list of hubs lead to the hub's subscribe page, which
	// gives each feed's whole address.
	for _, path := range []string{"/hubs/jobs", "/hubs"} {
		_, body := ta.Get(path, "Authorization", "")
		main, _, _ := bytes.Cut(body, []byte("</main>"))
		if !bytes.Contains(main, []byte(`href="/hubs/jobs/subscribe"`)) {
			t.Errorf("%s: no link to the hub's subscribe page in the page's content", path)
		}
	}
	_, body := ta.Get("/hubs/jobs/subscribe", "Authorization", "")
	for _, f := range []string{"json", "rss", "atom"} {
		if !bytes.Contains(body, []byte(`>https://signals.example/hubs/jobs/feed.`+f+`</code>`)) {
			t.Errorf("/hubs/jobs/subscribe: no address of the hub's %s feed", f)
		}
	}
	_, body = ta.Get("/hubs", "Authorization", "", "Accept", "text/markdown")
	if !bytes.Contains(body, []byte("[Atom](https://signals.example/hubs/jobs/feed.atom)")) {
		t.Errorf("the Markdown list of hubs has no feeds:\n%s", body)
	}
}

// The public feed and a hub lead to their subscribe page near their title
// and in the footer; the page gives each feed's address for the current
// filter, and each address is a feed that parses, holding that filter's
// signals. A filter the feed refuses is refused there too.
func TestSubscribePages(t *testing.T) {
	t.Parallel()
	ta := apptest.StartSite(t)
	for _, tc := range []struct{ page, subscribe string }{
		{"/", "/subscribe"},
		{"/?tags=job&country=france", "/subscribe?tags=job&amp;country=france"},
		{"/hubs/jobs", "/hubs/jobs/subscribe"},
	} {
		_, body := ta.Get(tc.page, "Authorization", "")
		main, footer, _ := bytes.Cut(body, []byte("</main>"))
		if !bytes.Contains(main, []byte(`<a class="subscribe" href="`+tc.subscribe+`">Subscribe</a>`)) ||
			!bytes.Contains(footer, []byte(`<a href="`+tc.subscribe+`">Subscribe</a>`)) {
			t.Errorf("%s: no Subscribe entry leading to %s", tc.page, tc.subscribe)
		}
		if !bytes.Contains(footer, []byte(`RSS <span class="format">(XML, for feed readers)</span>`)) {
			t.Errorf("%s: the footer's feed links do not say what they open", tc.page)
		}
	}
	for _, tc := range []struct {
		path string
		ids  []string
	}{
		{"/subscribe", []string{"evil/1", "plain-2", "plain-1"}},
		{"/subscribe?tags=job&country=france", []string{"plain-2"}},
		{"/hubs/jobs/subscribe", []string{"plain-2"}},
	} {
		resp, body := ta.Get(tc.path, "Authorization", "")
		if resp.StatusCode != http.StatusOK || !bytes.Contains(body, []byte("What is a feed reader?")) {
			t.Fatalf("%s: %d\n%s", tc.path, resp.StatusCode, body)
		}
		addresses := regexp.MustCompile(`<code class="secret" id="feed-(json|rss|atom)">([^<]+)</code>`).FindAllSubmatch(body, -1)
		if len(addresses) != 3 {
			t.Fatalf("%s: %d feed addresses", tc.path, len(addresses))
		}
		for _, m := range addresses {
			address := html.UnescapeString(string(m[2]))
			path, ok := strings.CutPrefix(address, ta.Config.BaseURL)
			if !ok {
				t.Fatalf("%s: %s is not an address of the service", tc.path, address)
			}
			resp, feedBody := ta.Get(path, "Authorization", "")
			f, err := gofeed.NewParser().ParseString(string(feedBody))
			if resp.StatusCode != http.StatusOK || err != nil {
				t.Fatalf("%s: %d %v", address, resp.StatusCode, err)
			}
			var ids []string
			for _, it := range f.Items {
				ids = append(ids, strings.TrimPrefix(it.Link, ta.Config.BaseURL+"/signals/"))
			}
			if want := strings.ReplaceAll(strings.Join(tc.ids, " "), "/", "%2F"); strings.Join(ids, " ") != want {
				t.Errorf("%s: %s holds %q, want %q", tc.path, address, ids, want)
			}
		}
		_, md := ta.Get(tc.path, "Authorization", "", "Accept", "text/markdown")
		if !bytes.Contains(md, []byte("feed reader")) || !bytes.Contains(md, []byte("<"+ta.Config.BaseURL)) {
			t.Errorf("%s in Markdown:\n%s", tc.path, md)
		}
	}
	if resp, body := ta.Get("/subscribe?tags=fundraising", "Authorization", "", "Accept", "application/json"); resp.StatusCode != http.StatusBadRequest ||
		!bytes.Contains(body, []byte("did you mean funding")) {
		t.Errorf("a refused filter: %d %s", resp.StatusCode, body)
	}
	if resp, _ := ta.Get("/hubs/nope/subscribe", "Authorization", ""); resp.StatusCode != http.StatusNotFound {
		t.Errorf("an unknown hub's subscribe page: %d", resp.StatusCode)
	}
}
