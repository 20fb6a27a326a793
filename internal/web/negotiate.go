// Package web serves the service's public pages. Each is HTML by default
// and Markdown to clients that ask for it (docs/api.md, "Public pages as
// Markdown").
package web

import (
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"signals/internal/failure"
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
		return "", failure.New(failure.CodeConflictingFormats,
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
	return acceptQuality(accept, "text/markdown", "text/x-markdown"),
		acceptQuality(accept, "text/html", "application/xhtml+xml")
}

// prefersJSON reports whether the Accept headers rank a JSON type above
// HTML: a program that asks for JSON gets its errors as problem details
// even on a page's path.
func prefersJSON(r *http.Request) bool {
	accept := r.Header.Values("Accept")
	json := acceptQuality(accept, "application/json", "application/problem+json")
	return json > 0 && json > acceptQuality(accept, "text/html", "application/xhtml+xml")
}

// acceptQuality returns the highest q-value the Accept headers give any of
// the media types, naming them explicitly (0 when none is named).
func acceptQuality(accept []string, types ...string) float64 {
	best := 0.0
	for _, h := range accept {
		for part := range strings.SplitSeq(h, ",") {
			mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
			if err != nil || !slices.Contains(types, mt) {
				continue
			}
			q := 1.0
			if v, ok := params["q"]; ok {
				f, err := strconv.ParseFloat(v, 64)
				if err != nil || f < 0 || f > 1 {
					continue
				}
				q = f
			}
			best = max(best, q)
		}
	}
	return best
}
