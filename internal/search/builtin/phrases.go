package builtin

import (
	"strings"
)

// phraseIndex holds the phrases of tables/phrases.txt, descriptive
// paraphrases each with the domain's terms for it, as word sequences grouped
// by first word.
type phraseIndex map[string][]phraseEntry

type phraseEntry struct {
	words []string
	terms string
}

func newPhraseIndex(phrases map[string]string) phraseIndex {
	ix := phraseIndex{}
	for p, t := range phrases {
		ws := strings.Fields(p)
		ix[ws[0]] = append(ix[ws[0]], phraseEntry{ws, t})
	}
	return ix
}

// expand returns the domain terms of the phrases found in query, separated
// by spaces, or "".
func (ix phraseIndex) expand(query string) string {
	var ws []string
	words(query, nil, func(w []byte) {
		for p := range strings.SplitSeq(string(w), "-") {
			if p != "" {
				ws = append(ws, p)
			}
		}
	})
	var out []string
	for i, w := range ws {
		for _, e := range ix[w] {
			if i+len(e.words) <= len(ws) && equalWords(ws[i:i+len(e.words)], e.words) {
				out = append(out, e.terms)
			}
		}
	}
	return strings.Join(out, " ")
}

func equalWords(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
