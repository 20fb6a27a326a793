package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"signals/internal/apptest"
	"signals/internal/model"
	"signals/internal/store/storetest"
)

// A public signal has a page, in HTML and in Markdown, with what the feed
// shows of it and its id; its full text stays behind a key; any signal
// that is not public is a 404 like an unknown id.
func TestSignalPage(t *testing.T) {
	t.Parallel()
	ta := apptest.StartSite(t)
	long := strings.Repeat("word ", 200) + "THE-HIDDEN-TAIL"
	ta.Put(
		storetest.Sig("long one", 5, func(s *model.Signal) { s.Text = long }),
		storetest.Sig("pending", 6, func(s *model.Signal) { s.Status = model.StatusPending; s.Text = "secret pending text" }),
		storetest.Sig("market", 7, func(s *model.Signal) { s.MarketOnly = true; s.Text = "secret market text" }),
	)
	t.Run("html", func(t *testing.T) {
		resp, body := ta.Get("/signals/evil%2F1", "Authorization", "")
		apptest.WantStatus(t, resp, body, 200)
		if resp.Header.Get("Vary") != "Accept" || !strings.Contains(resp.Header.Get("Cache-Control"), "private") {
			t.Errorf("Vary=%q Cache-Control=%q", resp.Header.Get("Vary"), resp.Header.Get("Cache-Control"))
		}
		for _, want := range []string{
			`<code id="signal-id">evil/1</code>`,
			`<button type="button" class="copy" data-copy="signal-id" hidden>Copy</button>`,
			`href="https://example.org/post?a=1&amp;b=%3C2%3E" rel="nofollow noopener ugc"`,
			"&lt;script&gt;alert(1)&lt;/script&gt;", "&lt;img src=x onerror=alert(1)&gt;", "Funding", "Microblog", "Canada", "English",
			`<link rel="canonical" href="https://signals.example/signals/evil%2F1">`, `<a href="/">← Back to the feed</a>`,
		} {
			if !bytes.Contains(body, []byte(want)) {
				t.Errorf("the page lacks %s", want)
			}
		}
		for _, bad := range []string{"<script>alert", "<b>bold", "<img src=x", `href="javascript:`, `href="https://evil.example`, "<script>",
			"/api/v1/", "curl"} {
			if bytes.Contains(body, []byte(bad)) {
				t.Errorf("the page holds %q", bad)
			}
		}
		_, body = ta.Get("/signals/long%20one", "Authorization", "")
		if bytes.Contains(body, []byte("THE-HIDDEN-TAIL")) || !bytes.Contains(body, []byte("first 600 of the post's 1015 characters")) ||
			!bytes.Contains(body, []byte(`The full text is available to API keys: <a href="/account">Sign in to get an API key</a>.`)) {
			t.Errorf("the page shows more than the snippet, or does not say so:\n%s", body)
		}
		if _, body := ta.Get("/signals/plain-1", "Authorization", ""); bytes.Contains(body, []byte("API key")) {
			t.Errorf("a post shown whole speaks of its full text:\n%s", body)
		}
	})
	t.Run("markdown", func(t *testing.T) {
		resp, body := ta.Get("/signals/long%20one", "Authorization", "", "Accept", "text/markdown")
		apptest.WantStatus(t, resp, body, 200)
		if resp.Header.Get("Content-Type") != "text/markdown; charset=utf-8" || resp.Header.Get("Vary") != "Accept" {
			t.Errorf("Content-Type=%q Vary=%q", resp.Header.Get("Content-Type"), resp.Header.Get("Vary"))
		}
		if bytes.Contains(body, []byte("THE-HIDDEN-TAIL")) || !bytes.Contains(body, []byte("the first 600 of the post's 1015 characters")) ||
			!bytes.Contains(body, []byte("get one at <https://signals.example/account>")) || bytes.Contains(body, []byte("/api/v1/")) {
			t.Errorf("the page shows more than the snippet:\n%s", body)
		}
	})
	t.Run("not public", func(t *testing.T) {
		for _, path := range []string{"/signals/hidden", "/signals/pending", "/signals/market", "/signals/nothing",
			"/signals/", "/signals/plain-1%00"} {
			for _, accept := range []string{"text/html", "text/markdown"} {
				resp, body := ta.Get(path, "Authorization", "", "Accept", accept)
				if resp.StatusCode != 404 {
					t.Errorf("%s (%s): %d, want 404", path, accept, resp.StatusCode)
				}
				if bytes.Contains(body, []byte("secret")) {
					t.Errorf("%s (%s) shows the signal's text", path, accept)
				}
			}
		}
	})
	t.Run("query parameters are ignored", func(t *testing.T) {
		resp, body := ta.Get("/signals/plain-1?full=1&fbclid=IwAR0", "Authorization", "")
		if resp.StatusCode != 200 || !bytes.Contains(body, []byte(`<link rel="canonical" href="`+ta.Config.BaseURL+`/signals/plain-1">`)) {
			t.Errorf("%d\n%s", resp.StatusCode, body)
		}
	})
}

