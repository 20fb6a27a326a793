package web

import (
	"strings"
	"time"
	"unicode/utf8"

	"signals/internal/label"
	"signals/internal/model"
)

// publishedLabel writes a publication time at the precision it is known to:
// a signal published "in March 2026" is not shown as "1 March 2026, 00:00".
func publishedLabel(t model.Time, precision string) string {
	u := t.Time()
	switch precision {
	case "year":
		return u.Format("2006")
	case "month":
		return u.Format("January 2006")
	case "week":
		return "week of " + u.Format("2 January 2006")
	case "day":
		return u.Format("2 January 2006")
	case "hour":
		return u.Format("2 January 2006, 15:00 UTC")
	}
	return label.Time(u)
}

// publishedISO is the machine-readable form of the same, for <time>.
func publishedISO(t model.Time, precision string) string {
	u := t.Time()
	switch precision {
	case "year":
		return u.Format("2006")
	case "month":
		return u.Format("2006-01")
	case "week", "day":
		return u.Format("2006-01-02")
	}
	return u.Format(time.RFC3339)
}

// markdownSpecial are the ASCII characters that can start or end Markdown
// (or GFM) syntax inline: escaping each of them with a backslash leaves
// the text as it was, without links, images, emphasis, HTML, autolinks or
// entity references.
const markdownSpecial = "\\`*_{}[]()<>#+-.!|~&=:@$^"

// mdText escapes untrusted text for one Markdown line: whitespace runs,
// line breaks included, become one space, so the text cannot start a
// block (a heading, a list, a quote, a fence), and every character that
// could form inline syntax is backslash-escaped.
func mdText(s string) string { return string(appendMDText(nil, s)) }

// appendMDText appends mdText(s) to b.
func appendMDText(b []byte, s string) []byte {
	first := true
	for f := range strings.FieldsSeq(s) {
		if !first {
			b = append(b, ' ')
		}
		first = false
		for _, r := range f {
			if r < 0x80 && strings.ContainsRune(markdownSpecial, r) {
				b = append(b, '\\')
			}
			if r < ' ' || r == 0x7f {
				continue
			}
			b = utf8.AppendRune(b, r)
		}
	}
	return b
}

// appendMDCode appends s as a code span: an id or a handle then reads
// exactly as it is, without the backslashes mdText adds, so that it can be
// copied. Inside a code span nothing is Markdown; its fence is one
// backtick longer than the longest run of backticks in s, so s cannot
// close it. Line breaks and other control characters, which a code span
// cannot hold as they are, become spaces; a space pads s where it starts or
// ends with a backtick or a space, which CommonMark strips again.
func appendMDCode(b []byte, s string) []byte {
	clean := make([]rune, 0, len(s))
	longest, run := 0, 0
	for _, r := range s {
		if r < ' ' || r == 0x7f {
			r = ' '
		}
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
		clean = append(clean, r)
	}
	text := string(clean)
	if strings.TrimSpace(text) == "" {
		return append(b, "(none)"...)
	}
	fence := longest + 1
	pad := strings.HasPrefix(text, "`") || strings.HasSuffix(text, "`") ||
		strings.HasPrefix(text, " ") && strings.HasSuffix(text, " ")
	b = appendRepeat(b, '`', fence)
	if pad {
		b = append(b, ' ')
	}
	b = append(b, text...)
	if pad {
		b = append(b, ' ')
	}
	return appendRepeat(b, '`', fence)
}

// mdBlock quotes untrusted multi-line text as a fenced code block: nothing
// inside a fence is Markdown, and the fence is longer than any run of
// tildes in the text, so the text cannot close it.
func mdBlock(s string) string { return string(appendMDBlock(nil, s)) }

// appendMDBlock appends mdBlock(s) to b.
func appendMDBlock(b []byte, s string) []byte {
	longest, run := 0, 0
	for _, r := range s {
		if r == '~' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := max(3, longest+1)
	b = appendRepeat(b, '~', fence)
	b = append(b, "text\n"...)
	for line := range strings.SplitSeq(s, "\n") {
		for _, r := range line {
			if r < ' ' && r != '\t' || r == 0x7f { // \r included
				continue
			}
			b = utf8.AppendRune(b, r)
		}
		b = append(b, '\n')
	}
	b = appendRepeat(b, '~', fence)
	return append(b, '\n')
}

// appendRepeat appends n copies of c to b.
func appendRepeat(b []byte, c byte, n int) []byte {
	for range n {
		b = append(b, c)
	}
	return b
}
