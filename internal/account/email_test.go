package account

import (
	"net/mail"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

func TestNormalEmail(t *testing.T) {
	for _, tt := range []struct {
		name, in, want string // want "" means refused
		detail         string // part of the refusal's detail
	}{
		{"plain", "ada@example.com", "ada@example.com", ""},
		{"lower-cased", "Ada@EXAMPLE.Com", "ada@example.com", ""},
		{"subaddress", "ada+signals@example.com", "ada+signals@example.com", ""},
		{"mixed-script local part stays", "kat\u0435@example.com", "kat\u0435@example.com", ""},
		{"NFC", "jose\u0301@example.com", "jos\u00e9@example.com", ""},
		{"IDN domain", "ada@B\u00fccher.example", "ada@b\u00fccher.example", ""},
		{"Punycode domain reads as the same domain", "ada@xn--bcher-kva.example", "ada@b\u00fccher.example", ""},
		{"fullwidth domain mapped", "ada@\uff45xample.com", "ada@example.com", ""},
		{"zero-width space after", "kate@example.com\u200b", "", "U+200B"},
		{"zero-width joiner inside", "ka\u200dte@example.com", "", "U+200D"},
		{"bidi override", "\u202ekate@example.com", "", "U+202E"},
		{"bidi isolate", "kate\u2066@example.com", "", "U+2066"},
		{"byte order mark", "\ufeffkate@example.com", "", "U+FEFF"},
		{"soft hyphen", "ka\u00adte@example.com", "", "U+00AD"},
		{"variation selector", "kate\ufe0f@example.com", "", "U+FE0F"},
		{"Hangul filler", "kate\u3164@example.com", "", "U+3164"},
		{"no-break space", "kate\u00a0@example.com", "", "U+00A0"},
		{"control", "kate\x07@example.com", "", "U+0007"},
		{"address literal", "kate@[127.0.0.1]", "", "IP address"},
		{"IPv6 literal", "kate@[IPv6:::1]", "", "IP address"},
		{"bare IP address", "kate@127.0.0.1", "", "IP address"},
		{"numeric top-level label", "kate@example.123", "", "Enter one email address"},
		{"display name", "Ada <ada@example.com>", "", "Enter one email address"},
		{"two addresses", "a@example.com, b@example.com", "", "Enter one email address"},
		{"no dot", "a@b", "", "Enter one email address"},
		{"trailing dot", "a@example.com.", "", "Enter one email address"},
		{"underscore in domain", "a@ex_ample.com", "", "Enter one email address"},
		{"empty label", "a@example..com", "", "Enter one email address"},
		{"quoted local part", `"a b"@example.com`, "", "Enter one email address"},
		{"invalid UTF-8", "a\xff@example.com", "", "Enter one email address"},
		{"too long", strings.Repeat("a", 250) + "@example.com", "", "Enter one email address"},
		{"empty", "", "", "Enter one email address"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, refused := normalEmail(tt.in)
			if tt.want != "" {
				if refused != nil || got != tt.want {
					t.Fatalf("normalEmail(%q) = %q, %v; want %q", tt.in, got, refused, tt.want)
				}
				return
			}
			if refused == nil {
				t.Fatalf("normalEmail(%q) = %q, want a refusal", tt.in, got)
			}
			if refused.Param != "email" || !strings.Contains(refused.Detail, tt.detail) {
				t.Errorf("refusal %+v, want param email and %q in the detail", refused, tt.detail)
			}
		})
	}
}

func TestSpelled(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"ada@example.com", ""},
		{"kat\u0435@example.com", "kat[U+0435 Cyrillic]@example.com"},
		{"ada@b\u00fccher.example", "ada@b[U+00FC Latin]cher.example"},
	} {
		if got := spelled(tt.in); got != tt.want {
			t.Errorf("spelled(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzNormalEmail: whatever is typed, an accepted address is stored in a
// form that reads back as itself, holds nothing invisible, no address
// literal, is NFC and fits SMTP; nothing panics.
func FuzzNormalEmail(f *testing.F) {
	for _, s := range []string{
		"ada@example.com", "kate@example.com\u200b", "kat\u0435@example.com", "kate@[127.0.0.1]",
		"Ada@B\u00fccher.example", "ada@xn--bcher-kva.example", "a.b+c@sub.example.co.uk",
		"jose\u0301@example.com", "x@\uff45xample.com", "\u202ekate@example.com",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, refused := normalEmail(s)
		if refused != nil {
			if got != "" || refused.Param != "email" || refused.Detail == "" {
				t.Fatalf("normalEmail(%q) refused as %+v with %q", s, refused, got)
			}
			return
		}
		if again, refused := normalEmail(got); refused != nil || again != got {
			t.Fatalf("normalEmail(%q) = %q, which reads back as %q, %v", s, got, again, refused)
		}
		if !utf8.ValidString(got) || !norm.NFC.IsNormalString(got) || len(got) > maxEmail {
			t.Fatalf("normalEmail(%q) = %q: not valid NFC within %d bytes", s, got, maxEmail)
		}
		for _, r := range got {
			if invisible(r) {
				t.Fatalf("normalEmail(%q) = %q holds %U", s, got, r)
			}
		}
		local, domain, _ := strings.Cut(got, "@")
		if strings.ContainsAny(domain, "[]") || domain != strings.ToLower(domain) || local != strings.ToLower(local) {
			t.Fatalf("normalEmail(%q) = %q: an address literal or upper case", s, got)
		}
		if a, err := mail.ParseAddress(got); err != nil || a.Address != got {
			t.Fatalf("normalEmail(%q) = %q, which net/mail reads as %v, %v", s, got, a, err)
		}
	})
}
