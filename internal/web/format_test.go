package web

import (
	"strings"
	"testing"
	"time"

	"signals/internal/label"
	"signals/internal/model"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// markup returns the kinds of the nodes of a Markdown document other than
// plain text, paragraphs, code and the fenced block.
func markup(t *testing.T, src string) []string {
	t.Helper()
	doc := goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser().Parse(text.NewReader([]byte(src)))
	var kinds []string
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.Kind() {
		case ast.KindDocument, ast.KindParagraph, ast.KindText, ast.KindString, ast.KindFencedCodeBlock, ast.KindTextBlock:
		default:
			kinds = append(kinds, n.Kind().String())
		}
		return ast.WalkContinue, nil
	})
	return kinds
}

var hostileSamples = []string{
	"<script>alert(1)</script>", "[a](https://evil.example)", "![i](https://evil.example/i.png)",
	"# heading", "line\n===", "line\n---", "https://evil.example/x", "www.evil.example", "a@evil.example",
	"*em* _em_ **strong** ~~del~~ `code`", "&amp; &#x3C;", "<https://evil.example>", "| a | b |\n|---|---|",
	"> quote", "- item", "1. item", "    indented", "~~~\nfence\n~~~", "```\nfence\n```", "[x]: https://evil.example\n[x]",
	"\\", "a\\\nb", "<!-- c -->", "foo\r\n# bar", "\x00\x01nul",
}

// mdText leaves nothing of its input that Markdown would read as markup,
// and reads back as the text.
func TestMDText(t *testing.T) {
	for _, s := range hostileSamples {
		got := mdText(s)
		if k := markup(t, got); len(k) > 0 {
			t.Errorf("mdText(%q) = %q parses as %v", s, got, k)
		}
	}
}

// mdBlock keeps any text inside one fenced block.
func TestMDBlock(t *testing.T) {
	for _, s := range append(hostileSamples, strings.Repeat("~", 12)+"\n# out", "~~~~\n~~~~~\n# out") {
		if k := markup(t, mdBlock(s)); len(k) > 0 {
			t.Errorf("mdBlock(%q) parses as %v", s, k)
		}
	}
}

// appendMDCode writes an id or a handle as one code span that reads back
// exactly as it was, with no backslash to copy, and no markup.
func TestMDCode(t *testing.T) {
	samples := append([]string{"tf-2026-11-0023", "scalinglaws_fan", "a``b", "`x`", " x ", "``", "evil/1?a=b#c"}, hostileSamples...)
	for _, s := range samples {
		src := string(appendMDCode(nil, s))
		doc := goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser().Parse(text.NewReader([]byte(src)))
		var spans []string
		ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if !entering {
				return ast.WalkContinue, nil
			}
			switch n.Kind() {
			case ast.KindDocument, ast.KindParagraph, ast.KindText:
			case ast.KindCodeSpan:
				var span []byte
				for c := n.FirstChild(); c != nil; c = c.NextSibling() {
					if t, ok := c.(*ast.Text); ok {
						span = append(span, t.Segment.Value([]byte(src))...)
					}
				}
				spans = append(spans, string(span))
				return ast.WalkSkipChildren, nil
			default:
				t.Errorf("appendMDCode(%q) = %q forms a %s", s, src, n.Kind())
			}
			return ast.WalkContinue, nil
		})
		want := strings.Map(func(r rune) rune {
			if r < ' ' || r == 0x7f {
				return ' '
			}
			return r
		}, s)
		if strings.TrimSpace(want) == "" {
			continue
		}
		if len(spans) != 1 || spans[0] != want {
			t.Errorf("appendMDCode(%q) = %q reads back as %q, want one span %q", s, src, spans, want)
		}
	}
}

func FuzzMarkdownEscaping(f *testing.F) {
	for _, s := range hostileSamples {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		// The list item and the one code span are the page's own; nothing
		// else may appear.
		for _, kind := range markup(t, "- Author: "+string(appendMDCode(nil, s))+", "+mdText(s)+"\n\n"+mdBlock(s)) {
			if kind != "List" && kind != "ListItem" && kind != "CodeSpan" {
				t.Fatalf("%q forms a %s", s, kind)
			}
		}
	})
}

// Pages show moments one way: hours and minutes, UTC.
func TestTimesShowHoursAndMinutes(t *testing.T) {
	at := time.Date(2026, 10, 1, 12, 3, 1, 500, time.UTC)
	for precision, want := range map[string]string{
		"second": "1 October 2026, 12:03 UTC", "minute": "1 October 2026, 12:03 UTC",
		"hour": "1 October 2026, 12:00 UTC", "day": "1 October 2026",
	} {
		if got := publishedLabel(model.TimeOf(at, 0), precision); got != want {
			t.Errorf("publishedLabel(%s) = %q, want %q", precision, got, want)
		}
	}
	paris := time.FixedZone("Paris", 2*60*60)
	if got, want := label.Time(at.In(paris)), "1 October 2026, 12:03 UTC"; got != want {
		t.Errorf("label.Time = %q, want %q", got, want)
	}
}