// Feed items and the feed pages link to each signal's page; JSON Feed
// gives the source link as external_url.
func TestFeedsLinkSignalPages(t *testing.T) {
	t.Parallel()
	ta := apptest.StartSite(t)
	base := ta.Config.BaseURL
	_, body := ta.Get("/feed.json", "Authorization", "")
	var f struct {
		Items []struct {
			ID, URL     string
			ExternalURL string `json:"external_url"`
		}
	}
	if err := json.Unmarshal(body, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Items) == 0 || f.Items[0].URL != base+"/signals/evil%2F1" || f.Items[0].ExternalURL != "https://example.org/post?a=1&b=%3C2%3E" {
		t.Errorf("first item: %+v", f.Items)
	}
	_, body = ta.Get("/feed.rss", "Authorization", "")
	if !bytes.Contains(body, []byte("<link>"+base+"/signals/evil%2F1</link>")) {
		t.Errorf("RSS items do not link to the signal's page:\n%s", body)
	}
	_, body = ta.Get("/feed.atom", "Authorization", "")
	if !bytes.Contains(body, []byte(`<link href="`+base+`/signals/evil%2F1" rel="alternate" type="text/html">`)) ||
		!bytes.Contains(body, []byte(`<link href="https://example.org/plain-1" rel="related" type="text/html">`)) {
		t.Errorf("Atom entries do not link to the signal's page and its source:\n%s", body)
	}
	_, body = ta.Get("/", "Authorization", "")
	if !bytes.Contains(body, []byte(`href="/signals/evil%2F1"`)) {
		t.Error("the feed page does not link to the signal's page")
	}
	_, body = ta.Get("/", "Authorization", "", "Accept", "text/markdown")
	if !bytes.Contains(body, []byte("- Page: <"+base+"/signals/evil%2F1>")) {
		t.Error("the Markdown feed does not link to the signal's page")
	}
}

// A signal's page leads back to the feed view the reader came from: the
// feed's links name it in from, which the page reads as the feed reads its
// own query (a shared link's tracking parameters left out); its canonical
// address leaves it out.
func TestSignalPageWayBack(t *testing.T) {
	t.Parallel()
	ta := apptest.StartSite(t)
	_, body := ta.Get("/?tags=job&country=france", "Authorization", "")
	link := `href="/signals/plain-2?from=%2F%3Ftags%3Djob%26country%3Dfrance"`
	if !bytes.Contains(body, []byte(link)) {
		t.Fatalf("the filtered feed does not link with its filter, %s:\n%s", link, body)
	}
	_, body = ta.Get("/hubs/jobs", "Authorization", "")
	if !bytes.Contains(body, []byte(`href="/signals/plain-2?from=%2Fhubs%2Fjobs"`)) {
		t.Errorf("the hub does not link with its path:\n%s", body)
	}
	for _, tt := range []struct{ from, back, label string }{
		{"/?tags=job&country=france", "/?tags=job&amp;country=france", "Back to the feed: kind Job; country France"},
		{"/?country=france&tags=job&page_size=5&page=2", "/?tags=job&amp;country=france&amp;page_size=5&amp;page=2", "Back to the feed: kind Job; country France"},
		{"/hubs/jobs?page=2", "/hubs/jobs?page=2", "Back to Jobs"},
		{"/hubs/jobs?tags=funding", "/hubs/jobs", "Back to Jobs"},
		{"/?utm_source=newsletter&tags=job&fbclid=IwAR0", "/?tags=job", "Back to the feed: kind Job"},
		{"/hubs/jobs?ref=hn&page=2", "/hubs/jobs?page=2", "Back to Jobs"},
		{"", "/", "Back to the feed"},
		{"https://evil.example/?tags=job", "/", "Back to the feed"},
		{"//evil.example/", "/", "Back to the feed"},
		{"/?tags=nope", "/", "Back to the feed"},
		{"/hubs/nothing", "/", "Back to the feed"},
		{"/account", "/", "Back to the feed"},
		{"javascript:alert(1)", "/", "Back to the feed"},
	} {
		resp, body := ta.Get("/signals/plain-2?from="+url.QueryEscape(tt.from), "Authorization", "")
		want := `<a href="` + tt.back + `">← ` + tt.label + `</a>`
		if resp.StatusCode != 200 || !bytes.Contains(body, []byte(want)) {
			t.Errorf("from %q: %d, want %s in\n%s", tt.from, resp.StatusCode, want, body)
		}
		if !bytes.Contains(body, []byte(`<link rel="canonical" href="https://signals.example/signals/plain-2">`)) {
			t.Errorf("from %q: the canonical address is not the clean one", tt.from)
		}
	}
	_, body = ta.Get("/signals/plain-2?from="+url.QueryEscape("/?tags=job"), "Authorization", "", "Accept", "text/markdown")
	if !bytes.Contains(body, []byte("- Back to the feed (kind Job): <https://signals.example/?tags=job>\n")) {
		t.Errorf("the Markdown page has no way back:\n%s", body)
	}
}

