package app

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"signals/internal/model"
	"signals/internal/store/storetest"
)

// A public signal has a page, in HTML and in Markdown, with what the feed
// shows of it and its id; its full text stays behind a key; any signal
// that is not public is a 404 like an unknown id.
func TestSignalPage(t *testing.T) {
	ta := newSiteApp(t)
	long := strings.Repeat("word ", 200) + "THE-HIDDEN-TAIL"
	ta.put(
		storetest.Sig("long one", 5, func(s *model.Signal) { s.Text = long }),
		storetest.Sig("pending", 6, func(s *model.Signal) { s.Status = model.StatusPending; s.Text = "secret pending text" }),
		storetest.Sig("market", 7, func(s *model.Signal) { s.MarketOnly = true; s.Text = "secret market text" }),
	)
	t.Run("html", func(t *testing.T) {
		resp, body := ta.get("/signals/evil%2F1", "Authorization", "")
		wantStatus(t, resp, body, 200)
		if resp.Header.Get("Vary") != "Accept" || !strings.Contains(resp.Header.Get("Cache-Control"), "private") {
			t.Errorf("Vary=%q Cache-Control=%q", resp.Header.Get("Vary"), resp.Header.Get("Cache-Control"))
		}
		for _, want := range []string{
			`<code id="signal-id">evil/1</code>`,
			`<button type="button" class="copy" data-copy="signal-id" hidden>Copy</button>`,
			`href="https://example.org/post?a=1&amp;b=%3C2%3E" rel="nofollow noopener ugc"`,
			"&lt;script&gt;alert(1)&lt;/script&gt;", "&lt;img src=x onerror=alert(1)&gt;", "Funding", "Microblog", "Canada", "English",
			"/api/v1/signals/evil%2F1",
		} {
			if !bytes.Contains(body, []byte(want)) {
				t.Errorf("the page lacks %s", want)
			}
		}
		for _, bad := range []string{"<script>alert", "<b>bold", "<img src=x", `href="javascript:`, `href="https://evil.example`, "<script>"} {
			if bytes.Contains(body, []byte(bad)) {
				t.Errorf("the page holds %q", bad)
			}
		}
		_, body = ta.get("/signals/long%20one", "Authorization", "")
		if bytes.Contains(body, []byte("THE-HIDDEN-TAIL")) || !bytes.Contains(body, []byte("first 600 of its 1015 characters")) {
			t.Errorf("the page shows more than the snippet, or does not say so:\n%s", body)
		}
	})
	t.Run("markdown", func(t *testing.T) {
		resp, body := ta.get("/signals/long%20one", "Authorization", "", "Accept", "text/markdown")
		wantStatus(t, resp, body, 200)
		if resp.Header.Get("Content-Type") != "text/markdown; charset=utf-8" || resp.Header.Get("Vary") != "Accept" {
			t.Errorf("Content-Type=%q Vary=%q", resp.Header.Get("Content-Type"), resp.Header.Get("Vary"))
		}
		if bytes.Contains(body, []byte("THE-HIDDEN-TAIL")) || !bytes.Contains(body, []byte("the first 600 of 1015 characters")) {
			t.Errorf("the page shows more than the snippet:\n%s", body)
		}
	})
	t.Run("not public", func(t *testing.T) {
		for _, path := range []string{"/signals/hidden", "/signals/pending", "/signals/market", "/signals/nothing",
			"/signals/", "/signals/plain-1%00"} {
			for _, accept := range []string{"text/html", "text/markdown"} {
				resp, body := ta.get(path, "Authorization", "", "Accept", accept)
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
		resp, body := ta.get("/signals/plain-1?full=1&fbclid=IwAR0", "Authorization", "")
		if resp.StatusCode != 200 || !bytes.Contains(body, []byte(`<link rel="canonical" href="`+ta.cfg.BaseURL+`/signals/plain-1">`)) {
			t.Errorf("%d\n%s", resp.StatusCode, body)
		}
	})
}

// Feed items and the feed pages link to each signal's page; JSON Feed
// gives the source link as external_url.
func TestFeedsLinkSignalPages(t *testing.T) {
	ta := newSiteApp(t)
	base := ta.cfg.BaseURL
	_, body := ta.get("/feed.json", "Authorization", "")
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
	_, body = ta.get("/feed.rss", "Authorization", "")
	if !bytes.Contains(body, []byte("<link>"+base+"/signals/evil%2F1</link>")) {
		t.Errorf("RSS items do not link to the signal's page:\n%s", body)
	}
	_, body = ta.get("/feed.atom", "Authorization", "")
	if !bytes.Contains(body, []byte(`<link href="`+base+`/signals/evil%2F1" rel="alternate" type="text/html">`)) ||
		!bytes.Contains(body, []byte(`<link href="https://example.org/plain-1" rel="related" type="text/html">`)) {
		t.Errorf("Atom entries do not link to the signal's page and its source:\n%s", body)
	}
	_, body = ta.get("/", "Authorization", "")
	if !bytes.Contains(body, []byte(`href="/signals/evil%2F1"`)) {
		t.Error("the feed page does not link to the signal's page")
	}
	_, body = ta.get("/", "Authorization", "", "Accept", "text/markdown")
	if !bytes.Contains(body, []byte("- Page: <"+base+"/signals/evil%2F1>")) {
		t.Error("the Markdown feed does not link to the signal's page")
	}
}
