package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"signals/internal/failure"
	"signals/internal/feed"
	"signals/internal/label"
	"signals/internal/layout"
	"signals/internal/model"
	"signals/internal/reads"
	"signals/internal/session"
	"signals/internal/store"
)

// listing is one page of a feed view: the public feed, or a hub.
type listing struct {
	heading, lede string
	// path is where the view lives ("/" or "/hubs/SLUG").
	path  string
	query model.ListQuery
	hub   *model.Hub
}

// home serves the public feed: the API's filters in the query string, with
// the API's validation, read leniently (usedParams): any other parameter is
// ignored, and a bad value is explained on the feed page itself.
func (s *Site) home(w http.ResponseWriter, r *http.Request) {
	format, err := Negotiate(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	v := usedParams(r.URL.RawQuery, feedParams)
	if hasBlank(v) {
		// A form sends every field, the empty ones too; the address of
		// what it shows leaves them out, with or without JavaScript, and
		// leaves out what the page does not use.
		http.Redirect(w, r, withQuery(r.URL.Path, encodeIn(withoutBlank(v), feedParams)), http.StatusSeeOther)
		return
	}
	q, err := reads.ParseListQuery(v)
	if err != nil {
		parse := func(v url.Values) error { _, err := reads.ParseListQuery(v); return err }
		s.badListing(w, r, format, listing{heading: "Public feed", path: "/", lede: homeLede}, v, err, parse)
		return
	}
	s.serveListing(w, r, format, listing{heading: "Public feed", path: "/", query: q, lede: homeLede})
}

// homeLede introduces the public feed.
const homeLede = "Curated AI signals — jobs, funding, launches, feedback, physical AI and events — collected from public posts and reviewed, newest first."

// badListing answers a feed view (the public feed or a hub) whose
// parameters v hold a bad value, with status 400: in HTML, the view itself
// with an explanation of each bad value (next to its field in the public
// feed's filter form, which holds what was sent) and no signal listed; in
// Markdown, the explanations with their choices and clearing links. err is
// parse's failure on v. A client that prefers JSON gets the API's problem
// details.
func (s *Site) badListing(w http.ResponseWriter, r *http.Request, format string, l listing, v url.Values, err error, parse func(url.Values) error) {
	if _, ok := failure.As(err); !ok || prefersJSON(r) {
		s.Error(w, r, err)
		return
	}
	ctx := r.Context()
	countries, cerr := s.cfg.Store.PublicCountries(ctx)
	if cerr != nil {
		s.Error(w, r, fmt.Errorf("web: countries: %w", cerr))
		return
	}
	order := feedParams
	if l.hub != nil {
		order = hubParams
	}
	bad := explainAll(err, parse, l.path, v, order, countries)
	if len(bad) == 0 {
		s.Error(w, r, err) // a failure of no parameter the page uses
		return
	}
	title := badTitle(bad)
	h := w.Header()
	pageHeaders(h)
	h.Set("Cache-Control", "no-store")
	if format == Markdown {
		writeMarkdown(w, r, http.StatusBadRequest, badMarkdown(bad, s.base))
		return
	}
	page := feedView{Heading: l.heading, Lede: l.lede, Status: "No signals are listed until the filter is corrected.", Invalid: true}
	if title == "Page not valid" {
		page.Status = "No signals are listed for this page."
	}
	section := "/"
	if l.hub != nil {
		// A hub's filter is fixed: the explanations stand above the list.
		section, page.Problems = "/hubs", bad
		page.Fixed = strings.Join(filterSummary(l.query), "; ")
		page.Browse = "/?" + model.CanonicalQuery(model.ListQuery{Filter: l.query.Filter, Q: l.query.Q})
	} else if page.Form, err = s.badFilterForm(v, bad, countries); err != nil {
		s.Error(w, r, err)
		return
	}
	body, err := s.render(r, "feed", view{Title: title, Description: l.lede, Section: section, NoIndex: true, Content: page})
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeHTML(w, r, http.StatusBadRequest, body)
}

// badFilterForm is the public feed's filter form holding what was sent in
// v, as far as its fields can show it (values a field cannot hold are
// named by the explanation instead), with each explanation in bad next to
// its field or above the form.
func (s *Site) badFilterForm(v url.Values, bad []*badValue, countries []string) (template.HTML, error) {
	known := func(values, allowed []string) []string {
		var out []string
		for _, x := range model.SplitList(values) {
			if slices.Contains(allowed, x) {
				out = append(out, x)
			}
		}
		return out
	}
	q := model.ListQuery{Q: v.Get("q")}
	q.Tags, q.Sources = known(v["tags"], model.Tags), known(v["sources"], model.Sources)
	q.Languages = known(v["language"], model.Languages)
	q.Countries = known(v["country"], model.Countries)
	fv := newFormView(q, countries)
	fv.ObservedAfter = v.Get("observed_after")
	fv.Filtered = len(v) > 0
	fv.FieldErrors = map[string]*badValue{}
	for _, b := range bad {
		switch b.Param {
		case "tags", "sources", "language", "country", "q":
			fv.FieldErrors[b.Param] = b
		case "observed_after":
			// The form would send it again.
			fv.ObservedAfter = ""
			fallthrough
		default:
			fv.Errors = append(fv.Errors, b)
		}
	}
	var form bytes.Buffer
	if err := s.layouts["form"].ExecuteTemplate(&form, "form", fv); err != nil {
		return "", err
	}
	return template.HTML(form.String()), nil
}

// hubPage serves /hubs/{slug}: the public feed with the hub's filter, of
// which the query chooses only the page.
func (s *Site) hubPage(w http.ResponseWriter, r *http.Request) {
	format, err := Negotiate(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	hub, q, err := s.hubQuery(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	l := listing{heading: hub.Title, lede: hub.Description, path: "/hubs/" + hub.Slug, query: q, hub: &hub}
	v := withoutBlank(usedParams(r.URL.RawQuery, hubParams))
	paging := func(v url.Values) (model.ListQuery, error) {
		paging, err := reads.ParseListQuery(v)
		if err != nil {
			return q, err
		}
		p := q
		p.Page, p.PageSize = paging.Page, paging.PageSize
		// A hub's filter may hold q: its pages reach as deep as the feed's.
		return p, p.CheckDepth()
	}
	if l.query, err = paging(v); err != nil {
		l.query = q
		s.badListing(w, r, format, l, v, err, func(v url.Values) error { _, err := paging(v); return err })
		return
	}
	s.serveListing(w, r, format, l)
}

// hubQuery finds the hub a request's path names, with its filter.
func (s *Site) hubQuery(r *http.Request) (model.Hub, model.ListQuery, error) {
	slug := r.PathValue("slug")
	missing := failure.NotFound("There is no hub at /hubs/" + url.PathEscape(slug) + ".")
	if !model.ValidSlug(slug) {
		return model.Hub{}, model.ListQuery{}, missing
	}
	hub, err := s.cfg.Store.Hub(r.Context(), slug)
	if errors.Is(err, store.ErrNotFound) {
		return hub, model.ListQuery{}, missing
	}
	if err != nil {
		return hub, model.ListQuery{}, err
	}
	q, err := ParseHubFilter(hub.Filter)
	if err != nil {
		// Filters are validated when a hub is added; one that no longer
		// parses is the service's fault, not the reader's.
		return hub, q, fmt.Errorf("web: hub %s: stored filter: %w", slug, err)
	}
	return hub, q, nil
}

// serveListing answers a feed view whose query is valid: its page of
// signals in Markdown, or in HTML with its paging, its filter and its
// feeds.
func (s *Site) serveListing(w http.ResponseWriter, r *http.Request, format string, l listing) {
	ctx := r.Context()
	gen, err := s.cfg.Store.Generation(ctx)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	if format == Markdown {
		s.serveListingMarkdown(w, r, gen, l)
		return
	}
	signals, more, err := s.list(ctx, l.query)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	pageHeaders(w.Header())
	fv := feedView{Heading: l.heading, Lede: l.lede, Page: l.query.Page, Status: status(l.query, len(signals))}
	if err := s.pageLinks(ctx, l, &fv, len(signals), more); err != nil {
		s.Error(w, r, err)
		return
	}
	alternates, err := s.filterLinks(r, gen, l, &fv)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	// Each signal's page leads back to this one.
	here := pageURL(l, l.query.Page)
	for _, sig := range signals {
		v := newSignalView(sig)
		v.Href = withFrom(v.Href, here)
		fv.Signals = append(fv.Signals, v)
	}
	title, section := l.heading, "/"
	if l.query.Page > 1 {
		title += fmt.Sprintf(", page %d", l.query.Page)
	}
	if l.hub != nil {
		section = "/hubs"
	}
	body, err := s.render(r, "feed", view{Title: title, Description: l.lede, Section: section,
		Alternates: alternates, Subscribe: fv.Subscribe, Canonical: s.absolute(here), Content: fv})
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeHTML(w, r, http.StatusOK, body)
}

// serveListingMarkdown answers a feed view in Markdown. A Markdown view is
// the same for every reader: it is kept until the data changes (gen),
// like the feeds.
func (s *Site) serveListingMarkdown(w http.ResponseWriter, r *http.Request, gen int64, l listing) {
	ctx := r.Context()
	key := "markdown " + l.path + "?" + model.CanonicalQuery(l.query)
	if l.hub != nil {
		key += " " + l.hub.Title + " " + l.hub.Description
	}
	entry, err := s.feeds.Get(key, gen, func() ([]byte, time.Time, error) {
		signals, more, err := s.list(ctx, l.query)
		if err != nil {
			return nil, time.Time{}, err
		}
		last := -1 // not past the end
		if len(signals) == 0 && l.query.Page > 1 {
			if last, err = s.lastPage(ctx, l.query); err != nil {
				return nil, time.Time{}, err
			}
		}
		return s.listingMarkdown(l, signals, more, last), feed.LastModified(signals), nil
	})
	if err != nil {
		s.Error(w, r, err)
		return
	}
	pageHeaders(w.Header())
	canonicalLink(w.Header(), s.absolute(pageURL(l, l.query.Page)))
	writeMarkdown(w, r, http.StatusOK, entry.Body)
}

// pageLinks leads from a page of n signals (more when a next page has
// some) to the pages around it: the previous and next pages, the last
// page with signals when this one is past the end, and what to try when
// the first page lists nothing.
func (s *Site) pageLinks(ctx context.Context, l listing, fv *feedView, n int, more bool) error {
	switch {
	case n == 0 && l.query.Page > 1:
		// A newer page would be as empty: lead to the last one that is not.
		last, err := s.lastPage(ctx, l.query)
		if err != nil {
			return err
		}
		fv.LastPage, fv.PastEnd, fv.Back = last, true, pageURL(l, max(last, 1))
	case l.query.Page > 1:
		fv.Prev = pageURL(l, l.query.Page-1)
	}
	if more {
		fv.Next = pageURL(l, l.query.Page+1)
	}
	if n == 0 && l.query.Page == 1 {
		if l.hub == nil {
			_, signedIn := session.FromContext(ctx)
			fv.Empty = suggest(l.query, signedIn)
		} else {
			fv.HubEmpty = true
		}
		fv.Status = ""
	}
	return nil
}

// filterLinks fills in the view's filter: the public feed's form and
// search box, or a hub's fixed filter, its feeds and a link to browse it
// in the feed. It returns the view's alternate feeds, filtered as the
// view is.
func (s *Site) filterLinks(r *http.Request, gen int64, l listing, fv *feedView) ([]link, error) {
	alternates := feedLinks(strings.TrimSuffix(l.path, "/"))
	filter := model.CanonicalQuery(model.ListQuery{Filter: l.query.Filter, Q: l.query.Q})
	if l.hub != nil {
		fv.Fixed = strings.Join(filterSummary(l.query), "; ")
		fv.Subscribe, fv.SubscribeWhat = l.path+SubscribePath, "to this hub"
		fv.Browse = "/?" + filter
		return alternates, nil
	}
	fv.Subscribe, fv.SubscribeWhat = withQuery(SubscribePath, filter), "to new signals"
	if filter != "" {
		fv.SubscribeWhat = "to these signals"
	}
	var err error
	if fv.Form, err = s.filterForm(r.Context(), gen, l.query); err != nil {
		return nil, err
	}
	if fv.SearchBox, err = s.searchBox(r, l.query); err != nil {
		return nil, err
	}
	if filter != "" {
		for i := range alternates {
			alternates[i].Href += "?" + filter
		}
	}
	return alternates, nil
}

// list reads one page of q within the listing deadline that the API
// keeps too: past it, the page is service_busy.
func (s *Site) list(ctx context.Context, q model.ListQuery) ([]model.Signal, bool, error) {
	return reads.ListWithin(ctx, s.cfg.Store, q, s.cfg.ListTimeout)
}

// lastPage finds the last page of q's listing that has signals, 0 when
// none has. It probes pages 1, 2, 4, … and then halves the gap, so it asks
// the store about twice the logarithm of the number of pages, however far
// past the end the page asked for is.
func (s *Site) lastPage(ctx context.Context, q model.ListQuery) (int, error) {
	probe := func(page int) (has, more bool, err error) {
		q.Page = page
		signals, more, err := s.list(ctx, q)
		return len(signals) > 0, more, err
	}
	lo, hi := 0, q.Page // lo has signals (or is 0), hi has none
	for p := 1; p < hi; p *= 2 {
		has, more, err := probe(p)
		switch {
		case err != nil:
			return 0, err
		case !has:
			hi = p
		case !more:
			return p, nil
		default:
			lo = p
			continue
		}
		break
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		has, more, err := probe(mid)
		switch {
		case err != nil:
			return 0, err
		case has && !more:
			return mid, nil
		case has:
			lo = mid
		default:
			hi = mid
		}
	}
	return lo, nil
}

// status says which signals a page shows.
func status(q model.ListQuery, n int) string {
	switch {
	case n == 0 && q.Page > 1:
		return fmt.Sprintf("No signals on page %d.", q.Page)
	case n == 0:
		return "No signals."
	}
	first := q.Offset() + 1
	return fmt.Sprintf("Signals %d–%d, newest first.", first, first+n-1)
}

// pageURL is the path of another page of a listing.
func pageURL(l listing, page int) string {
	q := l.query
	if l.hub != nil {
		// A hub's filter is in its path.
		q = model.ListQuery{Page: q.Page, PageSize: q.PageSize}
	}
	q.Page = page
	if enc := model.CanonicalQuery(q); enc != "" {
		return l.path + "?" + enc
	}
	return l.path
}

// feedView is the content of a feed page.
type feedView struct {
	Heading, Lede string
	// SearchBox leads to semantic search (search.go); Form filters.
	SearchBox template.HTML
	Form      template.HTML
	// Fixed describes a hub's filter; Browse opens it on the public feed.
	Fixed, Browse string
	Status        string
	// Subscribe leads to the page on following this view in a feed
	// reader; SubscribeWhat names what is followed.
	Subscribe, SubscribeWhat string
	Signals                  []signalView
	Prev, Next               string
	Page                     int
	// Invalid marks a page whose parameters did not validate: the form
	// says why, or Problems do on a hub's page, and nothing is listed.
	Invalid  bool
	Problems []*badValue
	// PastEnd marks a page beyond the last one that has signals; LastPage
	// is that page (0 when the view has none), and Back leads to it, or to
	// the first page.
	PastEnd  bool
	LastPage int
	Back     string
	// Empty suggests what to try when the first page of the public feed
	// lists nothing; HubEmpty marks a hub whose first page lists nothing,
	// whose filter a reader cannot change, so it leads to the whole feed.
	Empty    *emptyView
	HubEmpty bool
}

// option is one choice of the filter form.
type option struct {
	Value, Label string
	Selected     bool
}

// formView is the filter form, filled in with the current filter.
type formView struct {
	Action                              string
	Tags, Sources, Languages, Countries []option
	Q, ObservedAfter                    string
	Filtered                            bool
	// FieldErrors explains, by parameter, a field's bad value; Errors
	// explain those of the parameters without a field (observed_after,
	// page_size, page).
	FieldErrors map[string]*badValue
	Errors      []*badValue
}

func newFormView(q model.ListQuery, countries []string) *formView {
	options := func(values, selected []string, name func(string) string) []option {
		out := make([]option, len(values))
		for i, v := range values {
			out[i] = option{Value: v, Label: name(v), Selected: slices.Contains(selected, v)}
		}
		return out
	}
	f := &formView{Action: "/", Q: q.Q,
		Tags:      options(model.Tags, q.Tags, label.Tag),
		Sources:   options(model.Sources, q.Sources, label.Source),
		Languages: options(model.Languages, q.Languages, label.Language),
	}
	// A country asked for but without public signals still shows as chosen.
	for _, c := range q.Countries {
		if !slices.Contains(countries, c) {
			countries = append(slices.Clone(countries), c)
			slices.Sort(countries)
		}
	}
	f.Countries = options(countries, q.Countries, label.Country)
	if q.ObservedAfter != nil {
		f.ObservedAfter = q.ObservedAfter.String()
	}
	f.Filtered = model.CanonicalQuery(model.ListQuery{Filter: q.Filter, Q: q.Q}) != ""
	return f
}

// signalView is one signal as a page shows it; html/template escapes every
// field, so nothing a signal says becomes markup, and newSignalView has
// dropped the characters a page cannot hold (layout.Text). The template
// isolates each field a signal supplies (dir="auto", <bdi>), so that bidi
// controls in it cannot reorder the page around it.
type signalView struct {
	TagLabel, SourceLabel, CountryLabel, LanguageLabel string
	// Lang is the snippet's language tag when the signal's language is
	// one a tag names (en, fr); "" for other languages.
	Lang                       string
	Published, PublishedISO    string
	Snippet                    string
	Cut                        bool
	AuthorName, AuthorHeadline string
	SourceURL                  string
	// Href is the signal's page.
	Href string
}

func newSignalView(s model.Signal) signalView {
	v := signalView{
		TagLabel: label.Tag(s.Tag), SourceLabel: label.Source(s.Source),
		LanguageLabel: label.Language(s.Language),
		Published:     publishedLabel(s.PublishedAt, s.PublishedAtPrecision),
		PublishedISO:  publishedISO(s.PublishedAt, s.PublishedAtPrecision),
		Snippet:       layout.Text(model.Cut(s.Text, model.ListSnippetChars)),
		Cut:           s.TextChars > model.ListSnippetChars,
		AuthorName:    layout.Text(s.AuthorName), AuthorHeadline: layout.Text(s.AuthorHeadline),
		SourceURL: model.SafeURL(s.SourceURL), Href: SignalPath(s.ID),
	}
	if s.Country != "" {
		v.CountryLabel = label.Country(s.Country)
	}
	if s.Language == "en" || s.Language == "fr" {
		v.Lang = s.Language
	}
	return v
}

// absolute returns a site path as an absolute URL.
func (s *Site) absolute(path string) string {
	if u, err := url.Parse(path); err == nil && u.IsAbs() {
		return path
	}
	return s.base + path
}
