package web

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/xml"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"strconv"
	"strings"
	"time"

	"signals/internal/model"
	"signals/internal/reads"
)

// Paths of the files crawlers and browsers look for at a site's root.
const (
	RobotsPath  = "/robots.txt"
	SitemapPath = "/sitemap.xml"
	FaviconPath = "/favicon.ico"
)

// MarkdownSuffix turns a page's path into the path of its Markdown
// representation ("/developers/api.md"), for readers such as llms.txt's
// that follow a link but send no Accept: text/markdown. A signal's page
// has its Markdown at such an address too.
const MarkdownSuffix = reads.MarkdownSuffix

// robotsDisallowed are the paths crawlers are asked to leave alone: the
// private area, sign-in and OAuth pages, semantic search (personal, and
// no page to index), and what only programs with a credential use.
var robotsDisallowed = []string{"/account", "/oauth/", "/sign-in", "/sign-out", SearchPath, "/api/", "/mcp"}

// robots serves /robots.txt (RFC 9309): the public site is open to
// crawlers, the rest is not, and the sitemap lists the pages.
func (s *Site) robots(w http.ResponseWriter, r *http.Request) {
	var b strings.Builder
	b.WriteString("User-agent: *\nAllow: /\n")
	for _, p := range robotsDisallowed {
		b.WriteString("Disallow: " + p + "\n")
	}
	b.WriteString("\nSitemap: " + s.base + SitemapPath + "\n")
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Cache-Control", "public, max-age=3600")
	write(w, r, http.StatusOK, []byte(b.String()))
}

// sitemapURL is one <url> of a sitemap (sitemaps.org protocol 0.9).
type sitemapURL struct {
	Loc     string `xml:"loc"`
	LastMod string `xml:"lastmod,omitempty"`
}

// sitemapSet is the <urlset> of a sitemap.
type sitemapSet struct {
	XMLName xml.Name     `xml:"http://www.sitemaps.org/schemas/sitemap/0.9 urlset"`
	URLs    []sitemapURL `xml:"url"`
}

// sitemapSignals is how many signal pages the sitemap lists, the newest:
// the sitemaps protocol's bound on the URLs of one file.
const sitemapSignals = 50000

