package web

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"regexp"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"

	"signals/internal/failure"
	"signals/internal/model"
	"signals/internal/problem"
	"signals/internal/store"
)

//go:embed pages/*.md
var sources embed.FS

// DeveloperPages maps paths to the Markdown sources of the developer pages.
var DeveloperPages = map[string]string{
	"/developers":        "developers.md",
	"/developers/api":    "api.md",
	"/developers/mcp":    "mcp.md",
	"/developers/errors": "errors.md",
}

// PrivacyPath is the page that says what the service keeps about people,
// linked from every page's footer.
const PrivacyPath = "/privacy"

// fixedPages are the Markdown sources of the pages besides the developer
// pages: About and Contact by default (an operator replaces either by
// importing an article with the slug about or contact), and Privacy. The
// default Contact shows the operator's address, or says that there is
// none.
func (s *Site) fixedPages() map[string]string {
	contact := "contact-none.md"
	if s.cfg.ContactEmail != "" {
		contact = "contact.md"
	}
	return map[string]string{"/" + model.AboutSlug: "about.md", "/" + model.ContactSlug: contact, PrivacyPath: "privacy.md"}
}

// contactSentence ends the privacy page: where to ask what the account
// page cannot do.
func (s *Site) contactSentence(mailto string) string {
	if s.cfg.ContactEmail == "" {
		return "The people who run this service have not published a contact address: " +
			"everything above is done from your account."
	}
	return "For anything else about your data, write to " + mailto + "."
}

// doc is one Markdown document in both of its representations.
type doc struct {
	title    string
	section  string
	markdown []byte
	html     template.HTML
	// description is the page's summary for search engines and link
	// previews: an article's summary, else the first paragraph.
	description string
	// article marks an article (Open Graph type "article").
	article bool
}

// loadDocs renders the fixed pages once.
func (s *Site) loadDocs() (map[string]*doc, error) {
	// Headings of the developer pages carry {#anchors} that API problem
	// types point at.
	md := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithParserOptions(parser.WithAttribute()))
	docs := map[string]*doc{}
	// The operator's address, which validation left without a character
	// that Markdown or a URL would read.
	mailto := "[" + mdText(s.cfg.ContactEmail) + "](mailto:" + s.cfg.ContactEmail + ")"
	fill := strings.NewReplacer("{{base}}", s.base, "{{codes}}", codeTable(),
		"{{email}}", mailto, "{{contact}}", s.contactSentence(mailto))
	load := func(pages map[string]string, section func(path string) string) error {
		for path, name := range pages {
			src, err := sources.ReadFile("pages/" + name)
			if err != nil {
				return err
			}
			d, err := s.newDoc(md, fill.Replace(string(src)))
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			d.section = section(path)
			docs[path] = d
		}
		return nil
	}
	if err := load(DeveloperPages, func(string) string { return "/developers" }); err != nil {
		return nil, err
	}
	if err := load(s.fixedPages(), func(path string) string { return path }); err != nil {
		return nil, err
	}
	return docs, nil
}

// newDoc renders Markdown text. In HTML its site links stay relative; in
// Markdown they are absolute, so the text reads the same anywhere.
func (s *Site) newDoc(md goldmark.Markdown, text string) (*doc, error) {
	var body bytes.Buffer
	if err := md.Convert([]byte(text), &body); err != nil {
		return nil, err
	}
	abs := strings.ReplaceAll(text, "](/", "]("+s.base+"/")
	return &doc{title: titleOf(text), description: descriptionOf(text), markdown: []byte(stripAttributes(abs)),
		html: template.HTML(scrollersFocusable.Replace(body.String()))}, nil
}

// scrollersFocusable lets the keyboard reach code blocks and tables, which
// scroll sideways when their lines are wider than the screen. Raw HTML is
// not rendered, so these tags come from Markdown alone.
var scrollersFocusable = strings.NewReplacer("<pre>", `<pre tabindex="0">`, "<table>", `<table tabindex="0">`)

// Paths lists the paths of the fixed documents.
func (s *Site) Paths() []string {
	var out []string
	for p := range s.docs {
		out = append(out, p)
	}
	return out
}

