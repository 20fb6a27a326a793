package builtin

import (
	"hash/maphash"
	"maps"
	"slices"
	"strings"
)

// Reading a query before scoring it: what it plainly asks for besides its
// subject. "AI conferences and meetups in Paris" asks for events (a kind of
// signal, a tag) in Paris (a place); "Quiver complaints" names a product.
// A match must agree with what is asked: a signal from Dakar does not answer
// a question about Paris, however close its words (see Scorer.Score).

// asks is what a query asks for.
type asks struct {
	// kinds are the tags asked for, any of which agrees.
	kinds []string
	// countries are the country keys asked for by name, adjective or
	// region; cities the folded names of the cities asked for. A signal
	// agrees with the place asked when its country or a country its text
	// names is among countries, or its text names one of cities.
	countries []string
	cities    []cityAsk
	// names are the lexical keys of the names the query gives (words the
	// vectors lack, or rare words written with a capital): a match must
	// contain each.
	names []uint64
	// nameWords are the names as written in the query, folded.
	nameWords []string
	// amount is the amount of money asked for, if any ("more than $50M"):
	// a signal that states amounts agrees when one of them is within it.
	amount *amountAsk
	// subject: the query says what signals should be about, beyond kinds,
	// places, names and words every signal shares.
	subject bool
	// text is the query without the words that ask for a kind or a place
	// and those every signal shares: what a match must be about, scored by
	// its words (the asks are checked apart).
	text string
}

// cityAsk is a city a query asks for, with its country.
type cityAsk struct{ name, country string }

// place reports whether the query asks for a place.
func (a *asks) place() bool { return len(a.countries) > 0 || len(a.cities) > 0 }

// browse reports whether the query asks only for a kind, a place and/or a
// name, which the signals with that tag, place and name answer.
func (a *asks) browse() bool {
	return !a.subject && (len(a.kinds) > 0 || a.place() || len(a.names) > 0 || a.amount != nil)
}

// physicalKind is the tag of signals about robots and machines. Most of
// its words ("humanoid", "warehouse robots") name a subject rather than ask
// for the kind; "physical AI" asks for it, and a query that asks for
// another kind too ("physical AI funding") asks for that one.
const physicalKind = "physical_ai"

// maxPhraseWords is the longest entry of the kind, place and generic tables.
const maxPhraseWords = 4

// nameRank is the vocabulary rank (most frequent first) from which a word
// written with a capital reads as a name: "Quiver" (53,218th) names a
// product, "Tribune" (6,403rd) is a word.
const nameRank = 20000

// queryWord is one word of a query, folded, with how it was written.
type queryWord struct {
	w    string
	c    wordCase
	role uint8
	orig int // index of the word it was split from
}

const (
	roleNone uint8 = iota
	roleKind
	rolePlace
	roleGeneric
	roleName
)

// splitWords returns the folded words of text with French elisions and
// English contracted endings removed and hyphenated words split, as the
// kind and place tables spell them.
func (r *reader) splitWords(text string, fn func(w string, c wordCase)) {
	r.splitWordsOf(text, func(w string, c wordCase, _ int, _ string) { fn(w, c) })
}

// splitWordsOf is splitWords that also gives the index and the text of the
// word each one was split from.
func (r *reader) splitWordsOf(text string, fn func(w string, c wordCase, orig int, word string)) {
	n := -1
	casedWords(text, nil, func(w []byte, c wordCase) {
		n++
		word := string(w)
		for p := range strings.SplitSeq(trimClitics(r.t, word), "-") {
			if p != "" {
				fn(p, c, n, word)
			}
		}
	})
}

// reader reads queries and signal texts with the kind and place tables.
type reader struct {
	t   *tables
	vec *wordVectors
}