// sitemap serves /sitemap.xml: the fixed pages, the hubs, the articles,
// each with the date it was published, and the pages of the newest public
// signals, each with when it was collected. It is built once per data
// generation, as the feeds are.
func (s *Site) sitemap(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	gen, err := s.cfg.Store.Generation(ctx)
	if err != nil {
		s.cfg.Problems.Write(w, r, err)
		return
	}
	entry, err := s.feeds.Get("sitemap", gen, func() ([]byte, time.Time, error) {
		body, err := s.buildSitemap(ctx)
		return body, time.Time{}, err
	})
	if err != nil {
		s.cfg.Problems.Write(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/xml; charset=utf-8")
	h.Set("Cache-Control", "public, max-age=300")
	write(w, r, http.StatusOK, entry.Body)
}

// buildSitemap writes the sitemap of the site as the store holds it now.
func (s *Site) buildSitemap(ctx context.Context) ([]byte, error) {
	hubs, err := s.cfg.Store.Hubs(ctx)
	if err != nil {
		return nil, err
	}
	articles, err := s.cfg.Store.Articles(ctx)
	if err != nil {
		return nil, err
	}
	refs, err := s.cfg.Store.SignalRefs(ctx, sitemapSignals)
	if err != nil {
		return nil, err
	}
	set := sitemapSet{URLs: make([]sitemapURL, 0, len(sitemapPages)+len(hubs)+len(articles)+len(refs))}
	add := func(path string, lastMod time.Time) {
		u := sitemapURL{Loc: s.base + path}
		if !lastMod.IsZero() {
			u.LastMod = lastMod.UTC().Format(time.RFC3339)
		}
		set.URLs = append(set.URLs, u)
	}
	for _, p := range sitemapPages {
		add(p, time.Time{})
	}
	for _, h := range hubs {
		add("/hubs/"+h.Slug, time.Time{})
	}
	for _, a := range articles {
		if !model.IsPageSlug(a.Slug) {
			add("/articles/"+a.Slug, a.PublishedAt)
		}
	}
	for _, ref := range refs {
		add(SignalPath(ref.ID), ref.Changed)
	}
	var b bytes.Buffer
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(&b)
	enc.Indent("", "  ")
	if err := enc.Encode(set); err != nil {
		return nil, fmt.Errorf("web: sitemap: %w", err)
	}
	b.WriteString("\n")
	return b.Bytes(), nil
}

// sitemapPages are the fixed public pages, in the order the sitemap lists
// them.
var sitemapPages = []string{"/", "/hubs", "/articles", "/" + model.AboutSlug, "/" + model.ContactSlug, PrivacyPath,
	"/developers", "/developers/api", "/developers/mcp", "/developers/errors"}

// docMarkdown serves a fixed page's Markdown at its path plus ".md",
// whatever the request accepts.
func (s *Site) docMarkdown(w http.ResponseWriter, r *http.Request) {
	d := s.docOr404(w, r, strings.TrimSuffix(r.URL.Path, MarkdownSuffix))
	if d == nil {
		return
	}
	w.Header().Set("Cache-Control", "private, no-cache")
	canonicalLink(w.Header(), s.base+strings.TrimSuffix(r.URL.EscapedPath(), MarkdownSuffix))
	writeMarkdown(w, r, http.StatusOK, d.markdown)
}

// favicon serves /favicon.ico, which browsers, feed readers and bookmark
// tools fetch without reading the page: the site's icon, drawn once at
// start-up into the ICO format they all decode.
func (s *Site) favicon(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "image/x-icon")
	h.Set("Cache-Control", "public, max-age=86400")
	write(w, r, http.StatusOK, s.assets.ico)
}

// iconCircle is a <circle> of the site's SVG icon.
type iconCircle struct {
	CX   float64 `xml:"cx,attr"`
	CY   float64 `xml:"cy,attr"`
	R    float64 `xml:"r,attr"`
	Fill string  `xml:"fill,attr"`
}

// icoSize is the width and height of the icon in /favicon.ico.
const icoSize = 32

// icoFromSVG draws the circles of the site's icon (an SVG of filled
// circles on a 32×32 view box) into a 32×32 PNG, wrapped in an ICO file
// of one image, which every browser since Windows Vista's reads.
func icoFromSVG(svg []byte) ([]byte, error) {
	var doc struct {
		ViewBox string       `xml:"viewBox,attr"`
		Circles []iconCircle `xml:"circle"`
	}
	if err := xml.Unmarshal(svg, &doc); err != nil {
		return nil, fmt.Errorf("web: favicon: %w", err)
	}
	if doc.ViewBox != "0 0 32 32" || len(doc.Circles) == 0 {
		return nil, fmt.Errorf("web: favicon: want circles on a 0 0 32 32 view box, got %q with %d circles", doc.ViewBox, len(doc.Circles))
	}
	fills := make([]color.NRGBA, len(doc.Circles))
	for i, c := range doc.Circles {
		v, err := strconv.ParseUint(strings.TrimPrefix(c.Fill, "#"), 16, 32)
		if err != nil || len(c.Fill) != 7 {
			return nil, fmt.Errorf("web: favicon: fill %q is not #rrggbb", c.Fill)
		}
		fills[i] = color.NRGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 0xff}
	}
	// Each pixel is the average of 4×4 samples, painted in document order,
	// so that the edges are smooth.
	const n = 4
	img := image.NewNRGBA(image.Rect(0, 0, icoSize, icoSize))
	for y := range icoSize {
		for x := range icoSize {
			var r, g, b, a float64
			for sy := range n {
				for sx := range n {
					px, py := float64(x)+(float64(sx)+0.5)/n, float64(y)+(float64(sy)+0.5)/n
					for i := len(doc.Circles) - 1; i >= 0; i-- {
						c := doc.Circles[i]
						if dx, dy := px-c.CX, py-c.CY; dx*dx+dy*dy <= c.R*c.R {
							f := fills[i]
							r, g, b, a = r+float64(f.R), g+float64(f.G), b+float64(f.B), a+1
							break
						}
					}
				}
			}
			if a > 0 {
				img.SetNRGBA(x, y, color.NRGBA{uint8(r / a), uint8(g / a), uint8(b / a), uint8(255 * a / (n * n))})
			}
		}
	}
	var pngData bytes.Buffer
	if err := png.Encode(&pngData, img); err != nil {
		return nil, err
	}
	// ICONDIR (reserved, type 1 = icon, one image), then its ICONDIRENTRY
	// (width, height, no palette, reserved, one plane, 32 bits per pixel,
	// size of the image, offset of the image), then the PNG itself.
	var ico bytes.Buffer
	_ = binary.Write(&ico, binary.LittleEndian, struct {
		Reserved, Type, Count  uint16
		Width, Height, Palette uint8
		Reserved2              uint8
		Planes, BitsPerPixel   uint16
		Size, Offset           uint32
	}{0, 1, 1, icoSize, icoSize, 0, 0, 1, 32, uint32(pngData.Len()), 22})
	ico.Write(pngData.Bytes())
	return ico.Bytes(), nil
}
