package web

import (
	"strings"
	"testing"

	"signals/internal/model"
)

// A signal's heading is its first sentence when that is short enough, cut
// at the sentence's end and never mid-sentence; else its author.
func TestSignalHeading(t *testing.T) {
	long := strings.Repeat("word ", 40) + "end."
	for _, tt := range []struct {
		name, text, headline string
		want, rest           string
	}{
		{"sentence", "We raised €12M. The round was led by X.", "", "We raised €12M.", " The round was led by X."},
		{"line", "Our AMR pilot, week 9 🧵\n\nWe have 22 robots.", "", "Our AMR pilot, week 9 🧵", "\n\nWe have 22 robots."},
		{"question", "Anyone running vLLM on ARM? Asking for a friend.", "", "Anyone running vLLM on ARM?", " Asking for a friend."},
		{"abbreviation", "We use e.g. vLLM and SGLang. More soon.", "", "We use e.g. vLLM and SGLang.", " More soon."},
		{"numbers and hosts", "Version 3.5 is on example.org today", "", "Version 3.5 is on example.org today", ""},
		{"leading space", "  \n Hello there. Rest.", "", "Hello there.", " Rest."},
		{"folds whitespace", "A\ttabbed  title.", "", "A tabbed title.", ""},
		{"too long, headline", long, "CTO, Example", "Ada Example, CTO, Example", long},
		{"too long, no headline", long, "", "Funding signal by Ada Example", long},
		{"empty", "", "", "Funding signal by Ada Example", ""},
		{"bidi controls dropped", "Price \u202eoops\u202c today.", "", "Price oops today.", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := model.Signal{Text: tt.text, Tag: "funding", AuthorName: "Ada Example", AuthorHeadline: tt.headline}
			got, rest := signalHeading(s)
			if got != tt.want || tt.text[rest:] != tt.rest {
				t.Errorf("signalHeading(%q) = %q, rest %q; want %q, rest %q", tt.text, got, tt.text[rest:], tt.want, tt.rest)
			}
			if strings.HasSuffix(got, "…") {
				t.Errorf("%q is a cut copy", got)
			}
		})
	}
}
