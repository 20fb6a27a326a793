package builtin

import (
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// tableFolded is how letters were folded before decomposition did it: a
// hand-written table of the accented Latin letters. appendFolded must fold
// each letter this table folds the same way.
func tableFolded(buf []byte, r rune) []byte {
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

// TestFoldKeepsTheTable checks every letter of Unicode that the table folded
// (upper and lower case): appendFolded folds it the same way.
func TestFoldKeepsTheTable(t *testing.T) {
	n := 0
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if !unicode.IsLetter(r) {
			continue
		}
		old := string(tableFolded(nil, r))
		if old == string(unicode.ToLower(r)) {
			continue // the table left it alone
		}
		n++
		if got := string(appendFolded(nil, r)); got != old {
			t.Errorf("%q (%U) folds to %q, the table to %q", r, r, got, old)
		}
	}
	if n < 100 {
		t.Errorf("the table folded %d letters, want its 100 or so", n)
	}
}

// TestFoldDecomposes checks letters the table did not know: any letter
// with a canonical decomposition loses its marks, as its decomposed
// spelling does.
func TestFoldDecomposes(t *testing.T) {
	for in, want := range map[string]string{
		"Ǎ": "a", "ḿ": "m", "ệ": "e", "ľ": "l", "Ŕ": "r", "ά": "α", "ё": "е", "ǿ": "o", "Ǽ": "ae",
		"Ł": "l", "Ø": "o", "Œ": "oe", "Æ": "ae", "ẞ": "ss", "İ": "i",
		"đ": "đ", "東": "東", "한": "한", "q": "q",
	} {
		r, _ := utf8.DecodeRuneInString(in)
		if got := string(appendFolded(nil, r)); got != want {
			t.Errorf("%q folds to %q, want %q", in, got, want)
		}
		var dec []string
		words(norm.NFD.String(in), nil, func(w []byte) { dec = append(dec, string(w)) })
		if r < 0xAC00 && !slices.Equal(dec, []string{want}) { // Hangul syllables stay whole
			t.Errorf("%q decomposed gives %q, want %q", in, dec, want)
		}
	}
}

// FuzzWords checks that words are folded once and for all (tokenising the
// words again gives them back), that no word has a combining mark or a
// letter with a lower case, and that the letters the table folded fold as it did.
func FuzzWords(f *testing.F) {
	for _, s := range []string{"Levée de fonds: données, ÉVÉNEMENT, cœur", "e\u0301quipe", "l’IA d’entreprise",
		"Łódź Øresund Straße", "Tiếng Việt", "Ελληνικά", "東京 Москва", "GPT-4o raised $40M", "a--b -x- it's"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var ws []string
		words(s, nil, func(w []byte) { ws = append(ws, string(w)) })
		var again []string
		words(strings.Join(ws, " "), nil, func(w []byte) { again = append(again, string(w)) })
		if !slices.Equal(ws, again) {
			t.Errorf("words(%q) = %q, tokenised again %q", s, ws, again)
		}
		for _, w := range ws {
			for _, r := range w {
				if unicode.Is(unicode.Mn, r) || unicode.ToLower(r) != r {
					t.Errorf("words(%q) has %q with %q (%U)", s, w, r, r)
				}
			}
		}
		for _, r := range s {
			if old := tableFolded(nil, r); string(old) != string(unicode.ToLower(r)) {
				if got := appendFolded(nil, r); string(got) != string(old) {
					t.Errorf("%q folds to %q, the table to %q", r, got, old)
				}
			}
		}
	})
}
