package builtin

import "strings"

// concept is one group of tables/concepts.txt, words that mean the same
// thing in this domain, with the tag of the signals it names, if any.
type concept struct {
	tag   string
	words string
}

// conceptGroups maps each concept word's vocabulary index to 1 + its group.
func conceptGroups(v *wordVectors, concepts []concept) []uint8 {
	g := make([]uint8, len(v.weight))
	for i, group := range concepts {
		for w := range strings.FieldsSeq(group.words) {
			if k := v.lookup([]byte(w)); k >= 0 {
				g[k] = uint8(i + 1)
			}
		}
	}
	return g
}

// root strips common English inflections from a folded word after its plural
// stem, so that "launches", "launched" and "launching" share a root. Short
// words are left alone.
func root(w []byte) []byte {
	w = stem(w)
	n := len(w)
	switch {
	case n >= 6 && string(w[n-3:]) == "ing":
		w = w[:n-3]
	case n >= 5 && string(w[n-2:]) == "ed" && w[n-3] != 'e':
		w = w[:n-2]
	default:
		if n >= 4 && w[n-1] == 'e' && w[n-2] != 'e' {
			w = w[:n-1]
		}
		return w
	}
	n = len(w)
	if n >= 4 && w[n-1] == w[n-2] && !isVowel(w[n-1]) && w[n-1] != 'l' && w[n-1] != 's' && w[n-1] != 'z' {
		w = w[:n-1] // running -> run
	} else if n >= 4 && w[n-1] == 'e' {
		w = w[:n-1]
	}
	return w
}

func isVowel(c byte) bool {
	return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u' || c == 'y'
}

// wordRoots maps each vocabulary index to the index of the first word with
// the same root (see root), so that inflections of one word match fully.
func wordRoots(v *wordVectors) []int32 {
	r := make([]int32, len(v.weight))
	for i := range r {
		r[i] = int32(i)
	}
	first := make(map[string]int32, len(v.index))
	var buf []byte
	for w, i := range v.index {
		buf = root(append(buf[:0], w...))
		if j, ok := first[string(buf)]; !ok || i < j {
			first[string(buf)] = i
		}
	}
	for w, i := range v.index {
		buf = root(append(buf[:0], w...))
		r[i] = first[string(buf)]
	}
	return r
}
