package web_test

import (
	"bytes"
	"encoding/binary"
	"encoding/xml"
	"image/png"
	"net/http"
	"regexp"
	"signals/internal/apptest"
	"strings"
	"testing"
	"time"
)

func TestRobotsTxt(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	resp, body := ta.Get("/robots.txt", "Authorization", "")
	apptest.WantStatus(t, resp, body, http.StatusOK)
	if got := resp.Header.Get("Content-Type"); got != "text/plain; charset=utf-8" {
		t.Errorf("Content-Type = %q", got)
	}
	for _, line := range []string{"User-agent: *", "Allow: /", "Disallow: /account", "Disallow: /oauth/",
		"Disallow: /sign-in", "Disallow: /search", "Disallow: /api/", "Sitemap: https://signals.example/sitemap.xml"} {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(line) + `$`).Match(body) {
			t.Errorf("robots.txt lacks the line %q:\n%s", line, body)
		}
	}
	apptest.GoldenText(t, "robots.txt", body)
}

// The sitemap lists the fixed pages, the hubs and the articles, in the
// shape the sitemaps.org 0.9 schema gives: a urlset in its namespace of
// url elements, each with an absolute loc and an optional W3C datetime
// lastmod.
func TestSitemap(t *testing.T) {
	t.Parallel()
	ta := apptest.StartSite(t)
	resp, body := ta.Get("/sitemap.xml", "Authorization", "")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d\n%s", resp.StatusCode, body)
	}
	if got := resp.Header.Get("Content-Type"); got != "application/xml; charset=utf-8" {
		t.Errorf("Content-Type = %q", got)
	}
	var set struct {
		XMLName xml.Name
		URLs    []struct {
			XMLName xml.Name
			Loc     string `xml:"loc"`
			LastMod string `xml:"lastmod"`
			Extra   []struct {
				XMLName xml.Name
			} `xml:",any"`
		} `xml:"url"`
		Extra []struct{ XMLName xml.Name } `xml:",any"`
	}
	if err := xml.Unmarshal(body, &set); err != nil {
		t.Fatalf("sitemap: %v\n%s", err, body)
	}
	const ns = "http://www.sitemaps.org/schemas/sitemap/0.9"
	if set.XMLName != (xml.Name{Space: ns, Local: "urlset"}) || len(set.Extra) != 0 {
		t.Fatalf("root %v with %d other elements, want a urlset in %s of url elements", set.XMLName, len(set.Extra), ns)
	}
	if len(set.URLs) == 0 || len(set.URLs) > 50000 || len(body) > 50<<20 {
		t.Fatalf("%d urls in %d bytes", len(set.URLs), len(body))
	}
	got := map[string]string{}
	for _, u := range set.URLs {
		if u.XMLName.Space != ns || len(u.Extra) != 0 {
			t.Errorf("url %v has other elements %v", u.XMLName, u.Extra)
		}
		if !strings.HasPrefix(u.Loc, "https://signals.example/") || len(u.Loc) > 2048 {
			t.Errorf("loc %q is not an absolute URL of the site", u.Loc)
		}
		if u.LastMod != "" {
			if _, err := time.Parse(time.RFC3339, u.LastMod); err != nil {
				t.Errorf("lastmod %q of %s: %v", u.LastMod, u.Loc, err)
			}
		}
		got[strings.TrimPrefix(u.Loc, "https://signals.example")] = u.LastMod
	}
	for _, path := range []string{"/", "/hubs", "/articles", "/about", "/contact", "/developers", "/developers/api",
		"/developers/mcp", "/developers/errors", "/hubs/jobs", "/articles/hello",
		// The pages of the public signals, not of a hidden one.
		"/signals/plain-1", "/signals/plain-2", "/signals/evil%2F1"} {
		if _, ok := got[path]; !ok {
			t.Errorf("the sitemap lacks %s", path)
		}
	}
	if _, ok := got["/signals/hidden"]; ok {
		t.Error("the sitemap lists a hidden signal's page")
	}
	if got["/signals/plain-1"] != "2026-10-01T12:01:01Z" {
		t.Errorf("the signal page's lastmod is %q, want its collection time", got["/signals/plain-1"])
	}
	if got["/articles/hello"] != "2026-10-05T00:00:00Z" {
		t.Errorf("the article's lastmod is %q, want its publication time", got["/articles/hello"])
	}
	for path := range got {
		if resp, body := ta.Get(path, "Authorization", ""); resp.StatusCode != http.StatusOK {
			t.Errorf("%s listed in the sitemap answers %d\n%s", path, resp.StatusCode, body)
		}
	}
	apptest.GoldenText(t, "sitemap.xml", body)
}

