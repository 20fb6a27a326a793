package web

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"signals/internal/failure"
	"signals/internal/problem"
)

// errorPage is what a page shows of a failed request: the same code and
// message as the API's problem details.
type errorPage struct {
	Title, Detail, Code, RequestID string
	Status                         int
	// Allowed lists the accepted values when they are few enough to read.
	Allowed []string
	// NotFound is a page for someone who followed a wrong address: it
	// leads back to the site and its feeds.
	NotFound bool
	// Retry is the page to load again after Wait ("2 seconds"), when the
	// service is busy or unavailable for a known while ("" otherwise).
	Retry, Wait string
}

// notFoundTitle heads the page of an address that leads nowhere.
const notFoundTitle = "Page not found"

// maxAllowedShown is the longest list of allowed values a page spells out
// (the country list is in the developer documentation instead).
const maxAllowedShown = 12

func newErrorPage(p *problem.Problem) errorPage {
	e := errorPage{Title: p.Title, Detail: p.Detail, Code: string(p.Code), RequestID: p.RequestID, Status: p.Status}
	if len(p.AllowedValues) <= maxAllowedShown {
		e.Allowed = p.AllowedValues
	}
	if p.Code == failure.CodeNotFound {
		e.NotFound, e.Title = true, notFoundTitle
	}
	return e
}

// markdown writes the error as a Markdown document, with links from base.
// The detail may quote what the client sent, so it is escaped.
func (e errorPage) markdown(base string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n%s\n\nStatus %d, code `%s`.", e.Title, mdText(e.Detail), e.Status, e.Code)
	if e.RequestID != "" {
		fmt.Fprintf(&b, " Request id `%s`.", e.RequestID)
	}
	b.WriteString("\n")
	if e.NotFound {
		fmt.Fprintf(&b, "\nThe public feed is the home page, [%s/](%s/), also as a [JSON Feed](%s/feed.json), "+
			"[RSS](%s/feed.rss) and [Atom](%s/feed.atom). The developer documentation is at [%s/developers](%s/developers).\n",
			base, base, base, base, base, base, base)
	}
	if len(e.Allowed) > 0 {
		fmt.Fprintf(&b, "\nAllowed values: %s.\n", mdText(strings.Join(e.Allowed, ", ")))
	}
	if e.Retry != "" {
		fmt.Fprintf(&b, "\nThis is usually brief: wait %s, then try again: <%s%s>.\n", e.Wait, base, e.Retry)
	}
	return []byte(b.String())
}

// Error answers a failed page request in the medium the request asks for:
// an HTML page by default, Markdown to a Markdown request, and problem
// details (JSON) to a client that prefers JSON or whose formats conflict.
// The status, code and message are the API's.
func (s *Site) Error(w http.ResponseWriter, r *http.Request, err error) {
	format, conflict := Negotiate(r)
	if conflict != nil || prefersJSON(r) {
		s.cfg.Problems.Write(w, r, err)
		return
	}
	p := s.cfg.Problems.Resolve(r, err)
	if p == nil {
		return // the client left; nobody reads the answer
	}
	h := w.Header()
	pageHeaders(h)
	h.Set("Cache-Control", "no-store")
	if len(p.AllowedMethods) > 0 {
		h.Set("Allow", strings.Join(p.AllowedMethods, ", "))
	}
	if p.RetryAfterSeconds != nil {
		h.Set("Retry-After", strconv.Itoa(*p.RetryAfterSeconds))
	}
	page := newErrorPage(p)
	if p.Status == http.StatusServiceUnavailable && p.RetryAfterSeconds != nil && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
		// The wait is known: the page offers to load itself again.
		if uri := r.URL.RequestURI(); strings.HasPrefix(uri, "/") && !strings.HasPrefix(uri, "//") {
			page.Retry, page.Wait = uri, seconds(*p.RetryAfterSeconds)
		}
	}
	if format == Markdown {
		writeMarkdown(w, r, p.Status, page.markdown(s.base))
		return
	}
	body, rerr := s.render(r, "error", view{Title: page.Title, Content: page})
	if rerr != nil {
		// The layout is fixed at build time; should it fail, the problem
		// details still say what happened.
		s.cfg.Problems.Write(w, r, err)
		return
	}
	writeHTML(w, r, p.Status, body)
}

// seconds says a number of seconds in words: "1 second", "2 seconds".
func seconds(n int) string {
	if n == 1 {
		return "1 second"
	}
	return strconv.Itoa(n) + " seconds"
}
