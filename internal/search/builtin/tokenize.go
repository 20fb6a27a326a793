package builtin

import (
	"unicode"
	"unicode/utf8"
)

// Tokenisation, shared by documents and queries.
//
// A word is a maximal run of letters and digits (any script), in which a single
// hyphen or apostrophe may join two letters or digits ("fine-tuning", "l'IA",
// "company's"). Words are lower-cased and accent-folded (é -> e, œ -> oe), so
// French written with or without accents, composed or decomposed, gives the
// same words; combining marks are dropped. Everything else separates words.
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

// appendFolded appends r lower-cased and without its accent.
func appendFolded(buf []byte, r rune) []byte {
	r = unicode.ToLower(r)
	switch r {
	case 'à', 'á', 'â', 'ã', 'ä', 'å', 'ā', 'ă', 'ą':
		r = 'a'
	case 'ç', 'ć', 'č':
		r = 'c'
	case 'è', 'é', 'ê', 'ë', 'ē', 'ė', 'ę', 'ě':
		r = 'e'
	case 'ì', 'í', 'î', 'ï', 'ī', 'į', 'ı':
		r = 'i'
	case 'ñ', 'ń', 'ň':
		r = 'n'
	case 'ò', 'ó', 'ô', 'õ', 'ö', 'ø', 'ō', 'ő':
		r = 'o'
	case 'ù', 'ú', 'û', 'ü', 'ū', 'ů', 'ű':
		r = 'u'
	case 'ý', 'ÿ':
		r = 'y'
	case 'ś', 'š', 'ș', 'ş':
		r = 's'
	case 'ź', 'ż', 'ž':
		r = 'z'
	case 'ł':
		r = 'l'
	case 'ř':
		r = 'r'
	case 'ț', 'ţ', 'ť':
		r = 't'
	case 'ď':
		r = 'd'
	case 'ğ':
		r = 'g'
	case 'œ':
		return append(buf, 'o', 'e')
	case 'æ':
		return append(buf, 'a', 'e')
	case 'ß':
		return append(buf, 's', 's')
	}
	return utf8.AppendRune(buf, r)
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
