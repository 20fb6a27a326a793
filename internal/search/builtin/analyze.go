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
	vocab     *wordVectors
	aliases   map[string][]aliasTerm
	stopwords map[string]bool
	elisions  []string // French elided articles and pronouns, removed in front
	endings   []string // English contracted endings, removed behind
}

type aliasTerm struct {
	lex string
	vec int32
}

func newAnalyzer(v *wordVectors, t tables) *analyzer {
	a := &analyzer{vocab: v, aliases: make(map[string][]aliasTerm, len(t.aliases)),
		stopwords: t.stopwords, elisions: t.elisions, endings: t.endings}
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

var (
	frenchElisions  = []string{"l'", "d'", "j'", "n'", "s'", "c'", "m'", "t'", "qu'", "jusqu'", "lorsqu'", "puisqu'"}
	englishEndings  = []string{"n't", "'s", "'re", "'ve", "'ll", "'d", "'m", "'t"}
	hyphenSeparator = []byte{'-'}
)

// word emits the terms of one folded word. It may modify w.
func (a *analyzer) word(w []byte, emit emitFunc) []byte {
	if bytes.IndexByte(w, '\'') >= 0 {
		for _, p := range a.elisions {
			if len(w) > len(p) && string(w[:len(p)]) == p {
				w = w[len(p):]
				break
			}
		}
		for _, s := range a.endings {
			if len(w) > len(s) && string(w[len(w)-len(s):]) == s {
				w = w[:len(w)-len(s)]
				break
			}
		}
		if bytes.IndexByte(w, '\'') >= 0 && a.vocab.lookup(w) < 0 {
			w = bytes.ReplaceAll(w, []byte{'\''}, nil)
		}
	}
	if len(w) == 0 || a.stopwords[string(w)] {
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
				if !a.stopwords[string(part)] {
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

// stopwords are English and French function words, plus words that frame a
// search rather than say what it is about.
var stopwords = func() map[string]bool {
	m := map[string]bool{}
	for w := range strings.FieldsSeq(`
a about above after again against all also am an and any are around as at be
because been before being below between both but by can could did do does doing
down during each else ever every few for from further had has have having he her
here hers herself him himself his how however i if in into is it its itself just
let like me more most much must my myself no nor not now of off on once only or
other our ours ourselves out over own per same she should so some such than that
the their theirs them themselves then there these they this those through thus to
too under until up upon us very via was we were what when where whether which
while who whom whose why will with within without would yet you your yours
yourself yourselves s t d ll m re ve etc e g ie eg
anyone anything someone something everything everyone things thing stuff
please show find looking look tell give get got want wants need needs know
post posts posted signal signals news latest recent recently new kind sort
nouveau nouvelle nouveaux nouvelles
au aux avec ce ces cet cette dans de des du elle elles en et eux il ils je la le
les leur leurs lui ma mais me meme mes moi mon ne nos notre nous on ou par pas pour
qu que qui sa se ses son sur ta te tes toi ton tu un une vos votre vous y ete
etre avoir fait faire plus tres tout tous toute toutes comme sont est sera
ont ainsi aussi chez entre depuis vers sans sous alors donc car si deja encore
cela ceci ca voici voila
`) {
		m[w] = true
	}
	return m
}()