// /favicon.ico is an ICO file holding the site's icon as a 32×32 PNG.
func TestFavicon(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	resp, body := ta.Get("/favicon.ico", "Authorization", "")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d\n%s", resp.StatusCode, body)
	}
	if got := resp.Header.Get("Content-Type"); got != "image/x-icon" {
		t.Errorf("Content-Type = %q, want image/x-icon", got)
	}
	if got := resp.Header.Get("Cache-Control"); !strings.HasPrefix(got, "public, max-age=") {
		t.Errorf("Cache-Control = %q, want a public lifetime", got)
	}
	var dir struct {
		Reserved, Type, Count  uint16
		Width, Height, Palette uint8
		Reserved2              uint8
		Planes, BitsPerPixel   uint16
		Size, Offset           uint32
	}
	if err := binary.Read(bytes.NewReader(body), binary.LittleEndian, &dir); err != nil {
		t.Fatal(err)
	}
	if dir.Reserved != 0 || dir.Type != 1 || dir.Count != 1 || dir.Width != 32 || dir.Height != 32 ||
		int(dir.Offset)+int(dir.Size) != len(body) {
		t.Fatalf("ICO header %+v for %d bytes", dir, len(body))
	}
	img, err := png.Decode(bytes.NewReader(body[dir.Offset:]))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 32 || b.Dy() != 32 {
		t.Fatalf("image %v, want 32×32", b)
	}
	// The icon's inner circle is #1d4ed8; its corners are transparent.
	if r, g, b, a := img.At(16, 16).RGBA(); r>>8 != 0x1d || g>>8 != 0x4e || b>>8 != 0xd8 || a>>8 != 0xff {
		t.Errorf("centre pixel %x %x %x %x, want the icon's blue", r>>8, g>>8, b>>8, a>>8)
	}
	if _, _, _, a := img.At(0, 0).RGBA(); a != 0 {
		t.Errorf("corner alpha %d, want transparent", a)
	}
}

// The fixed pages and the articles are Markdown at their path plus ".md",
// to a plain GET, exactly as at their own path to Accept: text/markdown;
// llms.txt links there.
func TestMarkdownURLs(t *testing.T) {
	t.Parallel()
	ta := apptest.StartSite(t)
	for _, path := range []string{"/developers", "/developers/api", "/developers/mcp", "/developers/errors",
		"/about", "/contact", "/articles/hello"} {
		t.Run(path, func(t *testing.T) {
			resp, body := ta.Get(path+".md", "Authorization", "")
			apptest.WantStatus(t, resp, body, http.StatusOK)
			if got := resp.Header.Get("Content-Type"); got != "text/markdown; charset=utf-8" {
				t.Errorf("Content-Type = %q", got)
			}
			_, negotiated := ta.Get(path, "Accept", "text/markdown")
			if !bytes.Equal(body, negotiated) {
				t.Errorf("%s.md differs from %s as Markdown:\n%s\n---\n%s", path, path, body, negotiated)
			}
		})
	}
	for _, path := range []string{"/nothing.md", "/articles/nothing.md", "/developers/nothing.md"} {
		if resp, body := ta.Get(path); resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s: %d, want 404\n%s", path, resp.StatusCode, body)
		}
	}

	// Every link of llms.txt into the site answers a plain GET, and those
	// to pages answer Markdown.
	_, llms := ta.Get("/llms.txt")
	links := regexp.MustCompile(`\]\((https://signals\.example[^)]*)\)`).FindAllSubmatch(llms, -1)
	if len(links) == 0 {
		t.Fatal("llms.txt has no links")
	}
	for _, m := range links {
		path := strings.TrimPrefix(string(m[1]), "https://signals.example")
		if path == "/mcp" {
			continue // a POST endpoint
		}
		resp, body := ta.Get(path, "Authorization", "")
		if resp.StatusCode != http.StatusOK {
			t.Errorf("llms.txt links %s, which answers %d", path, resp.StatusCode)
			continue
		}
		if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
			t.Errorf("llms.txt links %s, which answers HTML to a plain GET:\n%.200s", path, body)
		}
	}
}
