package web

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"signals/internal/failure"
	"signals/internal/problem"
)

func TestNegotiate(t *testing.T) {
	tests := []struct {
		name   string
		header []string
		want   string
		code   failure.Code
	}{
		{"no accept", nil, HTML, ""},
		{"browser", []string{"Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}, HTML, ""},
		{"markdown", []string{"Accept", "text/markdown"}, Markdown, ""},
		{"markdown with wildcard", []string{"Accept", "text/markdown, */*;q=0.1"}, Markdown, ""},
		{"wildcards never select markdown", []string{"Accept", "*/*"}, HTML, ""},
		{"html equal wins", []string{"Accept", "text/markdown, text/html"}, HTML, ""},
		{"html higher wins", []string{"Accept", "text/markdown;q=0.5, text/html;q=0.9"}, HTML, ""},
		{"markdown higher wins", []string{"Accept", "text/markdown, text/html;q=0.5"}, Markdown, ""},
		{"markdown q=0 refused", []string{"Accept", "text/markdown;q=0"}, HTML, ""},
		{"bad q ignored", []string{"Accept", "text/markdown;q=2"}, HTML, ""},
		{"router headers conflict", []string{"Accept", "text/markdown", "HX-Request", "true"}, "", failure.CodeConflictingFormats},
		{"boosted conflict", []string{"Accept", "text/markdown", "HX-Boosted", "true"}, "", failure.CodeConflictingFormats},
		{"router navigation keeps html", []string{"HX-Request", "true", "Accept", "text/html"}, HTML, ""},
		{"prefetch keeps normal format", []string{"Accept", "text/markdown", "Sec-Purpose", "prefetch"}, HTML, ""},
		{"legacy prefetch", []string{"Accept", "text/markdown", "Purpose", "prefetch"}, HTML, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, "/developers", nil)
			for i := 0; i+1 < len(tt.header); i += 2 {
				r.Header.Add(tt.header[i], tt.header[i+1])
			}
			got, err := Negotiate(r)
			switch {
			case tt.code != "":
				if p, ok := failure.As(err); !ok || p.Code != tt.code || problem.Status(p.Code) != 400 {
					t.Fatalf("got %q, %v; want problem %s", got, err, tt.code)
				}
			case err != nil || got != tt.want:
				t.Fatalf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// FuzzNegotiate feeds arbitrary Accept and router headers: the answer is
// always HTML, Markdown, or the 400 conflicting_formats problem.
func FuzzNegotiate(f *testing.F) {
	f.Add("text/markdown", "")
	f.Add("text/markdown;q=0.5, text/html;q=0.4", "true")
	f.Add("*/*;q=abc, text/x-markdown;q=1", "")
	f.Add(";;,,;q=", "1")
	f.Fuzz(func(t *testing.T, accept, hx string) {
		r := httptest.NewRequest(http.MethodGet, "/developers", nil)
		r.Header.Set("Accept", accept)
		if hx != "" {
			r.Header.Set("HX-Request", hx)
		}
		got, err := Negotiate(r)
		if err != nil {
			if !failure.Is(err, failure.CodeConflictingFormats) || hx == "" {
				t.Fatalf("Accept %q, HX-Request %q: %v", accept, hx, err)
			}
			return
		}
		if got != HTML && got != Markdown {
			t.Fatalf("format %q", got)
		}
	})
}
