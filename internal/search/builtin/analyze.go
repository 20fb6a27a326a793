package builtin

import (
	"bytes"
	"slices"
	"strings"
)

// analyzer turns text into terms. Each term has a lexical key (the folded word
// with a light plural stem) and, when the word is in the vocabulary, a word
// index for its vector. Stop words (English and French) give no term; aliases
// give the alias as a lexical term plus their expansion.
type analyzer struct {
	t       *tables
	vocab   *wordVectors
	aliases map[string][]aliasTerm // t.aliases, each as its terms
}

type aliasTerm struct {
	lex string
	vec int32
}

func newAnalyzer(v *wordVectors, t *tables) *analyzer {
	a := &analyzer{t: t, vocab: v, aliases: make(map[string][]aliasTerm, len(t.aliases))}
	var buf []byte
	for k, exp := range t.aliases {
		var ts []aliasTerm
		if !slices.Contains(strings.Fields(exp), k) {
			ts = append(ts, aliasTerm{lex: string(stem(append(buf[:0], k...))), vec: -1})
		}
		for w := range strings.FieldsSeq(exp) {
			ts = append(ts, aliasTerm{lex: string(stem(append(buf[:0], w...))), vec: v.lookup([]byte(w))})
		}
		a.aliases[k] = ts
	}
	return a
}

// emitFunc receives one term: lex is nil for a vector-only term, vec is -1
// for a word without a vector. lex is only valid during the call.
type emitFunc func(lex []byte, vec int32)

// analyze calls emit for each term of text and returns buf for reuse.
func (a *analyzer) analyze(text string, buf []byte, emit emitFunc) []byte {
	var work []byte
	return words(text, buf, func(w []byte) {
		work = a.word(append(work[:0], w...), emit)
	})
}

var hyphenSeparator = []byte{'-'}

// word emits the terms of one folded word. It may modify w.
func (a *analyzer) word(w []byte, emit emitFunc) []byte {
	w = trimClitics(a.t, w)
	if bytes.IndexByte(w, '\'') >= 0 && a.vocab.lookup(w) < 0 {
		w = bytes.ReplaceAll(w, []byte{'\''}, nil)
	}
	if len(w) == 0 || a.t.stopwords[string(w)] {
		return w
	}
	if ts, ok := a.aliases[string(w)]; ok {
		for _, t := range ts {
			emit([]byte(t.lex), t.vec)
		}
		return w
	}
	if bytes.IndexByte(w, '-') >= 0 {
		if i := a.vocab.lookup(w); i >= 0 {
			emit(nil, i)
			for _, part := range bytes.Split(w, hyphenSeparator) {
				if !a.t.stopwords[string(part)] {
					emit(stem(part), -1)
				}
			}
			return w
		}
		for _, part := range bytes.Split(w, hyphenSeparator) {
			a.word(part, emit)
		}
		return w
	}
	vec := a.vocab.lookup(w)
	emit(stem(w), vec)
	return w
}

// stem removes common English and French plural endings in place.
func stem(w []byte) []byte {
	n := len(w)
	switch {
	case n > 4 && string(w[n-3:]) == "ies":
		w = append(w[:n-3], 'y')
	case n > 5 && (string(w[n-4:]) == "ches" || string(w[n-4:]) == "shes" || string(w[n-4:]) == "sses"):
		w = w[:n-2]
	case n > 3 && w[n-1] == 's' && w[n-2] != 's' && w[n-2] != 'u' && w[n-2] != 'i':
		w = w[:n-1]
	case n > 4 && string(w[n-3:]) == "aux":
		w = append(w[:n-3], 'a', 'l')
	}
	return w
}
