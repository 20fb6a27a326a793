// Package feed writes public signals as JSON Feed 1.1, RSS 2.0 and Atom
// 1.0 documents (package rendered keeps them until the data changes).
package feed

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"html"
	"net/url"
	"strings"
	"time"

	"signals/internal/model"
)

// Formats, named by the extension of their path.
const (
	JSON = "json"
	RSS  = "rss"
	Atom = "atom"
)

// Formats lists every format.
var Formats = []string{JSON, RSS, Atom}

// ContentType returns the media type of a format.
func ContentType(format string) string {
	switch format {
	case JSON:
		return "application/feed+json"
	case RSS:
		return "application/rss+xml; charset=utf-8"
	}
	return "application/atom+xml; charset=utf-8"
}

// MaxItems is how many signals a feed holds: the newest.
const MaxItems = 50

// Meta describes one feed: its title and where it and its page live.
type Meta struct {
	Title       string
	Description string
	// HomeURL is the page the feed mirrors, FeedURL the feed itself
	// (absolute).
	HomeURL, FeedURL string
	// SignalURL is the absolute URL of a signal's page, which items link
	// to (their source link is given beside it).
	SignalURL func(id string) string
	// Icon is the absolute URL of the site's icon.
	Icon string
}

// Language is the language of a feed's own words; items in another
// language say so.
const Language = "en"

// Write renders signals (newest first) as the format.
func Write(format string, m Meta, signals []model.Signal) ([]byte, error) {
	switch format {
	case JSON:
		return writeJSON(m, signals)
	case RSS:
		return writeRSS(m, signals)
	case Atom:
		return writeAtom(m, signals)
	}
	return nil, fmt.Errorf("feed: unknown format %q", format)
}

// snippet is the text a feed item carries: the list snippet.
func snippet(s model.Signal) string { return model.Cut(s.Text, model.ListSnippetChars) }

// LastModified is when a feed of signals last changed, as its documents
// say (Atom updated, RSS lastBuildDate): the newest collection time of
// its items (publication time for one never collected), the same for the
// three formats of one feed.
func LastModified(signals []model.Signal) time.Time { return lastUpdated(signals) }

// lastUpdated is when the newest change among the items happened, as far
// as a reader can tell (the Unix epoch for an empty feed): it depends on
// the data alone, so an unchanged feed renders to the same bytes.
func lastUpdated(signals []model.Signal) time.Time {
	t := time.Unix(0, 0).UTC()
	for _, s := range signals {
		if u := updated(s); u.After(t) {
			t = u
		}
	}
	return t
}

// updated is when an item last changed as far as a reader can tell: its
// collection time, or its publication time when that is unknown.
func updated(s model.Signal) time.Time {
	if s.ObservedAt != nil {
		return s.ObservedAt.Time()
	}
	return s.PublishedAt.Time()
}

type jsonFeed struct {
	Version     string     `json:"version"`
	Title       string     `json:"title"`
	HomePageURL string     `json:"home_page_url"`
	FeedURL     string     `json:"feed_url"`
	Description string     `json:"description"`
	Icon        string     `json:"icon,omitempty"`
	Favicon     string     `json:"favicon,omitempty"`
	Language    string     `json:"language"`
	Items       []jsonItem `json:"items"`
}

type jsonAuthor struct {
	Name string `json:"name"`
}

type jsonItem struct {
	ID            string       `json:"id"`
	URL           string       `json:"url"`
	ExternalURL   string       `json:"external_url,omitempty"`
	Title         string       `json:"title"`
	ContentText   string       `json:"content_text"`
	DatePublished string       `json:"date_published"`
	DateModified  string       `json:"date_modified"`
	Authors       []jsonAuthor `json:"authors"`
	Tags          []string     `json:"tags"`
	Language      string       `json:"language,omitempty"`
	// Signal carries the fields JSON Feed has no place for (an extension,
	// named with a leading underscore as JSON Feed 1.1 asks).
	Signal jsonExtension `json:"_signal"`
}

type jsonExtension struct {
	Tag                  string  `json:"tag"`
	Source               string  `json:"source"`
	Language             string  `json:"language"`
	Country              *string `json:"country"`
	AuthorHeadline       string  `json:"author_headline"`
	PublishedAtPrecision string  `json:"published_at_precision"`
	ObservedAt           *string `json:"observed_at"`
	TextTruncated        bool    `json:"text_truncated"`
}

