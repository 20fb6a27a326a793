package builtin

import "strings"

// frenchLetters are the letters with an accent that French writes and
// English hardly ever does.
const frenchLetters = "éèêàâçùûîôœÉÈÊÀÂÇÙÛÎÔŒ"

// language returns the language query is asked in, "fr" or "en", by the
// function words of each in it (tables/query-languages.txt): French when
// it has more French ones, counting each French elision ("l'IA") and a
// French accented letter as one; English otherwise, and when it has none.
func (r *reader) language(query string) string {
	fr, en := 0, 0
	if strings.ContainsAny(query, frenchLetters) {
		fr++
	}
	words(query, nil, func(w []byte) {
		if r.elided(w) {
			fr++
			return
		}
		switch r.t.queryLanguages[string(w)] {
		case "fr":
			fr++
		case "en":
			en++
		}
	})
	if fr > en {
		return "fr"
	}
	return "en"
}

// elided reports whether the folded word w starts with a French elision
// (tables/elisions.txt) followed by a word.
func (r *reader) elided(w []byte) bool {
	for _, p := range r.t.elisions {
		if len(w) > len(p) && string(w[:len(p)]) == p {
			return true
		}
	}
	return false
}
