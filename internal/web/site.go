// Package web serves the website: the public feed, feed hubs, articles,
// About, Contact and the developer pages, one layout for all, each page in
// HTML by default and in Markdown to clients that ask for it (docs/api.md,
// "Public pages as Markdown"); the JSON Feed, RSS and Atom feeds; and the
// site's stylesheet and scripts.
package web

import (
	"bytes"
	"context"
	"fmt"
	"html/template"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"signals/internal/failure"
	"signals/internal/feed"
	"signals/internal/model"
	"signals/internal/problem"
	"signals/internal/rendered"
	"signals/internal/store"
)

// Store is what the website reads.
type Store interface {
	store.Site
	ListSignals(ctx context.Context, q model.ListQuery) ([]model.Signal, bool, error)
	GetSignal(ctx context.Context, id string) (model.Signal, error)
	SignalVector(ctx context.Context, id, vectorModel string) ([]float32, error)
	Candidates(ctx context.Context, f model.Filter, vectorModel string, textChars, limit int) ([]store.Candidate, error)
	SignalRefs(ctx context.Context, limit int) ([]store.SignalRef, error)
	Generation(ctx context.Context) (int64, error)
}

// Config is what the website needs.
type Config struct {
	BaseURL  string
	Store    Store
	Problems problem.Renderer
	Log      *slog.Logger
	// ListTimeout bounds the store read of one listing, as the API's
	// (reads.ListWithin); 0 is reads.DefaultListTimeout.
	ListTimeout time.Duration
	// VectorModel names the vectors that semantic search stores for each
	// public signal (the scorer's Model); a signal's page lists the public
	// signals whose vectors are nearest to its own, with a cosine of at
	// least RelatedCosine. "" lists none.
	VectorModel   string
	RelatedCosine float64
	// ContactEmail is the operator's address, which /contact shows as a
	// mailto: link when no contact article is imported; "" is none.
	ContactEmail string
	// Search runs the semantic searches of /search, and Usage reads how
	// many of them an account has left (the search page).
	Search Searcher
	Usage  UsageReader
	// Now is the clock; nil is time.Now.
	Now func() time.Time
}

// Site serves the website.
type Site struct {
	cfg     Config
	base    string
	assets  *assets
	layouts layouts
	// docs are the fixed pages: the developer pages and the default About
	// and Contact, by path.
	docs map[string]*doc
	// articles renders articles: GFM without raw HTML, which goldmark
	// leaves out unless told otherwise.
	articles goldmark.Markdown
	feeds    *rendered.Cache

	// forms keeps rendered filter forms by filter for one generation of
	// the data: the country list makes the form the largest part of a
	// page.
	formsMu sync.Mutex
	forms   struct {
		generation int64
		countries  []string
		html       map[string]template.HTML
	}
}

// maxForms bounds the rendered forms kept for one generation.
const maxForms = 256

// New builds the site for the service's base URL.
func New(cfg Config) (*Site, error) {
	s := &Site{cfg: cfg, base: strings.TrimRight(cfg.BaseURL, "/"), feeds: &rendered.Cache{},
		articles: goldmark.New(goldmark.WithExtensions(extension.GFM))}
	var err error
	if s.assets, err = loadAssets(); err != nil {
		return nil, err
	}
	if s.layouts, err = parseLayouts(); err != nil {
		return nil, err
	}
	if s.docs, err = s.loadDocs(); err != nil {
		return nil, err
	}
	return s, nil
}

// now is the site's clock.
func (s *Site) now() time.Time {
	if s.cfg.Now != nil {
		return s.cfg.Now()
	}
	return time.Now()
}

// Route is one entry of the route table: a method and path pattern
// ("GET /hubs") and its handler.
type Route struct {
	Pattern string
	Handler http.HandlerFunc
}

// Pages returns the routes of the site's pages, HTML or Markdown. Their
// navigation names the visitor's account or signing in, so whoever
// serves them loads the session first.
func (s *Site) Pages() []Route {
	routes := []Route{
		{"GET /{$}", s.home},
		{"GET /hubs", s.hubList},
		{"GET /hubs/{slug}", s.hubPage},
		{"GET /hubs/{slug}" + SubscribePath, s.hubSubscribePage},
		{"GET " + SubscribePath, s.subscribePage},
		{"GET " + SignalsPath, s.signalPage},
		{"GET /articles", s.articleList},
		{"GET /articles/{slug}", s.articlePage},
		{"GET /about", s.docPage},
		{"GET /contact", s.docPage},
		{"GET " + PrivacyPath, s.docPage},
		{"GET " + SearchPath, s.searchPage},
	}
	for path := range DeveloperPages {
		routes = append(routes, Route{"GET " + path, s.docPage})
	}
	return routes
}

// Files returns the routes of what the site serves beside its pages:
// each fixed page's Markdown at its path plus ".md" (an article's is at
// /articles/{slug}.md, which articlePage answers), robots.txt, the
// sitemap, the icon, the assets and the feeds. None reads the session.
func (s *Site) Files() []Route {
	var routes []Route
	for _, path := range s.Paths() {
		routes = append(routes, Route{"GET " + path + MarkdownSuffix, s.docMarkdown})
	}
	routes = append(routes,
		Route{"GET " + AssetsPath, s.asset},
		Route{"GET " + RobotsPath, s.robots},
		Route{"GET " + SitemapPath, s.sitemap},
		Route{"GET " + FaviconPath, s.favicon})
	for _, f := range feed.Formats {
		routes = append(routes,
			Route{"GET /feed." + f, s.feed(f)},
			Route{"GET /hubs/{slug}/feed." + f, s.feed(f)})
	}
	return routes
}

// NotFound answers a path the service has nothing at.
func (s *Site) NotFound(w http.ResponseWriter, r *http.Request) {
	s.Error(w, r, failure.NotFound("There is no page at "+r.URL.EscapedPath()+"."))
}

func (s *Site) asset(w http.ResponseWriter, r *http.Request) {
	if !s.assets.serve(w, r) {
		s.cfg.Problems.Write(w, r, failure.NotFound("no asset at "+r.URL.Path))
	}
}

// filterForm returns the filter form filled in with q's filter, over the
// countries of the public signals of generation gen.
func (s *Site) filterForm(ctx context.Context, gen int64, q model.ListQuery) (template.HTML, error) {
	key := model.CanonicalQuery(model.ListQuery{Filter: q.Filter, Q: q.Q})
	s.formsMu.Lock()
	defer s.formsMu.Unlock()
	if s.forms.html == nil || s.forms.generation != gen {
		list, err := s.cfg.Store.PublicCountries(ctx)
		if err != nil {
			return "", fmt.Errorf("web: countries: %w", err)
		}
		s.forms.generation, s.forms.countries, s.forms.html = gen, list, map[string]template.HTML{}
	}
	if h, ok := s.forms.html[key]; ok {
		return h, nil
	}
	var buf bytes.Buffer
	if err := s.layouts["form"].ExecuteTemplate(&buf, "form", newFormView(q, s.forms.countries)); err != nil {
		return "", err
	}
	h := template.HTML(buf.String())
	if len(s.forms.html) >= maxForms {
		clear(s.forms.html)
	}
	s.forms.html[key] = h
	return h, nil
}
