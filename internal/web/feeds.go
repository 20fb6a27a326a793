package web

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"signals/internal/failure"
	"signals/internal/feed"
	"signals/internal/label"
	"signals/internal/model"
	"signals/internal/reads"
)

// feed serves a feed of the public signals, or of a hub's: the newest 50 of
// its filter, to anyone (no key; any origin may read it), from a cache
// that a change of the data invalidates, with validators for conditional
// requests. Feeds are never Markdown. Like the pages, they read only the
// parameters they use (the public feed's filter; none for a hub's feed).
func (s *Site) feed(format string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Access-Control-Allow-Origin", "*")
		ctx := r.Context()
		var (
			q    model.ListQuery
			meta = feed.Meta{Title: "Signals", Description: "Curated AI signals from public posts, newest first.", HomeURL: s.base + "/",
				SignalURL: func(id string) string { return s.base + SignalPath(id) }, Icon: s.base + s.assets.URL("favicon.svg")}
			path = r.URL.Path
			err  error
		)
		if r.PathValue("slug") != "" {
			// A hub's feed has a fixed filter: it reads no parameter.
			hub, hq, herr := s.hubQuery(r)
			if herr != nil {
				s.cfg.Problems.Write(w, r, herr)
				return
			}
			q = hq
			meta.Title, meta.Description, meta.HomeURL = hub.Title+" · Signals", hub.Description, s.base+"/hubs/"+hub.Slug
		} else {
			v := withoutBlank(usedParams(r.URL.RawQuery, model.FilterParams))
			if q, err = reads.ParseListQuery(v); err != nil {
				s.badFeed(w, r, v, err)
				return
			}
			meta.Title = feedTitle(q)
		}
		q.Page, q.PageSize = 1, feed.MaxItems
		filter := model.CanonicalQuery(model.ListQuery{Filter: q.Filter, Q: q.Q})
		meta.FeedURL = s.base + path
		if r.PathValue("slug") == "" && filter != "" {
			meta.FeedURL += "?" + filter
			meta.HomeURL += "?" + filter
		}
		gen, err := s.cfg.Store.Generation(ctx)
		if err != nil {
			s.cfg.Problems.Write(w, r, err)
			return
		}
		entry, err := s.feeds.Get(format+" "+meta.FeedURL+" "+meta.Title+" "+meta.Description, gen, func() ([]byte, time.Time, error) {
			signals, _, err := s.list(ctx, q)
			if err != nil {
				return nil, time.Time{}, fmt.Errorf("web: feed: %w", err)
			}
			body, err := feed.Write(format, meta, signals)
			return body, feed.LastModified(signals), err
		})
		if err != nil {
			s.cfg.Problems.Write(w, r, err)
			return
		}
		h.Set("Content-Type", feed.ContentType(format))
		h.Set("Cache-Control", "public, max-age=300")
		h.Set("ETag", entry.ETag)
		http.ServeContent(w, r, "", entry.LastModified, bytes.NewReader(entry.Body))
	}
}

// feedTitle names the public feed by its filter: "Signals" alone, or
// "Signals: Funding, Job · France".
func feedTitle(q model.ListQuery) string {
	var parts []string
	names := func(values []string, name func(string) string) {
		if len(values) == 0 {
			return
		}
		out := make([]string, len(values))
		for i, v := range values {
			out[i] = name(v)
		}
		parts = append(parts, strings.Join(out, ", "))
	}
	names(q.Tags, label.Tag)
	names(q.Sources, label.Source)
	names(q.Languages, label.Language)
	names(q.Countries, label.Country)
	if q.Q != "" {
		parts = append(parts, "“"+q.Q+"”")
	}
	if q.ObservedAfter != nil {
		parts = append(parts, "collected after "+q.ObservedAfter.String())
	}
	if len(parts) == 0 {
		return "Signals"
	}
	return "Signals: " + strings.Join(parts, " · ")
}

// badFeed answers a feed whose filter holds a bad value with status 400:
// a feed reader shows the status, and a person who opens the address
// reads, in plain text, what is wrong with each value, what is allowed and
// the feed's address without it. A client that prefers JSON gets the API's problem
// details.
func (s *Site) badFeed(w http.ResponseWriter, r *http.Request, v url.Values, err error) {
	if _, ok := failure.As(err); !ok || prefersJSON(r) {
		s.cfg.Problems.Write(w, r, err)
		return
	}
	countries, cerr := s.cfg.Store.PublicCountries(r.Context())
	if cerr != nil {
		s.cfg.Problems.Write(w, r, fmt.Errorf("web: countries: %w", cerr))
		return
	}
	parse := func(v url.Values) error { _, err := reads.ParseListQuery(v); return err }
	bad := explainAll(err, parse, r.URL.Path, v, model.FilterParams, countries)
	if len(bad) == 0 {
		s.cfg.Problems.Write(w, r, err) // a failure of no parameter the feed uses
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	write(w, r, http.StatusBadRequest, []byte(badText(bad, s.base)))
}
