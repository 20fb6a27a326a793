package app

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mmcdole/gofeed"

	"signals/internal/model"
	"signals/internal/store/storetest"
)

// Feeds title items by their text, name filtered feeds by their filter,
// keep paragraphs in RSS, carry an icon and a language, and date
// themselves by their newest signal, alike in every format.
func TestFeedDocuments(t *testing.T) {
	t.Parallel()
	ta := newSiteApp(t)
	ta.put(storetest.Sig("paras", 0, func(s *model.Signal) {
		s.Text = "First <paragraph>\nstill first\n\nSecond & last"
	}))
	formats := []string{"json", "rss", "atom"}
	parse := func(t *testing.T, path string) (*gofeed.Feed, string) {
		t.Helper()
		resp, body := ta.get(path, "Authorization", "")
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
	_, body := ta.get("/feed.json", "Authorization", "")
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

// A hub shows its feeds by its title, and the list of hubs shows each
// hub's.
func TestHubFeedLinks(t *testing.T) {
	t.Parallel()
	ta := newSiteApp(t)
	for _, path := range []string{"/hubs/jobs", "/hubs"} {
		_, body := ta.get(path, "Authorization", "")
		main, _, _ := bytes.Cut(body, []byte("</main>"))
		for _, f := range []string{"json", "rss", "atom"} {
			if !bytes.Contains(main, []byte(`href="/hubs/jobs/feed.`+f+`"`)) {
				t.Errorf("%s: no link to the hub's %s feed in the page's content", path, f)
			}
		}
	}
	_, body := ta.get("/hubs", "Authorization", "", "Accept", "text/markdown")
	if !bytes.Contains(body, []byte("[Atom](https://signals.example/hubs/jobs/feed.atom)")) {
		t.Errorf("the Markdown list of hubs has no feeds:\n%s", body)
	}
}