// docPage serves a developer page, or About or Contact: the operator's
// article of that slug when there is one, the default otherwise.
func (s *Site) docPage(w http.ResponseWriter, r *http.Request) {
	format, err := Negotiate(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	if d := s.docOr404(w, r, r.URL.Path); d != nil {
		s.writeDoc(w, r, format, d)
	}
}

// docOr404 returns the fixed document at path, or answers the error or the
// 404 and returns nil.
func (s *Site) docOr404(w http.ResponseWriter, r *http.Request, path string) *doc {
	d, err := s.findDoc(r.Context(), path)
	if err != nil {
		s.Error(w, r, err)
		return nil
	}
	if d == nil {
		s.NotFound(w, r)
	}
	return d
}

// findDoc returns the fixed page at path: the operator's article of that
// slug when there is one, the default otherwise; nil when there is none.
func (s *Site) findDoc(ctx context.Context, path string) (*doc, error) {
	d := s.docs[path]
	if slug := strings.TrimPrefix(path, "/"); model.IsPageSlug(slug) {
		a, err := s.cfg.Store.Article(ctx, slug)
		switch {
		case err == nil:
			return s.articleDoc(a, path)
		case !errors.Is(err, store.ErrNotFound):
			return nil, err
		}
	}
	return d, nil
}

func (s *Site) writeDoc(w http.ResponseWriter, r *http.Request, format string, d *doc) {
	pageHeaders(w.Header())
	if format == Markdown {
		canonicalLink(w.Header(), s.base+strings.TrimSuffix(r.URL.EscapedPath(), MarkdownSuffix))
		writeMarkdown(w, r, http.StatusOK, d.markdown)
		return
	}
	v := view{Title: d.title, Description: d.description, Section: d.section, Content: docView{Body: d.html}}
	if d.article {
		v.OGType = "article"
	}
	body, err := s.render(r, "doc", v)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	writeHTML(w, r, http.StatusOK, body)
}

type docView struct {
	Body template.HTML
}

// articleDoc renders an article: its title, its date, its body.
func (s *Site) articleDoc(a model.Article, path string) (*doc, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", a.Title)
	if !model.IsPageSlug(a.Slug) {
		fmt.Fprintf(&b, "*Published %s*\n\n", a.PublishedAt.UTC().Format("2 January 2006"))
	}
	b.WriteString(a.Body)
	d, err := s.newDoc(s.articles, b.String())
	if err != nil {
		return nil, fmt.Errorf("web: article %s: %w", a.Slug, err)
	}
	d.title, d.section = a.Title, "/articles"
	if a.Summary != "" {
		d.description = a.Summary
	}
	if model.IsPageSlug(a.Slug) {
		d.section = path
	} else {
		d.article = true
	}
	return d, nil
}

// articlePage serves /articles/{slug}.
func (s *Site) articlePage(w http.ResponseWriter, r *http.Request) {
	format, err := Negotiate(r)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	slug := r.PathValue("slug")
	if md, ok := strings.CutSuffix(slug, MarkdownSuffix); ok {
		slug, format = md, Markdown
	}
	if !model.ValidSlug(slug) || model.IsPageSlug(slug) {
		s.NotFound(w, r)
		return
	}
	a, err := s.cfg.Store.Article(r.Context(), slug)
	if errors.Is(err, store.ErrNotFound) {
		s.Error(w, r, failure.NotFound("There is no article at "+r.URL.EscapedPath()+"."))
		return
	}
	if err != nil {
		s.Error(w, r, err)
		return
	}
	d, err := s.articleDoc(a, r.URL.Path)
	if err != nil {
		s.Error(w, r, err)
		return
	}
	s.writeDoc(w, r, format, d)
}

// titleOf returns the text of the first level-one heading.
func titleOf(markdown string) string {
	for line := range strings.SplitSeq(markdown, "\n") {
		if t, ok := strings.CutPrefix(line, "# "); ok {
			t = strings.TrimSpace(t)
			if i := strings.LastIndex(t, " {#"); i >= 0 && strings.HasSuffix(t, "}") {
				t = t[:i]
			}
			return t
		}
	}
	return "Signals"
}

// maxDescription bounds a page's description, about what search engines
// show of one.
const maxDescription = 200

// markdownLink matches an inline link, whose text alone a description keeps.
var markdownLink = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)

// blockStart matches the start of a Markdown block other than a paragraph.
var blockStart = regexp.MustCompile("^([-*+] |[0-9]+[.)] |[|><]|```|~~~)")

// descriptionOf is the first paragraph of a Markdown page after its
// heading, as plain words, cut at a word past maxDescription characters;
// "" when it has none.
func descriptionOf(markdown string) string {
	var para []string
	for line := range strings.SplitSeq(markdown, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case t == "" && len(para) > 0:
			return plainDescription(strings.Join(para, " "))
		case t == "", strings.HasPrefix(t, "#"), strings.HasPrefix(t, "*Published"):
		case len(para) == 0 && blockStart.MatchString(t):
			// A list, table, quote, fence or HTML is not a summary.
		default:
			para = append(para, t)
		}
	}
	return plainDescription(strings.Join(para, " "))
}

func plainDescription(s string) string {
	s = markdownLink.ReplaceAllString(s, "$1")
	s = strings.NewReplacer("`", "", "**", "", "*", "", "\\", "").Replace(s)
	s = strings.Join(strings.Fields(s), " ")
	if len([]rune(s)) <= maxDescription {
		if t, ok := strings.CutSuffix(s, ":"); ok { // a paragraph that leads to a list
			s = t + "."
		}
		return s
	}
	cut := string([]rune(s)[:maxDescription])
	if i := strings.LastIndexByte(cut, ' '); i > 0 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, ",;:") + "…"
}

// headingAttributes matches the {#id} of a heading, which only the HTML
// rendering uses.
var headingAttributes = regexp.MustCompile(`(?m)^(#+ .*?) \{#[A-Za-z0-9_-]+\}$`)

func stripAttributes(markdown string) string {
	return headingAttributes.ReplaceAllString(markdown, "$1")
}

// codeTable is the table of the stable codes on the errors page, made
// from the one list of them.
func codeTable() string {
	var b strings.Builder
	b.WriteString("| code | status | meaning |\n|---|---|---|")
	for _, c := range failure.Codes {
		fmt.Fprintf(&b, "\n| [`%s`](#%s) | %d | %s |", c.Code, c.Code, problem.Status(c.Code), c.Meaning)
	}
	return b.String()
}
