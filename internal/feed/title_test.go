package feed

import (
	"strings"
	"testing"

	"signals/internal/model"
)

func TestTitle(t *testing.T) {
	long := strings.Repeat("lorem ipsum ", 20)
	for _, tt := range []struct{ name, text, want string }{
		{"first line", "Hiring ML engineers in Paris\nSecond line", "Hiring ML engineers in Paris"},
		{"blank lines first", "\n \n  Seed round\tclosed  \n", "Seed round closed"},
		{"cut at a word", long, strings.TrimSpace(long[:96]) + "…"},
		{"one long word", strings.Repeat("x", 150), strings.Repeat("x", 99) + "…"},
		{"controls dropped", "a\u202eb\x07c", "abc"},
		{"no text", " \n ", "Product launch · Ada"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := Title(model.Signal{Text: tt.text, Tag: "product_launch", AuthorName: "Ada"})
			if got != tt.want {
				t.Errorf("Title = %q, want %q", got, tt.want)
			}
			if model.Chars(got) > MaxTitleChars {
				t.Errorf("%d characters", model.Chars(got))
			}
		})
	}
}