// relatedApp is a test app whose signals have hand-made vectors under the
// scorer's model, so that their cosines with "own" are known: near 0.99,
// mid 0.71, edge 0.61 (kept), far 0.2 (dropped); "alone" is
// orthogonal to every other and "new" has no vector yet.
func relatedApp(t *testing.T) *apptest.App {
	t.Helper()
	ta := apptest.StartSite(t)
	ta.Put(
		storetest.Sig("own", 10, func(s *model.Signal) { s.Text = "Our humanoid robots finished 1,000 shifts. More below." }),
		storetest.Sig("near", 11, func(s *model.Signal) { s.Text = "Humanoids on the line: a report.\nDetails follow." }),
		storetest.Sig("mid", 12, func(s *model.Signal) { s.Text = "Warehouse robots, week nine." }),
		storetest.Sig("edge", 13, func(s *model.Signal) { s.Text = "Robot arms learn glossy packaging." }),
		storetest.Sig("far", 14, func(s *model.Signal) { s.Text = "We are hiring a Rust engineer." }),
		storetest.Sig("alone", 15, func(s *model.Signal) { s.Text = "A lone topic." }),
		storetest.Sig("new", 16),
		storetest.Sig("hidden-near", 17, func(s *model.Signal) { s.Status = model.StatusHidden }),
	)
	vectors := map[string][]float32{
		"own": {1, 0, 0}, "near": {0.99, 0.14, 0}, "mid": {0.71, 0.71, 0}, "edge": {0.61, 0.79, 0},
		"far": {0.2, 0.98, 0}, "alone": {0, 0, 1}, "hidden-near": {1, 0, 0},
		"plain-1": {0, 1, 0}, "plain-2": {0, 1, 0}, "evil/1": {0, 1, 0},
	}
	if err := ta.Store().PutVectors(context.Background(), ta.Search().Scorer.Model(), vectors); err != nil {
		t.Fatal(err)
	}
	return ta
}

