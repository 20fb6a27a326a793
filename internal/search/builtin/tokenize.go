package builtin

import (
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Tokenisation, shared by documents and queries.
//
// A word is a maximal run of letters and digits (any script), in which a single
// hyphen or apostrophe may join two letters or digits ("fine-tuning", "l'IA",
// "company's"). Words are lower-cased and accent-folded (é -> e, œ -> oe, see
// appendFolded), so French written with or without accents, composed or
// decomposed, gives the same words; combining marks are dropped. Everything
// else separates words.
// tools/vecpack keeps only vocabulary entries of the same shape.

// words calls fn with each word of text; the slice passed to fn is reused.
func words(text string, buf []byte, fn func(w []byte)) []byte {
	return casedWords(text, buf, func(w []byte, _ wordCase) { fn(w) })
}

// wordCase is how a word was written before it was folded.
type wordCase struct {
	// Capital: its first letter is upper case; Upper: it has no lower-case
	// letter and at least two letters ("US", "AI").
	Capital, Upper bool
}

// casedWords is words that also tells how each word was written.
func casedWords(text string, buf []byte, fn func(w []byte, c wordCase)) []byte {
	s := wordScanner{buf: buf[:0], fn: fn}
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRuneInString(text[i:])
			i += n
			s.scanRune(r)
			continue
		case 'a' <= c && c <= 'z':
			s.letter(false)
			s.add(c)
		case 'A' <= c && c <= 'Z':
			s.letter(true)
			s.add(c + 'a' - 'A')
		case '0' <= c && c <= '9':
			s.add(c)
		case c == '-' || c == '\'':
			s.joiner(c)
		default:
			s.flush()
		}
		i++
	}
	s.flush()
	return s.buf
}

// wordScanner gathers the folded characters of one word at a time, and
// passes each word to fn with how it was written.
type wordScanner struct {
	buf  []byte
	fn   func(w []byte, c wordCase)
	join byte // '-' or '\'' seen after a word character, 0 if none
	// first is 0 before the word's first letter, 1 if it is lower case, 2
	// if upper case; upper and lower count the word's letters of each case.
	first, upper, lower int
}

// scanRune scans a character that is not ASCII.
func (s *wordScanner) scanRune(r rune) {
	switch {
	case r == '\u2019' || r == '\u02bc' || r == '\u2018':
		s.joiner('\'')
	case r == '\u2010' || r == '\u2011':
		s.joiner('-')
	case unicode.Is(unicode.Mn, r):
		// dropped: accents are folded
	case unicode.IsLetter(r) || unicode.IsDigit(r):
		if unicode.IsLetter(r) {
			s.letter(unicode.IsUpper(r))
		}
		s.joinPending()
		s.buf = appendFolded(s.buf, r)
	default:
		s.flush()
	}
}

// letter counts a letter of the word, upper case if up.
func (s *wordScanner) letter(up bool) {
	if s.first == 0 {
		s.first = 1
		if up {
			s.first = 2
		}
	}
	if up {
		s.upper++
	} else {
		s.lower++
	}
}

// add appends an ASCII character of the word.
func (s *wordScanner) add(c byte) {
	s.joinPending()
	s.buf = append(s.buf, c)
}

// joinPending appends the hyphen or apostrophe seen before a word character.
func (s *wordScanner) joinPending() {
	if s.join != 0 {
		s.buf = append(s.buf, s.join)
		s.join = 0
	}
}

// joiner scans a hyphen or an apostrophe (c): it joins two word characters
// when it is the only one between them, and ends the word otherwise.
func (s *wordScanner) joiner(c byte) {
	if len(s.buf) > 0 && s.join == 0 {
		s.join = c
	} else {
		s.flush()
	}
}

// flush passes the word gathered so far to fn, if any, and starts the next.
func (s *wordScanner) flush() {
	if len(s.buf) > 0 {
		s.fn(s.buf, wordCase{Capital: s.first == 2, Upper: s.lower == 0 && s.upper >= 2})
	}
	s.buf = s.buf[:0]
	s.join = 0
	s.first, s.upper, s.lower = 0, 0, 0
}

// appendFolded appends r lower-cased and without its accents: the letters
// of its canonical decomposition (Unicode NFD) without the combining
// marks, so that a composed letter folds as its decomposed spelling does,
// each folded further by undecomposed.
func appendFolded(buf []byte, r rune) []byte {
	r = unicode.ToLower(r)
	var b [utf8.UTFMax]byte
	enc := utf8.AppendRune(b[:0], r)
	d := norm.NFD.Properties(enc).Decomposition()
	if d == nil {
		return appendUndecomposed(buf, r)
	}
	for len(d) > 0 {
		c, n := utf8.DecodeRune(d)
		d = d[n:]
		if !unicode.Is(unicode.Mn, c) {
			buf = appendUndecomposed(buf, c)
		}
	}
	return buf
}

// appendUndecomposed appends r, or its letters in undecomposed.
func appendUndecomposed(buf []byte, r rune) []byte {
	if f, ok := undecomposed[r]; ok {
		return append(buf, f...)
	}
	return utf8.AppendRune(buf, r)
}

// undecomposed folds the lower-case letters that Unicode does not decompose
// into a letter and marks, each to the letters it is written with in
// English.
var undecomposed = map[rune]string{
	'ł': "l", 'ø': "o", 'ı': "i", 'œ': "oe", 'æ': "ae", 'ß': "ss",
}

// foldWord folds a vocabulary word the way words does.
func foldWord(buf []byte, w string) []byte {
	for _, r := range w {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		buf = appendFolded(buf, r)
	}
	return buf
}
