// Package article reads the website's articles: Markdown files that open
// with front matter (title, slug, published_at, optional summary).
//
//	---
//	title: Why we review every signal
//	slug: why-we-review
//	published_at: 2026-03-02
//	summary: One paragraph for the list of articles.
//	---
//	The Markdown body…
package article

import (
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"signals/internal/model"
)

// Limits of an article's fields, in characters.
const (
	MaxTitleChars   = 200
	MaxSummaryChars = 600
	MaxBodyBytes    = 1 << 20
)

// Problem is one thing wrong with a file, reported as "FILE: field: reason".
type Problem struct {
	File, Field, Reason string
}

func (p Problem) String() string { return p.File + ": " + p.Field + ": " + p.Reason }

// ReadFS reads every *.md file at the top of fsys, in name order. It
// returns the articles only when every file is valid; otherwise it returns
// every problem of every file.
func ReadFS(fsys fs.FS) ([]model.Article, []Problem, error) {
	names, err := fs.Glob(fsys, "*.md")
	if err != nil {
		return nil, nil, err
	}
	if len(names) == 0 {
		return nil, nil, fmt.Errorf("no .md files")
	}
	var out []model.Article
	var problems []Problem
	seen := map[string]string{}
	for _, name := range names {
		src, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, nil, err
		}
		a, ps := Parse(name, src)
		if first, dup := seen[a.Slug]; dup && a.Slug != "" {
			ps = append(ps, Problem{name, "slug", fmt.Sprintf("%q is also the slug of %s", a.Slug, first)})
		}
		seen[a.Slug] = name
		problems = append(problems, ps...)
		out = append(out, a)
	}
	if len(problems) > 0 {
		return nil, problems, nil
	}
	return out, nil, nil
}

// Parse reads one article file; name is how problems name it.
func Parse(name string, src []byte) (model.Article, []Problem) {
	var a model.Article
	var problems []Problem
	bad := func(field, reason string) { problems = append(problems, Problem{path.Base(name), field, reason}) }
	if !utf8.Valid(src) {
		bad("file", "is not UTF-8 text")
		return a, problems
	}
	if len(src) > MaxBodyBytes {
		bad("file", fmt.Sprintf("is larger than %d bytes", MaxBodyBytes))
		return a, problems
	}
	text := strings.ReplaceAll(string(bytes.TrimPrefix(src, []byte("\ufeff"))), "\r\n", "\n")
	head, body, ok := splitFrontMatter(text)
	if !ok {
		bad("front matter", "the file must open with a line \"---\", the fields, and a closing \"---\"")
		return a, problems
	}
	fields := map[string]string{}
	for i, line := range strings.Split(head, "\n") {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		key, value, ok := strings.Cut(line, ":")
		key = strings.TrimSpace(key)
		if !ok || key == "" {
			bad("front matter", fmt.Sprintf("line %d is not \"field: value\"", i+2))
			continue
		}
		if !slices.Contains(frontMatterFields, key) {
			bad(key, "is not a front matter field; use "+strings.Join(frontMatterFields, ", "))
			continue
		}
		if _, dup := fields[key]; dup {
			bad(key, "is given twice")
			continue
		}
		fields[key] = unquote(strings.TrimSpace(value))
	}
	a.Title, a.Slug, a.Summary, a.Body = fields["title"], fields["slug"], fields["summary"], strings.TrimLeft(body, "\n")
	switch n := model.Chars(a.Title); {
	case n == 0:
		bad("title", "is required")
	case n > MaxTitleChars:
		bad("title", fmt.Sprintf("must be at most %d characters", MaxTitleChars))
	}
	switch {
	case a.Slug == "":
		bad("slug", "is required")
	case !model.ValidSlug(a.Slug):
		bad("slug", fmt.Sprintf("must be lower-case letters, digits and single hyphens, at most %d characters", model.MaxSlugChars))
	}
	if model.Chars(a.Summary) > MaxSummaryChars {
		bad("summary", fmt.Sprintf("must be at most %d characters", MaxSummaryChars))
	}
	if v, ok := fields["published_at"]; !ok || v == "" {
		bad("published_at", "is required")
	} else if t, err := parseDate(v); err != nil {
		bad("published_at", "must be a date (2026-03-02) or an RFC 3339 timestamp with a timezone")
	} else {
		a.PublishedAt = t
	}
	if strings.TrimSpace(a.Body) == "" {
		bad("body", "is empty")
	}
	return a, problems
}

var frontMatterFields = []string{"title", "slug", "published_at", "summary"}

func splitFrontMatter(text string) (head, body string, ok bool) {
	rest, found := strings.CutPrefix(text, "---\n")
	if !found {
		return "", "", false
	}
	if h, b, found := strings.Cut(rest, "\n---\n"); found {
		return h, b, true
	}
	if h, found := strings.CutSuffix(rest, "\n---"); found {
		return h, "", true
	}
	return "", "", false
}

func unquote(v string) string {
	if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
		return v[1 : len(v)-1]
	}
	return v
}

func parseDate(v string) (time.Time, error) {
	if t, err := time.Parse(time.DateOnly, v); err == nil {
		return t, nil
	}
	t, err := model.ParseTime(v)
	return t.Time(), err
}