// longest returns how many words from ws[i] the longest entry of m that
// they spell takes, and its key; 0 if none.
func longest[V any](m map[string]V, ws []queryWord, i int) (int, string) {
	var b strings.Builder
	n, key := 0, ""
	for k := 0; k < maxPhraseWords && i+k < len(ws); k++ {
		if k > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(ws[i+k].w)
		if _, ok := m[b.String()]; ok {
			n, key = k+1, b.String()
		}
	}
	return n, key
}

// read returns what query asks for, in passes: the amount of money it
// asks for, then its words, then the phrases that name places, kinds and
// generic framings, then the names, and what is left is its subject.
func (r *reader) read(query string) *asks {
	a := &asks{}
	if am, rest, ok := readAmount(query); ok {
		a.amount, query = &am, rest
	}
	q := r.queryWords(query)
	countries := map[string]bool{}
	for i := 0; i < len(q.ws); {
		i += r.readPhrase(a, countries, q, i)
	}
	r.readNames(a, q.ws)
	a.subject, a.text = q.subject(r.t.stopwords)
	// A query about physical AI funding asks for funding.
	if len(a.kinds) > 1 {
		a.kinds = slices.DeleteFunc(a.kinds, func(k string) bool { return k == physicalKind })
	}
	a.countries = slices.Sorted(maps.Keys(countries))
	return a
}

// queryText is a query split into words (see splitWordsOf): ws the words as
// the tables spell them, orig the words as written, which ws[i].orig
// indexes.
type queryText struct {
	ws   []queryWord
	orig []string
}

// queryWords splits query into its words.
func (r *reader) queryWords(query string) *queryText {
	q := &queryText{}
	r.splitWordsOf(query, func(w string, c wordCase, o int, word string) {
		q.ws = append(q.ws, queryWord{w: w, c: c, orig: o})
		if o == len(q.orig) {
			q.orig = append(q.orig, word)
		}
	})
	return q
}

// readPhrase reads the phrase that starts at word i of q, adding what it
// asks for to a (the countries it names to countries), and returns how many
// words it takes, at least 1. A place comes first, then a kind word in a
// phrase about a subject, then a kind or a generic framing, the longer of
// the two.
func (r *reader) readPhrase(a *asks, countries map[string]bool, q *queryText, i int) int {
	if n := r.readPlace(a, countries, q.ws, i); n > 0 {
		return n
	}
	// "Will automation take people's jobs away": a kind word in a phrase
	// about a subject asks for no kind.
	if n, _ := longest(r.t.kindSubjects, q.ws, i); n > 0 {
		return n
	}
	// A longer generic phrase reads whole: "retours d'expérience" is the
	// framing of a question, "retours" alone asks for feedback.
	nGeneric, _ := longest(r.t.generic, q.ws, i)
	if n := r.readKind(a, q, i, nGeneric); n > 0 {
		return n
	}
	if nGeneric > 0 {
		return r.readGeneric(q.ws, i, nGeneric)
	}
	return 1
}

// readPlace reads the place named from word i of ws, if any, into a and
// countries, marks its words and returns how many they are; 0 if none.
func (r *reader) readPlace(a *asks, countries map[string]bool, ws []queryWord, i int) int {
	n, key := longest(r.t.places, ws, i)
	if n == 0 || !r.isPlace(ws, i, n, key) {
		return 0
	}
	e := r.t.places[key]
	if e.kind == placeCity {
		if c := (cityAsk{e.city, e.countries[0]}); !slices.Contains(a.cities, c) {
			a.cities = append(a.cities, c)
		}
	} else {
		for _, c := range e.countries {
			countries[c] = true
		}
	}
	mark(ws[i:i+n], rolePlace)
	return n
}