func writeJSON(m Meta, signals []model.Signal) ([]byte, error) {
	f := jsonFeed{Version: "https://jsonfeed.org/version/1.1", Title: m.Title, HomePageURL: m.HomeURL,
		FeedURL: m.FeedURL, Description: m.Description, Icon: m.Icon, Favicon: m.Icon, Language: Language, Items: make([]jsonItem, len(signals))}
	for i, s := range signals {
		ext := jsonExtension{Tag: s.Tag, Source: s.Source, Language: s.Language, AuthorHeadline: s.AuthorHeadline,
			PublishedAtPrecision: s.PublishedAtPrecision, TextTruncated: s.TextChars > model.ListSnippetChars}
		if s.Country != "" {
			ext.Country = &s.Country
		}
		if s.ObservedAt != nil {
			o := s.ObservedAt.String()
			ext.ObservedAt = &o
		}
		lang := ""
		if s.Language != "other" {
			lang = s.Language
		}
		f.Items[i] = jsonItem{ID: s.ID, URL: m.SignalURL(s.ID), ExternalURL: model.SafeURL(s.SourceURL), Title: Title(s), ContentText: snippet(s),
			DatePublished: s.PublishedAt.String(), DateModified: updated(s).Format(time.RFC3339Nano),
			Authors: []jsonAuthor{{Name: s.AuthorName}}, Tags: []string{s.Tag}, Language: lang, Signal: ext}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(f); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

type rss struct {
	XMLName xml.Name   `xml:"rss"`
	Version string     `xml:"version,attr"`
	Atom    string     `xml:"xmlns:atom,attr"`
	DC      string     `xml:"xmlns:dc,attr"`
	Channel rssChannel `xml:"channel"`
}

type rssChannel struct {
	Title         string    `xml:"title"`
	Link          string    `xml:"link"`
	Description   string    `xml:"description"`
	Language      string    `xml:"language"`
	Image         *rssImage `xml:"image"`
	Self          atomLink  `xml:"atom:link"`
	LastBuildDate string    `xml:"lastBuildDate"`
	Items         []rssItem `xml:"item"`
}

type rssImage struct {
	URL   string `xml:"url"`
	Title string `xml:"title"`
	Link  string `xml:"link"`
}

type rssGUID struct {
	IsPermaLink string `xml:"isPermaLink,attr"`
	Value       string `xml:",chardata"`
}

type rssItem struct {
	Title       string  `xml:"title"`
	Link        string  `xml:"link"`
	Description string  `xml:"description"`
	Creator     string  `xml:"dc:creator"`
	Category    string  `xml:"category"`
	GUID        rssGUID `xml:"guid"`
	PubDate     string  `xml:"pubDate"`
}

func writeRSS(m Meta, signals []model.Signal) ([]byte, error) {
	doc := rss{Version: "2.0", Atom: "http://www.w3.org/2005/Atom", DC: "http://purl.org/dc/elements/1.1/",
		Channel: rssChannel{Title: m.Title, Link: m.HomeURL, Description: m.Description, Language: Language,
			Self:          atomLink{Href: m.FeedURL, Rel: "self", Type: "application/rss+xml"},
			LastBuildDate: lastUpdated(signals).Format(time.RFC1123Z), Items: make([]rssItem, len(signals))}}
	for i, s := range signals {
		doc.Channel.Items[i] = rssItem{
			// Readers take an RSS title as plain text but a description as
			// HTML: the snippet is escaped once for HTML here and once
			// more for XML by the encoder, so it reads as the text it is.
			Title: Title(s), Link: m.SignalURL(s.ID), Description: rssDescription(s),
			Creator: s.AuthorName, Category: s.Tag,
			GUID:    rssGUID{IsPermaLink: "false", Value: s.ID},
			PubDate: s.PublishedAt.Time().Format(time.RFC1123Z),
		}
	}
	if m.Icon != "" {
		doc.Channel.Image = &rssImage{URL: m.Icon, Title: m.Title, Link: m.HomeURL}
	}
	return marshalXML(doc)
}

type atomFeed struct {
	XMLName  xml.Name    `xml:"http://www.w3.org/2005/Atom feed"`
	Lang     string      `xml:"xml:lang,attr"`
	Title    atomText    `xml:"title"`
	Subtitle atomText    `xml:"subtitle"`
	ID       string      `xml:"id"`
	Updated  string      `xml:"updated"`
	Links    []atomLink  `xml:"link"`
	Icon     string      `xml:"icon,omitempty"`
	Logo     string      `xml:"logo,omitempty"`
	Entries  []atomEntry `xml:"entry"`
}

type atomText struct {
	Type  string `xml:"type,attr"`
	Value string `xml:",chardata"`
}

type atomLink struct {
	Href string `xml:"href,attr"`
	Rel  string `xml:"rel,attr"`
	Type string `xml:"type,attr,omitempty"`
}

type atomPerson struct {
	Name string `xml:"name"`
}

type atomCategory struct {
	Term string `xml:"term,attr"`
}

type atomEntry struct {
	Lang      string       `xml:"xml:lang,attr,omitempty"`
	Title     atomText     `xml:"title"`
	ID        string       `xml:"id"`
	Links     []atomLink   `xml:"link"`
	Published string       `xml:"published"`
	Updated   string       `xml:"updated"`
	Author    atomPerson   `xml:"author"`
	Category  atomCategory `xml:"category"`
	Summary   atomText     `xml:"summary"`
}

func writeAtom(m Meta, signals []model.Signal) ([]byte, error) {
	doc := atomFeed{Lang: Language, Icon: m.Icon, Logo: m.Icon, Title: atomText{"text", m.Title}, Subtitle: atomText{"text", m.Description},
		ID: m.FeedURL, Updated: lastUpdated(signals).Format(time.RFC3339Nano),
		Links: []atomLink{{Href: m.FeedURL, Rel: "self", Type: "application/atom+xml"},
			{Href: m.HomeURL, Rel: "alternate", Type: "text/html"}},
		Entries: make([]atomEntry, len(signals))}
	for i, s := range signals {
		doc.Entries[i] = atomEntry{Lang: entryLang(s),
			// Plain-text constructs: readers show them as text, never as
			// markup.
			Title: atomText{"text", Title(s)}, ID: EntryID(m.FeedURL, s.ID),
			Links:     entryLinks(m, s),
			Published: s.PublishedAt.String(), Updated: updated(s).Format(time.RFC3339Nano),
			Author: atomPerson{Name: s.AuthorName}, Category: atomCategory{Term: s.Tag},
			Summary: atomText{"text", snippet(s)},
		}
	}
	return marshalXML(doc)
}

// entryLinks are an Atom entry's links: its page, and its source as a
// related resource.
func entryLinks(m Meta, s model.Signal) []atomLink {
	links := []atomLink{{Href: m.SignalURL(s.ID), Rel: "alternate", Type: "text/html"}}
	if u := model.SafeURL(s.SourceURL); u != "" {
		links = append(links, atomLink{Href: u, Rel: "related", Type: "text/html"})
	}
	return links
}

// entryLang is the language of an entry in a language other than the
// feed's, or "".
func entryLang(s model.Signal) string {
	if s.Language == Language || s.Language == "other" {
		return ""
	}
	return s.Language
}

// rssDescription is an RSS item's description, which readers take as
// HTML: the snippet in paragraphs (a blank line parts them, a single line
// break stays one), each line escaped, then its source link.
func rssDescription(s model.Signal) string {
	var b strings.Builder
	text := strings.ReplaceAll(snippet(s), "\r", "")
	if s.TextChars > model.ListSnippetChars {
		text += "…"
	}
	for para := range strings.SplitSeq(text, "\n\n") {
		var lines []string
		for line := range strings.SplitSeq(para, "\n") {
			if line = strings.TrimSpace(line); line != "" {
				lines = append(lines, html.EscapeString(line))
			}
		}
		if len(lines) > 0 {
			b.WriteString("<p>" + strings.Join(lines, "<br>") + "</p>")
		}
	}
	if u := model.SafeURL(s.SourceURL); u != "" {
		b.WriteString(`<p><a href="` + html.EscapeString(u) + `">Source</a></p>`)
	}
	return b.String()
}

// EntryID is the permanent IRI of a signal in an Atom feed: a tag URI
// (RFC 4151) of the feed's host and the signal's id.
func EntryID(feedURL, id string) string {
	host := "localhost"
	if u, err := url.Parse(feedURL); err == nil && u.Hostname() != "" {
		host = u.Hostname()
	}
	return "tag:" + host + ",2026:signal/" + url.PathEscape(id)
}

func marshalXML(v any) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(&b)
	enc.Indent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}
