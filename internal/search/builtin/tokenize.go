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
	buf = buf[:0]
	pendingJoin := byte(0)      // '-' or '\'' seen after a word character
	var first, upper, lower int // first: 1 lower, 2 upper (first letter)
	letter := func(up bool) {
		if first == 0 {
			first = 1
			if up {
				first = 2
			}
		}
		if up {
			upper++
		} else {
			lower++
		}
	}
	flush := func() {
		if len(buf) > 0 {
			fn(buf, wordCase{Capital: first == 2, Upper: lower == 0 && upper >= 2})
		}
		buf = buf[:0]
		pendingJoin = 0
		first, upper, lower = 0, 0, 0
	}
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case 'a' <= c && c <= 'z' || '0' <= c && c <= '9':
				if c >= 'a' {
					letter(false)
				}
				if pendingJoin != 0 {
					buf = append(buf, pendingJoin)
					pendingJoin = 0
				}
				buf = append(buf, c)
				continue
			case 'A' <= c && c <= 'Z':
				letter(true)
				if pendingJoin != 0 {
					buf = append(buf, pendingJoin)
					pendingJoin = 0
				}
				buf = append(buf, c+'a'-'A')
				continue
			case c == '-' || c == '\'':
				if len(buf) > 0 && pendingJoin == 0 {
					pendingJoin = c
				} else {
					flush()
				}
				continue
			default:
				flush()
				continue
			}
		}
		r, n := utf8.DecodeRuneInString(text[i:])
		i += n
		switch {
		case r == '\u2019' || r == '\u02bc' || r == '\u2018':
			if len(buf) > 0 && pendingJoin == 0 {
				pendingJoin = '\''
			} else {
				flush()
			}
		case r == '\u2010' || r == '\u2011':
			if len(buf) > 0 && pendingJoin == 0 {
				pendingJoin = '-'
			} else {
				flush()
			}
		case unicode.Is(unicode.Mn, r):
			// dropped: accents are folded
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if unicode.IsLetter(r) {
				letter(unicode.IsUpper(r))
			}
			if pendingJoin != 0 {
				buf = append(buf, pendingJoin)
				pendingJoin = 0
			}
			buf = appendFolded(buf, r)
		default:
			flush()
		}
	}
	flush()
	return buf
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
