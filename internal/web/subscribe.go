package web

import (
	"cmp"
	"net/http"
	"slices"
	"strings"

	"signals/internal/model"
	"signals/internal/reads"
)

// SubscribePath is the page that tells a person how to follow the public
// feed, with the filter in its query, in a feed reader; a hub's is its
// path plus SubscribePath.
const SubscribePath = "/subscribe"

// subscribeView is the content of a subscribe page.
type subscribeView struct {
	// Heading names what is followed; Filter describes the public feed's
	// filter or a hub's, "" for none.
	Heading, Filter string
	Feeds           []feedAddress
	// Back leads to the feed view the feeds follow.
	Back, BackLabel string
}

// feedAddress is one format of a feed, with its whole address.
type feedAddress struct {
	ID, Name, Kind, URL string
}

// feedKinds says, for a person, what each feed format is.
var feedKinds = map[string]string{
	"application/rss+xml":   "RSS 2.0, XML: the format nearly every reader takes",
	"application/atom+xml":  "Atom 1.0, XML",
	"application/feed+json": "JSON Feed 1.1, JSON",
}

// feedOrder is the order in which a subscribe page lists the formats.
var feedOrder = map[string]int{"feed-rss": 0, "feed-atom": 1, "feed-json": 2}

// subscribePage serves /subscribe: how to follow the public feed, with the
// filter of its query (the public feed's parameters; a bad one is
// refused as the feed refuses it), in a feed reader.
func (s *Site) subscribePage(w http.ResponseWriter, r *http.Request) {
	format, err := Negotiate(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	q, err := reads.ParseListQuery(withoutBlank(usedParams(r.URL.RawQuery, model.FilterParams)))
	if err != nil {
		s.Error(w, r, err)
		return
	}
	filter := model.CanonicalQuery(model.ListQuery{Filter: q.Filter, Q: q.Q})
	v := subscribeView{Heading: "the public feed", Filter: strings.Join(filterSummary(q), "; "),
		Back: withQuery("/", filter), BackLabel: "Back to the feed"}
	s.serveSubscribe(w, r, format, v, "", filter)
}

// hubSubscribePage serves /hubs/{slug}/subscribe: how to follow a hub in a
// feed reader.
func (s *Site) hubSubscribePage(w http.ResponseWriter, r *http.Request) {
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
	path := "/hubs/" + hub.Slug
	v := subscribeView{Heading: hub.Title, Filter: strings.Join(filterSummary(q), "; "),
		Back: path, BackLabel: "Back to the hub"}
	s.serveSubscribe(w, r, format, v, path, "")
}

// serveSubscribe answers a subscribe page for the feeds under prefix ("" or
// a hub's path) with the filter query.
func (s *Site) serveSubscribe(w http.ResponseWriter, r *http.Request, format string, v subscribeView, prefix, filter string) {
	alternates := feedLinks(prefix)
	for i, l := range alternates {
		alternates[i].Href = withQuery(l.Href, filter)
		v.Feeds = append(v.Feeds, feedAddress{ID: "feed-" + l.Href[strings.LastIndex(l.Href, ".")+1:],
			Name: l.Title, Kind: feedKinds[l.Type], URL: s.absolute(alternates[i].Href)})
	}
	// RSS first: the format the page recommends.
	slices.SortStableFunc(v.Feeds, func(a, b feedAddress) int {
		return cmp.Compare(feedOrder[a.ID], feedOrder[b.ID])
	})
	pageHeaders(w.Header())
	if format == Markdown {
		canonicalLink(w.Header(), s.absolute(withQuery(prefix+SubscribePath, filter)))
		writeMarkdown(w, r, http.StatusOK, subscribeMarkdown(v))
		return
	}
	section := "/"
	if prefix != "" {
		section = "/hubs"
	}
	body, err := s.render(r, "subscribe", view{Title: "Subscribe to " + v.Heading, Section: section,
		Description: "Follow " + v.Heading + " in a feed reader: the addresses of its RSS, Atom and JSON feeds.",
		Alternates:  alternates, Subscribe: withQuery(prefix+SubscribePath, filter),
		Canonical: s.absolute(withQuery(prefix+SubscribePath, filter)), Content: v})
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeHTML(w, r, http.StatusOK, body)
}

// subscribeMarkdown is a subscribe page in Markdown.
func subscribeMarkdown(v subscribeView) []byte {
	b := appendMDText([]byte("# Subscribe to "), v.Heading)
	b = append(b, "\n\n"+feedReaderNote+"\n\n"...)
	if v.Filter != "" {
		b = append(appendMDText(append(b, "These feeds hold "...), v.Filter), ".\n\n"...)
	}
	for _, f := range v.Feeds {
		b = append(append(append(append(append(b, "- "...), f.Name...), " ("...), f.Kind...), "): <"...)
		b = append(append(b, f.URL...), ">\n"...)
	}
	return b
}

// feedReaderNote says what a feed reader is.
const feedReaderNote = "A feed reader is an app or a website that checks the feeds you add and shows what is new " +
	"in one place, like an inbox for websites: for example NetNewsWire, Feedly, Inoreader, Thunderbird or Miniflux. " +
	"Add a feed by pasting one of its addresses into the reader's \"Add feed\" or \"Subscribe\" box. " +
	"No account is needed, and the reader sees each new public signal as it is published."
