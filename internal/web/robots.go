package web

import (
	"net/http"
	"strings"
)

// Paths of the files crawlers and browsers look for at a site's root.
const (
	RobotsPath  = "/robots.txt"
	SitemapPath = "/sitemap.xml"
	FaviconPath = "/favicon.ico"
)

// robotsDisallowed are the paths crawlers are asked to leave alone: the
// private areas (the account, the desk), sign-in and OAuth pages, semantic
// search (personal, and no page to index), and what only programs with a
// credential use.
var robotsDisallowed = []string{"/account", "/desk", "/oauth/", "/sign-in", "/sign-out", SearchPath, "/api/", "/mcp"}

// robots serves /robots.txt (RFC 9309): the public site is open to
// crawlers, the rest is not, and the sitemap lists the pages.
func (s *Site) robots(w http.ResponseWriter, r *http.Request) {
	var b strings.Builder
	b.WriteString("User-agent: *\nAllow: /\n")
	for _, p := range robotsDisallowed {
		b.WriteString("Disallow: " + p + "\n")
	}
	b.WriteString("\nSitemap: " + s.base + SitemapPath + "\n")
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Cache-Control", "public, max-age=3600")
	write(w, r, http.StatusOK, []byte(b.String()))
}
