package web

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"signals/internal/api"
	"signals/internal/failure"
	"signals/internal/feed"
	"signals/internal/model"
	"signals/internal/store"
)

// SignalsPath is where each public signal has its page, under its
// URL-encoded id (as the API takes it).
const SignalsPath = "/signals/"

// SignalPath is the path of a signal's page.
func SignalPath(id string) string { return SignalsPath + url.PathEscape(id) }

// signalPageView is the content of a signal's page: what the feed shows of
// it, its id and where its full text is.
type signalPageView struct {
	signalView
	Heading                 string
	ID                      string
	Observed                string
	TextChars, SnippetChars int
	// APIURL reads the full text, with a key.
	APIURL string
}

// signalPage serves /signals/{id}: a public signal's snippet and metadata,
// never its full text, which stays behind a key. Any other id (hidden,
// pending, market-only or unknown) is the same 404. The page reads no
// query parameter: any (a shared link's fbclid) is ignored.
func (s *Site) signalPage(w http.ResponseWriter, r *http.Request) {
	format, err := Negotiate(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	missing := failure.NotFound("no public signal at " + r.URL.EscapedPath() + "; the public signals are listed at " + s.base + "/")
	id, err := url.PathUnescape(strings.TrimPrefix(r.URL.EscapedPath(), SignalsPath))
	if err != nil || !model.PlausibleID(id) {
		s.Error(w, r, missing)
		return
	}
	sig, err := s.cfg.Store.GetSignal(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		s.Error(w, r, missing)
		return
	}
	if err != nil {
		s.Error(w, r, err)
		return
	}
	v := signalPageView{signalView: newSignalView(sig), Heading: feed.Title(sig), ID: sig.ID,
		TextChars: sig.TextChars, SnippetChars: model.ListSnippetChars, APIURL: s.base + api.SignalsPath + "/" + url.PathEscape(sig.ID)}
	if sig.ObservedAt != nil {
		v.Observed = TimeLabel(sig.ObservedAt.Time())
	}
	pageHeaders(w.Header())
	if format == Markdown {
		canonicalLink(w.Header(), s.absolute(SignalPath(sig.ID)))
		writeMarkdown(w, r, http.StatusOK, signalMarkdown(v))
		return
	}
	body, err := s.render(r, "signal", view{Title: v.Heading, Section: "/",
		Description: v.TagLabel + " signal by " + sig.AuthorName + ", from " + v.SourceLabel + ".",
		Content:     v})
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeHTML(w, r, http.StatusOK, body)
}

// signalMarkdown writes a signal's page as Markdown: every field the
// signal supplies is escaped (one-line fields) or fenced (the snippet), so
// none can form a link, an image, a heading or HTML.
func signalMarkdown(v signalPageView) []byte {
	b := append([]byte("# "), appendMDText(nil, v.Heading)...)
	b = append(b, "\n\n"+untrustedNote+"\n\n"...)
	b = append(append(append(b, "- Kind: "...), v.TagLabel...), '\n')
	b = append(append(append(b, "- Source: "...), v.SourceLabel...), '\n')
	if v.CountryLabel != "" {
		b = append(append(append(b, "- Place: "...), v.CountryLabel...), '\n')
	}
	b = append(append(append(b, "- Language: "...), v.LanguageLabel...), '\n')
	b = append(append(append(b, "- Published: "...), v.Published...), '\n')
	if v.Observed != "" {
		b = append(append(append(b, "- Collected: "...), v.Observed...), '\n')
	}
	b = appendMDText(append(b, "- Author: "...), v.AuthorName)
	if v.AuthorHeadline != "" {
		b = appendMDText(append(b, ", "...), v.AuthorHeadline)
	}
	b = append(b, '\n')
	if v.SourceURL != "" {
		b = append(append(append(b, "- Source link: <"...), v.SourceURL...), ">\n"...)
	}
	b = append(appendMDText(append(b, "- ID: "...), v.ID), '\n')
	b = fmt.Appendf(b, "- Full text: %d characters, with an API key: `GET %s`\n", v.TextChars, v.APIURL)
	if v.Cut {
		b = fmt.Appendf(b, "- Snippet: the first %d of %d characters.\n", model.ListSnippetChars, v.TextChars)
	}
	return appendMDBlock(append(b, '\n'), v.Snippet)
}
