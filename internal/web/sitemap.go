package web

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"net/http"
	"time"

	"signals/internal/model"
)

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
