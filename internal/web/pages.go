package web

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"net/http"
	"regexp"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"

	"signals/internal/problem"
)

//go:embed pages/*.md
var sources embed.FS

// page is one document in both of its representations.
type page struct {
	title    string
	markdown []byte
	html     []byte
}

// Site serves the developer pages.
type Site struct {
	problems problem.Renderer
	pages    map[string]*page
}

// DeveloperPages maps paths to the Markdown sources of the developer pages.
var DeveloperPages = map[string]string{
	"/developers":        "developers.md",
	"/developers/api":    "api.md",
	"/developers/mcp":    "mcp.md",
	"/developers/errors": "errors.md",
}

// New renders every page once for the service's base URL.
func New(baseURL string, problems problem.Renderer) (*Site, error) {
	base := strings.TrimRight(baseURL, "/")
	md := goldmark.New(
		goldmark.WithExtensions(extension.GFM),
		goldmark.WithParserOptions(parser.WithAttribute()),
	)
	s := &Site{problems: problems, pages: map[string]*page{}}
	for path, name := range DeveloperPages {
		src, err := sources.ReadFile("pages/" + name)
		if err != nil {
			return nil, err
		}
		// Links are absolute, so that the Markdown reads the same anywhere.
		text := strings.ReplaceAll(string(src), "{{base}}", base)
		text = strings.ReplaceAll(text, "](/", "]("+base+"/")
		var body bytes.Buffer
		if err := md.Convert([]byte(text), &body); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		p := &page{title: titleOf(text), markdown: []byte(stripAttributes(text))}
		var doc bytes.Buffer
		if err := layout.Execute(&doc, map[string]any{
			"Title": p.title, "Body": template.HTML(body.String()), "Base": base,
		}); err != nil {
			return nil, err
		}
		p.html = doc.Bytes()
		s.pages[path] = p
	}
	return s, nil
}

// Paths lists the paths the site serves.
func (s *Site) Paths() []string {
	var out []string
	for p := range s.pages {
		out = append(out, p)
	}
	return out
}

// ServeHTTP answers a page in the negotiated format.
func (s *Site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p, ok := s.pages[r.URL.Path]
	if !ok {
		s.problems.Write(w, r, problem.NotFound("no page at "+r.URL.Path))
		return
	}
	h := w.Header()
	// Both representations vary with Accept, so no shared cache may keep
	// one for the other.
	h.Set("Vary", "Accept")
	h.Set("Cache-Control", "private, max-age=300")
	format, err := Negotiate(r)
	if err != nil {
		s.problems.Write(w, r, err)
		return
	}
	body := p.html
	h.Set("Content-Type", "text/html; charset=utf-8")
	if format == Markdown {
		body = p.markdown
		h.Set("Content-Type", "text/markdown; charset=utf-8")
	}
	h.Set("Content-Length", fmt.Sprint(len(body)))
	if r.Method == http.MethodHead {
		return
	}
	w.Write(body)
}

// titleOf returns the text of the first level-one heading.
func titleOf(markdown string) string {
	for line := range strings.SplitSeq(markdown, "\n") {
		if t, ok := strings.CutPrefix(line, "# "); ok {
			return strings.TrimSpace(t)
		}
	}
	return "Signals"
}

// headingAttributes matches the {#id} of a heading, which only the HTML
// rendering uses.
var headingAttributes = regexp.MustCompile(`(?m)^(#+ .*?) \{#[A-Za-z0-9_-]+\}$`)

func stripAttributes(markdown string) string {
	return headingAttributes.ReplaceAllString(markdown, "$1")
}

var layout = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}} · Signals</title>
<style>
body{font:16px/1.55 system-ui,sans-serif;max-width:52rem;margin:0 auto;padding:1rem 1.25rem;color:#1b1b1b}
nav a{margin-right:1rem}code,pre{font-family:ui-monospace,monospace;font-size:.9em}
pre{background:#f4f4f4;padding:.75rem;overflow-x:auto}table{border-collapse:collapse}
td,th{border:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}
</style>
</head>
<body>
<nav><a href="{{.Base}}/developers">Developers</a><a href="{{.Base}}/developers/api">HTTP API</a><a href="{{.Base}}/developers/mcp">MCP</a><a href="{{.Base}}/developers/errors">Errors</a><a href="{{.Base}}/openapi.json">OpenAPI</a></nav>
<main>
{{.Body}}
</main>
</body>
</html>
`))
