package web

import (
	"bytes"
	"embed"
	"html/template"
	"net/http"
	"strconv"

	"signals/internal/session"
)

//go:embed templates/*.html
var templateFiles embed.FS

// ContentSecurityPolicy allows the service's own scripts, styles and
// requests only, and no framing: no inline script or style runs, so text
// that escaped into a page still could not act.
const ContentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; " +
	"connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// ReferrerPolicy sends only the origin to other sites: a filtered page's
// query stays here.
const ReferrerPolicy = "strict-origin-when-cross-origin"

// link is a navigation entry or an alternate representation.
type link struct {
	Href    string
	Title   string
	Type    string
	Current bool
	// Format says, in the footer, what following the link opens: a feed
	// reader's XML or JSON rather than a page.
	Format string
}

// view is what the layout needs to frame one page.
type view struct {
	Title       string
	Description string
	// Section names the navigation entry to mark current.
	Section    string
	Alternates []link
	Nav        []link
	SubNav     []link
	CSS, JS    string
	// Script is the site's own script (copy buttons), on every page
	// since htmx swaps pages in without loading their scripts.
	Script string
	Icon   string
	// NoIndex keeps a personal page out of search engines.
	NoIndex bool
	// Canonical is the page's absolute address, named by the canonical
	// link and Open Graph; render fills it in from the base URL and the
	// request's path for a public page that sets none. Error and personal
	// pages have none.
	Canonical string
	// OGType is the Open Graph type: "website" unless set ("article").
	OGType string
	// Subscribe is the page that explains following the feeds the
	// footer names; SubscribePath unless set.
	Subscribe string
	Content   any
}

// siteDescription describes a page that has no description of its own.
const siteDescription = "Curated AI signals — jobs, funding, launches, feedback, physical AI and events — " +
	"collected from public posts and reviewed, with feeds, an HTTP API and an MCP server."

// sections is the main navigation, in order.
var sections = []link{
	{Href: "/", Title: "Feed"},
	{Href: "/hubs", Title: "Hubs"},
	{Href: "/articles", Title: "Articles"},
	{Href: "/developers", Title: "Developers"},
	{Href: "/about", Title: "About"},
	{Href: "/contact", Title: "Contact"},
}

// The last entry of the main navigation depends on the visitor: the
// account area for someone signed in, signing in for anyone else.
var (
	accountLink = link{Href: "/account", Title: "Account"}
	signInLink  = link{Href: session.SignInPath, Title: "Sign in"}
)

// developerNav is the second-level navigation of the developer pages.
var developerNav = []link{
	{Href: "/developers", Title: "Overview"},
	{Href: "/developers/api", Title: "HTTP API"},
	{Href: "/developers/mcp", Title: "MCP"},
	{Href: "/developers/errors", Title: "Errors"},
	{Href: "/openapi.json", Title: "OpenAPI"},
}

// layouts holds one parsed template per kind of page, each with the shared
// layout.
type layouts map[string]*template.Template

func parseLayouts() (layouts, error) {
	base, err := template.ParseFS(templateFiles, "templates/layout.html")
	if err != nil {
		return nil, err
	}
	out := layouts{}
	form, err := template.ParseFS(templateFiles, "templates/form.html")
	if err != nil {
		return nil, err
	}
	out["form"] = form
	box, err := template.ParseFS(templateFiles, "templates/searchbox.html")
	if err != nil {
		return nil, err
	}
	out["searchbox"] = box
	for _, name := range []string{"feed", "doc", "cards", "error", "page", "signal", "search", "subscribe"} {
		t, err := template.Must(base.Clone()).ParseFS(templateFiles, "templates/"+name+".html")
		if err != nil {
			return nil, err
		}
		out[name] = t
	}
	return out, nil
}

// render frames v in the layout with the named page template, for the
// visitor of r (signed in or not, as the session loaded into its context
// says).
func (s *Site) render(r *http.Request, name string, v view) ([]byte, error) {
	v.CSS, v.JS, v.Script, v.Icon = s.assets.URL("site.css"), s.assets.URL("htmx.min.js"), s.assets.URL("site.js"), s.assets.URL("favicon.svg")
	v.Nav = make([]link, len(sections), len(sections)+1)
	copy(v.Nav, sections)
	if _, ok := session.FromContext(r.Context()); ok {
		v.Nav = append(v.Nav, accountLink)
	} else {
		v.Nav = append(v.Nav, signInLink)
	}
	for i := range v.Nav {
		v.Nav[i].Current = v.Nav[i].Href == v.Section
	}
	if v.Section == "/developers" {
		v.SubNav = make([]link, len(developerNav))
		for i, l := range developerNav {
			l.Current = l.Href == r.URL.Path
			v.SubNav[i] = l
		}
	}
	if v.Alternates == nil {
		v.Alternates = feedLinks("")
	}
	if v.Subscribe == "" {
		v.Subscribe = SubscribePath
	}
	if v.Description == "" {
		v.Description = siteDescription
	}
	if v.Canonical == "" && !v.NoIndex && name != "error" {
		v.Canonical = s.base + r.URL.EscapedPath()
	}
	if v.OGType == "" {
		v.OGType = "website"
	}
	var buf bytes.Buffer
	if err := s.layouts[name].ExecuteTemplate(&buf, "layout", v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// feedLinks are the alternate feeds of the public feed (prefix "") or of a
// hub ("/hubs/SLUG").
func feedLinks(prefix string) []link {
	return []link{
		{Href: prefix + "/feed.json", Title: "JSON Feed", Type: "application/feed+json", Format: "JSON, for feed readers"},
		{Href: prefix + "/feed.rss", Title: "RSS", Type: "application/rss+xml", Format: "XML, for feed readers"},
		{Href: prefix + "/feed.atom", Title: "Atom", Type: "application/atom+xml", Format: "XML, for feed readers"},
	}
}

// pageHeaders are the headers of every page, in either representation: both
// vary with Accept, so no shared cache may keep one for the other.
func pageHeaders(h http.Header) {
	h.Set("Vary", "Accept")
	h.Set("Cache-Control", "private, no-cache")
}

// htmlHeaders are the headers of every HTML document the site writes.
func htmlHeaders(h http.Header) {
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", ContentSecurityPolicy)
	h.Set("Referrer-Policy", ReferrerPolicy)
	h.Set("X-Frame-Options", "DENY")
}

// write sends a body with its length; HEAD gets the headers alone.
func write(w http.ResponseWriter, r *http.Request, status int, body []byte) {
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

// writeHTML sends an HTML page.
func writeHTML(w http.ResponseWriter, r *http.Request, status int, body []byte) {
	htmlHeaders(w.Header())
	write(w, r, status, body)
}

// canonicalLink names a Markdown page's clean address in a Link header
// (RFC 6596), as the canonical link element does in HTML: the page's path
// and only the parameters it uses, with their non-default values.
func canonicalLink(h http.Header, url string) {
	h.Set("Link", "<"+url+">; rel=\"canonical\"")
}

// writeMarkdown sends a Markdown page.
func writeMarkdown(w http.ResponseWriter, r *http.Request, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "text/markdown; charset=utf-8")
	h.Set("Referrer-Policy", ReferrerPolicy)
	write(w, r, status, body)
}