// A signal's page lists the public signals nearest to it by the cosine of
// their stored vectors, nearest first, down to the threshold; it runs no
// search, and so spends none of a signed-in reader's daily searches.
func TestSignalPageRelated(t *testing.T) {
	t.Parallel()
	ta := relatedApp(t)
	b := apptest.SignedIn(t, ta)
	resp, body := b.Get("/signals/own?from=" + url.QueryEscape("/?tags=funding"))
	if resp.StatusCode != 200 || !strings.Contains(body, `<a href="/account"`) {
		t.Fatalf("%d, or not signed in:\n%s", resp.StatusCode, body)
	}
	var got []string
	for _, m := range regexp.MustCompile(`<li><a href="/signals/([^"?]+)\?from=%2F%3Ftags%3Dfunding" dir="auto">`).FindAllStringSubmatch(body, -1) {
		got = append(got, m[1])
	}
	if want := []string{"near", "mid", "edge"}; !slices.Equal(got, want) {
		t.Errorf("related = %v, want %v (nearest first, cosine at least 0.6, public only, each keeping the way back)\n%s", got, want, body)
	}
	if !strings.Contains(body, `<a href="/signals/near?from=%2F%3Ftags%3Dfunding" dir="auto">Humanoids on the line: a report.</a>`) {
		t.Errorf("a related signal is not named by its heading:\n%s", body)
	}
	u, err := ta.Store().Usage(context.Background(), 1, time.Now())
	if err != nil || u.SearchesUsed != 0 {
		t.Errorf("searches used = %d, %v; a signal's page must spend none", u.SearchesUsed, err)
	}

	_, md := ta.Get("/signals/own", "Authorization", "", "Accept", "text/markdown")
	if !bytes.Contains(md, []byte(`1. [Humanoids on the line\: a report\.](https://signals.example/signals/near): Funding, `)) {
		t.Errorf("the Markdown page does not list the related signals:\n%s", md)
	}

	for _, tt := range []struct{ id, want string }{
		{"alone", "No other recent public signal is close enough in meaning to this one to list here."},
		{"new", "Related signals appear once this signal has been indexed for semantic search"},
	} {
		_, body := ta.Get("/signals/"+tt.id, "Authorization", "")
		if !bytes.Contains(body, []byte(tt.want)) || bytes.Contains(body, []byte(`class="related-list"`)) {
			t.Errorf("%s: want only %q:\n%s", tt.id, tt.want, body)
		}
	}
}

// At most five related signals are listed, however many are close.
func TestSignalPageRelatedAtMostFive(t *testing.T) {
	t.Parallel()
	ta := apptest.StartSite(t)
	vectors := map[string][]float32{"own": {1, 0}}
	ta.Put(storetest.Sig("own", 10))
	for i := range 8 {
		id := fmt.Sprintf("close-%02d", i)
		ta.Put(storetest.Sig(id, 20+i))
		vectors[id] = []float32{1, float32(i) / 10}
	}
	if err := ta.Store().PutVectors(context.Background(), ta.Search().Scorer.Model(), vectors); err != nil {
		t.Fatal(err)
	}
	_, body := ta.Get("/signals/own", "Authorization", "")
	got := regexp.MustCompile(`<li><a href="/signals/(close-[0-9]+)" dir="auto">`).FindAllSubmatch(body, -1)
	var ids []string
	for _, m := range got {
		ids = append(ids, string(m[1]))
	}
	if want := []string{"close-00", "close-01", "close-02", "close-03", "close-04"}; !slices.Equal(ids, want) {
		t.Errorf("related = %v, want %v", ids, want)
	}
}

// The Markdown form of a signal's page writes the id and the author's name
// as code spans, which read and copy as they are, and carries the same
// heading, way back, note on the full text and related signals as the HTML.
func TestSignalPageMarkdownGolden(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	ta.Put(
		storetest.Sig("poll:3", 1, func(s *model.Signal) {
			s.AuthorName, s.AuthorHeadline, s.Tag, s.Source = "kvcache_enjoyer", "Inference *nerd*", "product_feedback", "tech_forum"
			s.Text = "Which KV-cache quantisation do you run in production? Poll below.\n\n" + strings.Repeat("Option and comment. ", 40)
		}),
		storetest.Sig("poll:4", 2, func(s *model.Signal) {
			s.AuthorName, s.Tag, s.Source = "`tick`_person", "product_feedback", "tech_forum"
			s.Text = "KV-cache results from our cluster."
		}),
	)
	vm := ta.Search().Scorer.Model()
	if err := ta.Store().PutVectors(context.Background(), vm, map[string][]float32{"poll:3": {1, 0}, "poll:4": {0.8, 0.6}}); err != nil {
		t.Fatal(err)
	}
	resp, body := ta.Get("/signals/poll:3?from="+url.QueryEscape("/?tags=product_feedback"), "Authorization", "", "Accept", "text/markdown")
	apptest.WantStatus(t, resp, body, 200)
	for _, want := range []string{"- ID: `poll:3`\n", "- Author: `kvcache_enjoyer`, Inference \\*nerd\\*\n", "by `` `tick`_person ``"} {
		if !bytes.Contains(body, []byte(want)) {
			t.Errorf("no %q", want)
		}
	}
	apptest.GoldenText(t, "site_signal_code_spans.md", body)
}
