package account

import (
	"fmt"
	"net"
	"net/mail"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/idna"
	"golang.org/x/text/unicode/norm"

	"signals/internal/failure"
)

// maxEmail is the longest address SMTP carries (RFC 5321 §4.5.3.1.3 less
// the angle brackets of a path).
const maxEmail = 254

// domainNames checks and maps a domain as resolvers do (UTS #46 for
// lookup: case folded, width and compatibility forms mapped, bidi and
// joiner rules checked), and refuses what no DNS name can be: empty or
// over-long labels, characters outside letters, digits and hyphens.
var domainNames = idna.New(idna.MapForLookup(), idna.BidiRule(), idna.VerifyDNSLength(true), idna.Transitional(false))

// normalEmail accepts one bare address and returns it as accounts store
// it, or refuses it with a failure whose detail speaks to the person who
// typed it. Like mail providers it reads the address in NFC, and its
// domain as IDNA does, in lower case (a domain typed in Punycode is the
// same domain); the local part is lower-cased too, as accounts always
// were. Addresses that nobody means are refused: any invisible character
// (controls, format characters such as zero-width spaces and joiners, bidi
// controls, variation selectors, blanks other than the ASCII space) and
// address literals, an IP address in place of a domain. A local part may
// mix scripts; the pages and mail that show it spell it out (spelled).
func normalEmail(s string) (string, *failure.Error) {
	if !utf8.ValidString(s) {
		return "", badEmail()
	}
	for _, r := range s {
		if invisible(r) {
			return "", invalid("email", fmt.Sprintf("The address held an invisible character (%U), taken out below: check the address and send it again.", r))
		}
	}
	s = norm.NFC.String(s)
	if s == "" || len(s) > maxEmail || strings.ContainsAny(s, "<>\" ,;()\\") {
		return "", badEmail()
	}
	at := strings.LastIndexByte(s, '@')
	if at < 0 {
		return "", badEmail()
	}
	if domain := s[at+1:]; strings.HasPrefix(domain, "[") || net.ParseIP(domain) != nil {
		return "", invalid("email", "Addresses at an IP address, such as ada@[192.0.2.1], are not accepted. Use an address at a domain name.")
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Name != "" || a.Address != s {
		return "", badEmail()
	}
	local, domain := s[:at], s[at+1:]
	ascii, err := domainNames.ToASCII(domain)
	if err != nil || !strings.Contains(ascii, ".") || strings.HasSuffix(ascii, ".") || allDigits(ascii[strings.LastIndexByte(ascii, '.')+1:]) {
		return "", badEmail()
	}
	unicodeDomain, err := domainNames.ToUnicode(ascii)
	if err != nil {
		return "", badEmail()
	}
	out := norm.NFC.String(strings.ToLower(local)) + "@" + unicodeDomain
	if len(out) > maxEmail || len(strings.ToLower(local)+"@"+ascii) > maxEmail {
		return "", badEmail()
	}
	return out, nil
}

// NormalEmail returns the address as accounts store it, read as sign-in
// reads it (see normalEmail), or the invalid_parameter failure that says
// what is wrong with it; operator commands take addresses through it.
func NormalEmail(s string) (string, error) {
	email, refused := normalEmail(s)
	if refused != nil {
		return "", refused
	}
	return email, nil
}

func badEmail() *failure.Error {
	return invalid("email", "Enter one email address, such as ada@example.com.")
}

// invisible reports a character that shows nothing, or nothing of its
// own, where it stands: two addresses that differ by one look the same.
func invisible(r rune) bool {
	return r == utf8.RuneError || r == '\u2800' || // a replacement mark; the blank braille pattern
		!unicode.IsGraphic(r) || // controls, format characters (zero-width, bidi), unassigned, private use
		(unicode.IsSpace(r) && r != ' ') ||
		unicode.In(r, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point)
}

// visible is s without its invisible characters, to show again in the
// form that refused it.
func visible(s string) string {
	return strings.Map(func(r rune) rune {
		if invisible(r) {
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, ""))
}

// allDigits reports a top-level label that is a number: the domain is
// then an IP address written in some other way, never a name.
func allDigits(label string) bool {
	return label != "" && strings.Trim(label, "0123456789") == ""
}

// spelled writes an address out so that look-alike characters show: each
// character beyond ASCII as its code point and script, for example
// "kat[U+0435 Cyrillic]@example.com". It is "" for an ASCII address, which
// reads as it is.
func spelled(email string) string {
	var b strings.Builder
	plain := true
	for _, r := range email {
		if r < utf8.RuneSelf {
			b.WriteRune(r)
			continue
		}
		plain = false
		fmt.Fprintf(&b, "[%U %s]", r, script(r))
	}
	if plain {
		return ""
	}
	return b.String()
}

// script names the Unicode script of r ("Common" for one shared by many).
func script(r rune) string {
	for name, table := range unicode.Scripts {
		if name != "Common" && name != "Inherited" && unicode.Is(table, r) {
			return name
		}
	}
	if unicode.Is(unicode.Inherited, r) {
		return "Inherited"
	}
	return "Common"
}
