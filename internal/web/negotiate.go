// Package web serves the service's public pages. Each is HTML by default
// and Markdown to clients that ask for it (CONTRACT §1, "Public pages as
// Markdown").
package web

import (
	"mime"
	"net/http"
	"strconv"
	"strings"

	"signals/internal/problem"
)

// Formats a page can be served in.
const (
	HTML     = "html"
	Markdown = "markdown"
)

// Negotiate picks the format of a page request. Markdown is served only when
// the Accept header names text/markdown with a quality above any explicit
// text/html preference; wildcards never select it. Client-side navigation
// and prefetch requests keep the normal format, and a Markdown request that
// also carries the front end's router headers is a conflict (400).
func Negotiate(r *http.Request) (string, error) {
	md, html := quality(r.Header.Values("Accept"))
	wantsMarkdown := md > 0 && md > html
	if !wantsMarkdown {
		return HTML, nil
	}
	if r.Header.Get("HX-Request") != "" || r.Header.Get("HX-Boosted") != "" {
		return "", problem.New(http.StatusBadRequest, problem.CodeConflictingFormats,
			"a Markdown request (Accept: text/markdown) cannot also carry the web front end's router headers (HX-Request, HX-Boosted)")
	}
	if isPrefetch(r) {
		return HTML, nil
	}
	return Markdown, nil
}

func isPrefetch(r *http.Request) bool {
	return strings.Contains(strings.ToLower(r.Header.Get("Sec-Purpose")), "prefetch") ||
		strings.EqualFold(r.Header.Get("Purpose"), "prefetch")
}

// quality returns the q-values the Accept headers give text/markdown and,
// explicitly, text/html (0 when not named).
func quality(accept []string) (markdown, html float64) {
	for _, h := range accept {
		for part := range strings.SplitSeq(h, ",") {
			mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
			if err != nil {
				continue
			}
			q := 1.0
			if v, ok := params["q"]; ok {
				if f, err := strconv.ParseFloat(v, 64); err == nil && f >= 0 && f <= 1 {
					q = f
				} else {
					continue
				}
			}
			switch mt {
			case "text/markdown", "text/x-markdown":
				markdown = max(markdown, q)
			case "text/html", "application/xhtml+xml":
				html = max(html, q)
			}
		}
	}
	return markdown, html
}
