package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"signals/internal/failure"
	"signals/internal/label"
	"signals/internal/layout"
	"signals/internal/model"
	"signals/internal/reads"
	"signals/internal/session"
	"signals/internal/store"
)

// SignalsPath is where each public signal has its page, under its
// URL-encoded id (as the API takes it); the page's Markdown is also at
// its path plus MarkdownSuffix.
const SignalsPath = reads.PagesPath

// SignalPath is the path of a signal's page.
func SignalPath(id string) string { return reads.PagePath(id) }

// FromParam is the one parameter of a signal's page: the feed view the
// reader came from (a local path and query, as the feed's links give it),
// which the page's way back returns to. Every other parameter is ignored.
const FromParam = "from"

// signalPageView is the content of a signal's page: its heading, what the
// feed shows of it, its id, the way back and the signals related to it.
type signalPageView struct {
	signalView
	Heading string
	// Body is the snippet without the sentence the heading took from it.
	Body     string
	ID       string
	Observed string
	// TextChars and SnippetChars say how much of a long post the page
	// shows; KeyLink is where a key for the full text is made, and
	// KeyLabel names that link for the visitor (signed in or not).
	TextChars, SnippetChars int
	KeyLink, KeyLabel       string
	// Back leads to the feed view the reader came from; BackLabel names
	// it, and BackFilter describes its filter ("" for none).
	Back, BackLabel, BackFilter string
	Related                     []relatedView
	// RelatedNote says how the related signals were chosen; RelatedNone
	// says why none is listed.
	RelatedNote, RelatedNone string
}

// signalPage serves /signals/{id}: a public signal's heading, snippet and
// metadata, never its full text, which stays behind a key; a way back to
// the feed; and the public signals nearest to it in meaning. Any other id
// (hidden, pending, market-only or unknown) is the same 404. The page
// reads only from: any other parameter (a shared link's fbclid) is ignored.
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
	ctx := r.Context()
	sig, err := s.cfg.Store.GetSignal(ctx, id)
	if md, ok := strings.CutSuffix(id, MarkdownSuffix); ok && errors.Is(err, store.ErrNotFound) && md != "" {
		// The page's Markdown address, for readers that follow links but
		// send no Accept: text/markdown. An id that itself ends in ".md"
		// was read first, so its page stays where it was.
		if sig, err = s.cfg.Store.GetSignal(ctx, md); err == nil {
			format = Markdown
		}
	}
	if errors.Is(err, store.ErrNotFound) {
		s.Error(w, r, missing)
		return
	}
	if err != nil {
		s.Error(w, r, err)
		return
	}
	v := signalPageView{signalView: newSignalView(sig), ID: sig.ID, TextChars: sig.TextChars,
		SnippetChars: model.ListSnippetChars, KeyLink: "/account", KeyLabel: "Sign in to get an API key"}
	if _, ok := session.FromContext(ctx); ok {
		v.KeyLabel = "Create an API key in your account"
	}
	var rest int
	v.Heading, rest = signalHeading(sig)
	snippet := model.Cut(sig.Text, model.ListSnippetChars)
	v.Body = layout.Text(strings.TrimLeftFunc(snippet[min(rest, len(snippet)):], unicode.IsSpace))
	if sig.ObservedAt != nil {
		v.Observed = label.Time(sig.ObservedAt.Time())
	}
	from := r.URL.Query().Get(FromParam)
	if v.Back, v.BackLabel, v.BackFilter, err = s.backTo(ctx, from); err != nil {
		s.Error(w, r, err)
		return
	}
	if v.Related, v.RelatedNone, err = s.related(ctx, sig, v.Back); err != nil {
		s.Error(w, r, err)
		return
	}
	if len(v.Related) > 0 {
		v.RelatedNote = relatedNote
	}
	pageHeaders(w.Header())
	if format == Markdown {
		canonicalLink(w.Header(), s.absolute(SignalPath(sig.ID)))
		writeMarkdown(w, r, http.StatusOK, s.signalMarkdown(v))
		return
	}
	alternates := append(feedLinks(""), link{Href: SignalPath(sig.ID) + MarkdownSuffix, Title: "Markdown", Type: "text/markdown", Format: "plain text"})
	body, err := s.render(r, "signal", view{Title: v.Heading, Section: "/", Alternates: alternates,
		Description: v.TagLabel + " signal by " + v.AuthorName + ", from " + v.SourceLabel + ".",
		Content:     v})
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeHTML(w, r, http.StatusOK, body)
}

// maxHeadingChars bounds a heading taken from a signal's text: a first
// sentence longer than a line or two is a paragraph, not a heading.
const maxHeadingChars = 160

// signalHeading names a signal on its own page: the first sentence of its
// text (up to a sentence end or a line break) when that is short enough to
// be a heading, else its author's name and headline, else its kind and
// author. rest is the byte offset in the text after the sentence taken, 0
// when the heading is not from the text, so that the page does not repeat
// it just below. A heading is never a cut copy of the text.
func signalHeading(s model.Signal) (heading string, rest int) {
	start := len(s.Text) - len(strings.TrimLeftFunc(s.Text, unicode.IsSpace))
	end := sentenceEnd(s.Text[start:]) + start
	if h := oneLine(s.Text[start:end]); h != "" && model.Chars(h) <= maxHeadingChars {
		return h, end
	}
	name := oneLine(s.AuthorName)
	if headline := oneLine(s.AuthorHeadline); headline != "" {
		return name + ", " + headline, 0
	}
	return label.Tag(s.Tag) + " signal by " + name, 0
}

