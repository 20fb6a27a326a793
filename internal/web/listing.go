package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"html/template"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"signals/internal/api"
	"signals/internal/failure"
	"signals/internal/feed"
	"signals/internal/model"
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
// the API's validation.
func (s *Site) home(w http.ResponseWriter, r *http.Request) {
	format, err := Negotiate(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	v, err := api.Query(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	canonical := withoutEmpty(v)
	if hasEmpty(v) {
		// A form sends every field, the empty ones too; the address of
		// what it shows leaves them out, with or without JavaScript.
		target := r.URL.Path
		if len(canonical) > 0 {
			target += "?" + canonical.Encode()
		}
		http.Redirect(w, r, target, http.StatusSeeOther)
		return
	}
	q, err := api.ParseListQuery(canonical)
	if err != nil {
		var f *failure.Error
		if format == HTML && !prefersJSON(r) && errors.As(err, &f) {
			s.badFilter(w, r, canonical, f)
			return
		}
		s.Error(w, r, err)
		return
	}
	s.serveListing(w, r, format, listing{heading: "Public feed", path: "/", query: q, lede: homeLede})
}

// homeLede introduces the public feed.
const homeLede = "Curated AI signals — jobs, funding, launches, feedback, physical AI and events — collected from public posts and reviewed, newest first."

// badFilter answers a public feed whose filter does not validate with the
// feed page itself, status 400: the filter form holds what was sent, the
// error stands next to its field (or above the form for a parameter that
// has none), with the API's code and message, and no signal is listed.
func (s *Site) badFilter(w http.ResponseWriter, r *http.Request, v url.Values, f *failure.Error) {
	ctx := r.Context()
	p := s.cfg.Problems.Resolve(r, f)
	if p == nil {
		return // the client left
	}
	countries, err := s.cfg.Store.PublicCountries(ctx)
	if err != nil {
		s.Error(w, r, fmt.Errorf("web: countries: %w", err))
		return
	}
	// What was sent, as far as the form can show it: values a field
	// cannot hold are named by the error instead.
	known := func(values, allowed []string) []string {
		var out []string
		for _, x := range values {
			for part := range strings.SplitSeq(x, ",") {
				if slices.Contains(allowed, part) {
					out = append(out, part)
				}
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
	message := p.Detail
	switch f.Param {
	case "tags", "sources", "language", "country", "q":
		fv.FieldErrors = map[string]string{f.Param: message}
	default:
		fv.Error = message
	}
	fv.Code = string(p.Code)
	title, status := "Filter not valid", "No signals are listed until the filter is corrected."
	if f.Param == "page" {
		// The filter is fine; the page is not one it can show (0, or
		// deeper than a listing with q reaches).
		title, status = "Page not valid", "No signals are listed for this page."
	}
	var form bytes.Buffer
	if err := s.layouts["form"].ExecuteTemplate(&form, "form", fv); err != nil {
		s.Error(w, r, err)
		return
	}
	page := feedView{Heading: "Public feed", Lede: homeLede, Form: template.HTML(form.String()),
		Status: status, Invalid: true}
	body, err := s.render(r, "feed", view{Title: title, Description: homeLede, Section: "/", NoIndex: true, Content: page})
	if err != nil {
		s.Error(w, r, err)
		return
	}
	pageHeaders(w.Header())
	w.Header().Set("Cache-Control", "no-store")
	writeHTML(w, r, http.StatusBadRequest, body)
}

// withoutEmpty drops the empty values of the listing's parameters: the
// filter form sends every field, and an empty one means "any".
func withoutEmpty(v url.Values) url.Values {
	out := url.Values{}
	for name, values := range v {
		if !slices.Contains(api.ListParams, name) {
			out[name] = values
			continue
		}
		for _, x := range values {
			if x != "" {
				out[name] = append(out[name], x)
			}
		}
	}
	return out
}

// hasEmpty reports whether v holds an empty value of a listing's parameter.
func hasEmpty(v url.Values) bool {
	for name, values := range v {
		if slices.Contains(api.ListParams, name) && slices.Contains(values, "") {
			return true
		}
	}
	return false
}

// hubParams are the parameters of a hub page: its filter is fixed.
var hubParams = []string{"page", "page_size"}

// hubPage serves /hubs/{slug}: the public feed with the hub's filter.
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
	v, err := api.Query(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	for _, name := range slices.Sorted(maps.Keys(v)) {
		if name != "" && !slices.Contains(hubParams, name) {
			p := failure.Unknown(name, hubParams)
			p.ValidationMessage = "is not a parameter of a hub page, whose filter is fixed; refine it on the public feed"
			p.Detail = name + " " + p.ValidationMessage
			s.Error(w, r, p)
			return
		}
	}
	paging, err := api.ParseListQuery(v)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	q.Page, q.PageSize = paging.Page, paging.PageSize
	if err := q.CheckDepth(); err != nil {
		// A hub's filter may hold q: its pages reach as deep as the feed's.
		s.Error(w, r, err)
		return
	}
	s.serveListing(w, r, format, listing{heading: hub.Title, lede: hub.Description,
		path: "/hubs/" + hub.Slug, query: q, hub: &hub})
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

func (s *Site) serveListing(w http.ResponseWriter, r *http.Request, format string, l listing) {
	ctx := r.Context()
	gen, err := s.cfg.Store.Generation(ctx)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	if format == Markdown {
		// A Markdown view is the same for every reader: it is kept until
		// the data changes, like the feeds.
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
		writeMarkdown(w, r, http.StatusOK, entry.Body)
		return
	}
	signals, more, err := s.list(ctx, l.query)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	pageHeaders(w.Header())
	fv := feedView{Heading: l.heading, Lede: l.lede, Page: l.query.Page, Status: status(l.query, len(signals))}
	switch {
	case len(signals) == 0 && l.query.Page > 1:
		// A newer page would be as empty: lead to the last one that is not.
		if fv.LastPage, err = s.lastPage(ctx, l.query); err != nil {
			s.Error(w, r, err)
			return
		}
		fv.PastEnd, fv.Back = true, pageURL(l, max(fv.LastPage, 1))
	case l.query.Page > 1:
		fv.Prev = pageURL(l, l.query.Page-1)
	}
	if more {
		fv.Next = pageURL(l, l.query.Page+1)
	}
	alternates := feedLinks(strings.TrimSuffix(l.path, "/"))
	if l.hub == nil {
		if fv.Form, err = s.filterForm(ctx, gen, l.query); err != nil {
			s.Error(w, r, err)
			return
		}
		if filter := model.CanonicalQuery(model.ListQuery{Filter: l.query.Filter, Q: l.query.Q}); filter != "" {
			for i := range alternates {
				alternates[i].Href += "?" + filter
			}
		}
	} else {
		fv.Fixed = strings.Join(filterSummary(l.query), "; ")
		fv.Feeds = alternates
		fv.Browse = "/?" + model.CanonicalQuery(model.ListQuery{Filter: l.query.Filter, Q: l.query.Q})
	}
	for _, sig := range signals {
		fv.Signals = append(fv.Signals, newSignalView(sig))
	}
	title := l.heading
	if l.query.Page > 1 {
		title += fmt.Sprintf(", page %d", l.query.Page)
	}
	section := "/"
	if l.hub != nil {
		section = "/hubs"
	}
	body, err := s.render(r, "feed", view{Title: title, Description: l.lede, Section: section,
		Alternates: alternates, Canonical: s.absolute(pageURL(l, l.query.Page)), Content: fv})
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeHTML(w, r, http.StatusOK, body)
}

// list reads one page of q within the listing deadline that the API
// keeps too: past it, the page is service_busy.
func (s *Site) list(ctx context.Context, q model.ListQuery) ([]model.Signal, bool, error) {
	return api.ListWithin(ctx, s.cfg.Store, q, s.cfg.ListTimeout)
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
	Form          template.HTML
	// Fixed describes a hub's filter; Browse opens it on the public feed.
	Fixed, Browse string
	Status        string
	// Feeds are a hub's feeds, shown under its title.
	Feeds      []link
	Signals    []signalView
	Prev, Next string
	Page       int
	// Invalid marks a page whose filter did not validate: the form says
	// why, and nothing is listed.
	Invalid bool
	// PastEnd marks a page beyond the last one that has signals; LastPage
	// is that page (0 when the view has none), and Back leads to it, or to
	// the first page.
	PastEnd  bool
	LastPage int
	Back     string
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
	// FieldErrors says, by parameter, what is wrong with a field's value;
	// Error is about a parameter without a field (page, observed_after,
	// an unknown one). Code is the stable code of either.
	FieldErrors map[string]string
	Error, Code string
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
		Tags:      options(model.Tags, q.Tags, func(v string) string { return label(tagLabels, v) }),
		Sources:   options(model.Sources, q.Sources, func(v string) string { return label(sourceLabels, v) }),
		Languages: options(model.Languages, q.Languages, func(v string) string { return label(languageLabels, v) }),
	}
	// A country asked for but without public signals still shows as chosen.
	for _, c := range q.Countries {
		if !slices.Contains(countries, c) {
			countries = append(slices.Clone(countries), c)
			slices.Sort(countries)
		}
	}
	f.Countries = options(countries, q.Countries, CountryLabel)
	if q.ObservedAfter != nil {
		f.ObservedAfter = q.ObservedAfter.String()
	}
	f.Filtered = model.CanonicalQuery(model.ListQuery{Filter: q.Filter, Q: q.Q}) != ""
	return f
}

// signalView is one signal as a page shows it; html/template escapes every
// field, so nothing a signal says becomes markup, and newSignalView has
// dropped the characters a page cannot hold (pageText). The template
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
		TagLabel: label(tagLabels, s.Tag), SourceLabel: label(sourceLabels, s.Source),
		LanguageLabel: label(languageLabels, s.Language),
		Published:     publishedLabel(s.PublishedAt, s.PublishedAtPrecision),
		PublishedISO:  publishedISO(s.PublishedAt, s.PublishedAtPrecision),
		Snippet:       pageText(model.Cut(s.Text, model.ListSnippetChars)),
		Cut:           s.TextChars > model.ListSnippetChars,
		AuthorName:    pageText(s.AuthorName), AuthorHeadline: pageText(s.AuthorHeadline),
		SourceURL: model.SafeURL(s.SourceURL), Href: SignalPath(s.ID),
	}
	if s.Country != "" {
		v.CountryLabel = CountryLabel(s.Country)
	}
	if s.Language == "en" || s.Language == "fr" {
		v.Lang = s.Language
	}
	return v
}

// filterSummary describes a filter in words, one part per parameter.
func filterSummary(q model.ListQuery) []string {
	var parts []string
	names := func(values []string, name func(string) string) string {
		out := make([]string, len(values))
		for i, v := range values {
			out[i] = name(v)
		}
		return strings.Join(out, " or ")
	}
	if len(q.Tags) > 0 {
		parts = append(parts, "kind "+names(q.Tags, func(v string) string { return label(tagLabels, v) }))
	}
	if len(q.Sources) > 0 {
		parts = append(parts, "source "+names(q.Sources, func(v string) string { return label(sourceLabels, v) }))
	}
	if len(q.Languages) > 0 {
		parts = append(parts, "language "+names(q.Languages, func(v string) string { return label(languageLabels, v) }))
	}
	if len(q.Countries) > 0 {
		parts = append(parts, "country "+names(q.Countries, CountryLabel))
	}
	if q.Q != "" {
		parts = append(parts, fmt.Sprintf("words %q", q.Q))
	}
	if q.ObservedAfter != nil {
		parts = append(parts, "collected after "+q.ObservedAfter.String())
	}
	if len(parts) == 0 {
		parts = append(parts, "every public signal")
	}
	return parts
}

// absolute returns a site path as an absolute URL.
func (s *Site) absolute(path string) string {
	if u, err := url.Parse(path); err == nil && u.IsAbs() {
		return path
	}
	return s.base + path
}
