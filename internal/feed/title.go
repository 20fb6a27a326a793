package feed

import (
	"strings"
	"unicode"

	"signals/internal/model"
)

// MaxTitleChars bounds an item's title, ellipsis included.
const MaxTitleChars = 100

// Title names a signal in a list of many: the first line of its text with
// whitespace folded and control characters dropped, cut at a word boundary
// to at most MaxTitleChars with an ellipsis, or, for a signal without
// text, its kind and author. It is plain text; each format escapes it.
func Title(s model.Signal) string {
	line := ""
	for l := range strings.SplitSeq(s.Text, "\n") {
		if line = oneLine(l); line != "" {
			break
		}
	}
	if line == "" {
		return kindAndAuthor(s)
	}
	if model.Chars(line) <= MaxTitleChars {
		return line
	}
	// Leave room for the ellipsis, and cut at the last space before it
	// unless that would leave too little of the line (one long word).
	cut := model.Cut(line, MaxTitleChars-1)
	if i := strings.LastIndexByte(cut, ' '); model.Chars(cut[:max(i, 0)]) >= MaxTitleChars/2 {
		cut = cut[:i]
	}
	return strings.TrimRightFunc(cut, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsPunct(r) }) + "…"
}

// oneLine folds runs of whitespace to one space and drops control
// characters and bidi controls, so that a title cannot break a line or
// reorder what follows it.
func oneLine(s string) string {
	var b strings.Builder
	for f := range strings.FieldsSeq(s) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		for _, r := range f {
			if !unicode.IsControl(r) && !unicode.Is(unicode.Bidi_Control, r) {
				b.WriteRune(r)
			}
		}
	}
	return strings.TrimSpace(b.String())
}

// kindAndAuthor names a signal by what it is and who wrote it.
func kindAndAuthor(s model.Signal) string {
	label := strings.ReplaceAll(s.Tag, "_", " ")
	if label == "" {
		return s.AuthorName
	}
	return strings.ToUpper(label[:1]) + label[1:] + " · " + s.AuthorName
}
