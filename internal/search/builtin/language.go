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
		if elision(r.t, w) > 0 {
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
