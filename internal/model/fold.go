package model

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// Folded holds the case-folded forms of the fields q matches against.
type Folded struct {
	Text, AuthorName, AuthorHeadline string
}

// Folded returns the folded forms of the signal's matched fields.
func (s Signal) Folded() Folded {
	return Folded{Text: Fold(s.Text), AuthorName: Fold(s.AuthorName), AuthorHeadline: Fold(s.AuthorHeadline)}
}

// Fold returns the form used for case-insensitive substring matching: NFC
// normalised, then Unicode case folded (FullFold), computed on the parts of
// s that are not ASCII only. A boundary just before an ASCII character is
// safe for both steps: ASCII characters are starters that never compose
// with what precedes them, so NFC treats each side alone, and case folding
// maps one character at a time. ASCII itself only needs A to Z lowered. A
// run of other characters is folded with the ASCII character before it,
// which a combining mark may attach to.
func Fold(s string) string {
	i := nonASCII(s)
	if i < 0 {
		return lowerASCII(s)
	}
	var b strings.Builder
	b.Grow(len(s) + len(s)/8)
	done := 0
	for i >= 0 {
		i += done
		from := i
		if from > done {
			from-- // the ASCII character before the run
		}
		appendLowerASCII(&b, s[done:from])
		end := i
		for end < len(s) && s[end] >= utf8.RuneSelf {
			end++
		}
		b.WriteString(FullFold(s[from:end]))
		done = end
		i = nonASCII(s[done:])
	}
	appendLowerASCII(&b, s[done:])
	return b.String()
}

// FullFold is Fold computed on the whole string at once: the definition
// Fold must agree with.
func FullFold(s string) string {
	return cases.Fold().String(norm.NFC.String(s))
}

// nonASCII returns the index of the first byte of s that is not ASCII, or -1.
func nonASCII(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return i
		}
	}
	return -1
}

func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			var b strings.Builder
			b.Grow(len(s))
			appendLowerASCII(&b, s)
			return b.String()
		}
	}
	return s
}

func appendLowerASCII(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
}