// readKind reads the kind of signal asked for from word i of q, if its
// phrase is longer than the generic one there (nGeneric words) and is not
// owned by someone, and returns how many words it takes; 0 if none.
func (r *reader) readKind(a *asks, q *queryText, i, nGeneric int) int {
	n, key := longest(r.t.kinds, q.ws, i)
	if n <= nGeneric || r.owned(q.ws, q.orig, i) {
		return 0
	}
	// The words of physical AI ("warehouse robots", "humanoid") name a
	// subject, which signals of any kind may be about (a warehouse robot
	// pilot hiring, a humanoid maker raising money): they are scored, not
	// asked for. "Physical AI", the kind's own name, asks for the kind.
	tag := r.t.kinds[key]
	if tag == physicalKind && key != strings.ReplaceAll(tag, "_", " ") {
		return n
	}
	if !slices.Contains(a.kinds, tag) {
		a.kinds = append(a.kinds, tag)
	}
	mark(q.ws[i:i+n], roleKind)
	return n
}

// readGeneric reads the generic phrase of n words from word i of ws: words
// every signal shares, unless they name a body of rules with the words
// after them ("AI Act", "AI regulation"), which is part of the subject. It
// returns how many words it takes.
func (r *reader) readGeneric(ws []queryWord, i, n int) int {
	if next, ok := r.beforeTopic(ws, i+n); ok {
		return next - i
	}
	mark(ws[i:i+n], roleGeneric)
	return n
}

// beforeTopic skips the generic words from ws[next] and reports whether a
// topic word follows them ("EU AI Act", "AI regulation"), with its index.
func (r *reader) beforeTopic(ws []queryWord, next int) (int, bool) {
	for next < len(ws) && r.t.generic[ws[next].w] {
		next++
	}
	return next, next < len(ws) && r.t.topicWords[ws[next].w]
}

// mark gives each of ws the role role.
func mark(ws []queryWord, role uint8) {
	for k := range ws {
		ws[k].role = role
	}
}

// readNames reads the names among the words of ws that no phrase took into
// a, and marks them with the words written with a capital or with digits
// next to them.
func (r *reader) readNames(a *asks, ws []queryWord) {
	for i := range ws {
		w := ws[i]
		if w.role != roleNone || r.t.stopwords[w.w] || !r.isName(w) {
			continue
		}
		ws[i].role = roleName
		h := maphash.String(termSeed, string(stem([]byte(w.w))))
		if !slices.Contains(a.names, h) {
			a.names = append(a.names, h)
			a.nameWords = append(a.nameWords, w.w)
		}
		// The words written with a capital or with digits next to a name
		// are part of it: "Halden Robotics", "Aurel-14B".
		for _, step := range []int{-1, 1} {
			for j := i + step; j >= 0 && j < len(ws) && ws[j].role == roleNone &&
				(ws[j].c.Capital && j > 0 || strings.ContainsAny(ws[j].w, "0123456789")); j += step {
				ws[j].role = roleName
			}
		}
	}
}

// subject reports whether q says what signals should be about (a word that
// no phrase or name took and that is no stop word), and returns its text:
// the words as written that are either names or taken by nothing.
func (q *queryText) subject(stopwords map[string]bool) (bool, string) {
	subject := false
	keep := make([]bool, len(q.orig))
	for _, w := range q.ws {
		if w.role == roleNone && !stopwords[w.w] {
			subject = true
		}
		if w.role == roleNone || w.role == roleName {
			keep[w.orig] = true
		}
	}
	var text []string
	for i, w := range q.orig {
		if keep[i] {
			text = append(text, w)
		}
	}
	return subject, strings.Join(text, " ")
}

// owned reports whether the word ws[i] follows a possessive ("people's
// jobs", "their jobs", "nos emplois"): it then names something of theirs,
// not a kind of signal asked for.
func (r *reader) owned(ws []queryWord, orig []string, i int) bool {
	if i == 0 {
		return false
	}
	prev := ws[i-1]
	if r.t.possessives[prev.w] {
		return true
	}
	o := strings.ReplaceAll(orig[prev.orig], "’", "'")
	return prev.orig != ws[i].orig && (strings.HasSuffix(o, "'s") || strings.HasSuffix(o, "s'"))
}