// sentenceEnd returns the byte offset in text just past its first
// sentence: past the first ".", "!", "?" or "…" that is followed by a
// space and then by anything but a lowercase letter (so "e.g. this" goes
// on), or at the first line break, or the end of the text.
func sentenceEnd(text string) int {
	for i, r := range text {
		switch r {
		case '\n', '\r':
			return i
		case '.', '!', '?', '…':
			after := text[i+utf8.RuneLen(r):]
			next := strings.TrimLeft(after, " \t")
			if after == "" || len(next) == len(after) {
				if after == "" {
					return len(text)
				}
				continue // "3.5", "example.org", "?!"
			}
			if n, _ := utf8.DecodeRuneInString(next); !unicode.IsLower(n) {
				return i + utf8.RuneLen(r)
			}
		}
	}
	return len(text)
}

// oneLine folds whitespace to single spaces and drops what a heading
// cannot hold: control characters (layout.Text) and bidi controls, which
// would reorder what follows it.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(layout.Text(s)), " ")
	return strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Bidi_Control, r) {
			return -1
		}
		return r
	}, s)
}

// backTo returns the way back from a signal's page: the public feed or the
// hub that from names, with its filter and page, and a label naming it; the
// public feed when from is empty or names anything else. from is read as
// the feed reads its query (parameters it does not use are left out), so
// that the link can only lead to a clean address of a feed view of this
// site.
func (s *Site) backTo(ctx context.Context, from string) (href, label, filter string, err error) {
	href, label = "/", "Back to the feed"
	u, perr := url.Parse(from)
	if from == "" || perr != nil || u.Scheme != "" || u.Host != "" || u.User != nil || u.Opaque != "" {
		return href, label, "", nil
	}
	switch slug, isHub := strings.CutPrefix(u.Path, "/hubs/"); {
	case u.Path == "/":
		q, perr := reads.ParseListQuery(withoutBlank(usedParams(u.RawQuery, feedParams)))
		if perr != nil {
			return href, label, "", nil
		}
		href = pageURL(listing{path: "/", query: q}, q.Page)
		if f := (model.ListQuery{Filter: q.Filter, Q: q.Q}); model.CanonicalQuery(f) != "" {
			filter = strings.Join(filterSummary(f), "; ")
		}
	case isHub && model.ValidSlug(slug):
		hub, herr := s.cfg.Store.Hub(ctx, slug)
		if errors.Is(herr, store.ErrNotFound) {
			return href, label, "", nil
		}
		if herr != nil {
			return "", "", "", herr
		}
		q, perr := reads.ParseListQuery(withoutBlank(usedParams(u.RawQuery, hubParams)))
		if perr != nil {
			q = model.ListQuery{Page: 1}
		}
		href, label = pageURL(listing{path: "/hubs/" + hub.Slug, query: q, hub: &hub}, q.Page), "Back to "+hub.Title
	}
	return href, label, filter, nil
}

// withFrom adds the way back to a signal's page link, unless it is the
// plain public feed, where the way back leads anyway.
func withFrom(href, back string) string {
	if back == "" || back == "/" {
		return href
	}
	return href + "?" + FromParam + "=" + url.QueryEscape(back)
}

// signalMarkdown writes a signal's page as Markdown: the id and the
// author's name as code spans (readers copy them), every other field the
// signal supplies escaped (one-line fields) or fenced (the snippet), so
// none can form a link, an image, a heading or HTML.
func (s *Site) signalMarkdown(v signalPageView) []byte {
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
	b = appendMDCode(append(b, "- Author: "...), v.AuthorName)
	if v.AuthorHeadline != "" {
		b = appendMDText(append(b, ", "...), v.AuthorHeadline)
	}
	b = append(b, '\n')
	if v.SourceURL != "" {
		b = append(append(append(b, "- Source link: <"...), v.SourceURL...), ">\n"...)
	}
	b = append(appendMDCode(append(b, "- ID: "...), v.ID), '\n')
	if v.Cut {
		b = fmt.Appendf(b, "- Snippet: this page shows the first %d of the post's %d characters. "+
			"The full text is available with an API key; get one at <%s>.\n",
			v.SnippetChars, v.TextChars, s.absolute(v.KeyLink))
	}
	b = appendMDText(append(b, "- "...), v.BackLabel)
	if v.BackFilter != "" {
		b = append(appendMDText(append(b, " ("...), v.BackFilter), ')')
	}
	b = append(append(append(b, ": <"...), model.SafeURL(s.absolute(v.Back))...), ">\n"...)
	if v.Body != "" {
		b = appendMDBlock(append(b, '\n'), v.Body)
	}
	b = append(b, "\n## Related signals\n\n"...)
	if len(v.Related) == 0 {
		return append(append(b, v.RelatedNone...), '\n')
	}
	b = append(append(b, relatedNote...), "\n\n"...)
	for i, r := range v.Related {
		b = fmt.Appendf(b, "%d. [", i+1)
		b = appendMDText(b, r.Heading)
		b = append(append(append(b, "]("...), model.SafeURL(s.absolute(r.Href))...), "): "...)
		b = append(append(append(b, r.TagLabel...), ", "...), r.Published...)
		b = appendMDCode(append(b, ", by "...), r.AuthorName)
		b = append(b, '\n')
	}
	return b
}