// isPlace reports whether the n words from ws[i], which spell the place
// entry key, name where signals should come from.
func (r *reader) isPlace(ws []queryWord, i, n int, key string) bool {
	first := ws[i]
	if r.t.upperOnly[key] && !first.c.Upper || r.t.capitalOnly[key] && !first.c.Capital {
		return false
	}
	// "EU AI Act", "European legislation": a body of rules.
	next, topic := r.beforeTopic(ws, i+n)
	if topic {
		return false
	}
	e := r.t.places[key]
	if e.kind != placeAdjective && e.kind != placeRegion {
		return true
	}
	// "African languages", "Kenyan, Ghanaian or Nigerian tongues",
	// "transcription en français": a language.
	j := next
	for j < len(ws) {
		if w := ws[j].w; w == "and" || w == "or" || w == "et" || w == "ou" {
			j++
			continue
		}
		if m, k := longest(r.t.places, ws, j); m > 0 && r.t.places[k].kind == placeAdjective {
			j += m
			continue
		}
		break
	}
	if j < len(ws) && r.t.languageWords[ws[j].w] {
		return false
	}
	if i > 0 && e.kind == placeAdjective {
		switch ws[i-1].w {
		case "in", "en", "for", "pour":
			if i+n == len(ws) || r.t.stopwords[ws[i+n].w] {
				return false
			}
		}
	}
	return true
}

// isName reports whether w reads as a name: a word written with a capital
// that the vectors lack or hold as a rare word, and that the alias table
// does not know. Numbers are no names; neither are words in capitals, which
// are mostly acronyms of the domain.
func (r *reader) isName(w queryWord) bool {
	if !w.c.Capital || w.c.Upper || strings.ContainsAny(w.w, "0123456789") || len(w.w) < 3 {
		return false
	}
	if _, ok := r.t.aliases[w.w]; ok {
		return false
	}
	i := r.vec.lookup([]byte(w.w))
	return i < 0 || i >= nameRank
}

// docPlaces are the places a signal's text names.
type docPlaces struct {
	countries []string // country keys, with the countries of the cities
	cities    []string // folded city names
}

// textPlaces returns the countries and cities text names, by country name or
// city (not by adjective or region, and not by the words that are places
// only when capitalised).
func (r *reader) textPlaces(text string) docPlaces {
	var ws []queryWord
	r.splitWords(text, func(w string, c wordCase) { ws = append(ws, queryWord{w: w, c: c}) })
	var p docPlaces
	for i := 0; i < len(ws); {
		n, key := longest(r.t.places, ws, i)
		if n == 0 {
			i++
			continue
		}
		i += n
		e := r.t.places[key]
		if r.t.capitalOnly[key] || r.t.upperOnly[key] || e.kind != placeCountry && e.kind != placeCity {
			continue
		}
		if e.kind == placeCity && !slices.Contains(p.cities, e.city) {
			p.cities = append(p.cities, e.city)
		}
		for _, c := range e.countries {
			if !slices.Contains(p.countries, c) {
				p.countries = append(p.countries, c)
			}
		}
	}
	return p
}

// placeAgrees returns the country key on which a signal of country (may be
// empty) whose text names p agrees with the place a asks for, or "".
func (a *asks) placeAgrees(country string, p docPlaces) string {
	for _, c := range a.cities {
		if slices.Contains(p.cities, c.name) {
			return c.country
		}
	}
	if country != "" && slices.Contains(a.countries, country) {
		return country
	}
	for _, k := range p.countries {
		if slices.Contains(a.countries, k) {
			return k
		}
	}
	return ""
}

// kindWords returns the vocabulary index of each single query word that asks
// for a kind of signal, with its tag: a signal of that tag matches the word
// fully, as it does the words of the concept group of its kind.
func (r *reader) kindWords(query string) map[int32]string {
	m := map[int32]string{}
	r.splitWords(query, func(w string, _ wordCase) {
		if tag, ok := r.t.kinds[w]; ok {
			if v := r.vec.lookup([]byte(w)); v >= 0 {
				m[v] = tag
			}
		}
	})
	return m
}
