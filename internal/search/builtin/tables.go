package builtin

import (
	"embed"
	"fmt"
	"io/fs"
	"strings"

	"signals/internal/model"
)

// tableFiles are the word tables of the scorer, one file per table. Each
// file says at its top what its table is for, its format and where its
// entries come from.
//
//go:embed tables/*.txt
var tableFiles embed.FS

// tableSeparator separates the fields of a table line.
const tableSeparator = "="

// tableLine is one entry of a table file: its fields, and its line number
// for the errors of the checks that follow the parsing.
type tableLine struct {
	n      int
	fields []string
}

// readTable parses the table file name, whose content is data, into its
// entries of fields fields each. An entry is one line; its fields are
// separated by "=", and the words of a field by spaces, runs of which read
// as one. A line whose first character other than a space is "#" is a
// comment, and blank lines are ignored. With keyed, no two entries may have
// the same first field. An error names the file and the line.
func readTable(name string, data []byte, fields int, keyed bool) ([]tableLine, error) {
	var out []tableLine
	first := map[string]int{} // key -> line, with keyed
	for i, line := range strings.Split(string(data), "\n") {
		n := i + 1
		if t := strings.TrimSpace(line); t == "" || t[0] == '#' {
			continue
		}
		fs := strings.Split(line, tableSeparator)
		if len(fs) != fields {
			return nil, fmt.Errorf("%s:%d: fields separated by %q: got %d, want %d", name, n, tableSeparator, len(fs), fields)
		}
		for j, f := range fs {
			if fs[j] = strings.Join(strings.Fields(f), " "); fs[j] == "" {
				return nil, fmt.Errorf("%s:%d: field %d is empty", name, n, j+1)
			}
		}
		if keyed {
			if m, ok := first[fs[0]]; ok {
				return nil, fmt.Errorf("%s:%d: %q is already on line %d", name, n, fs[0], m)
			}
			first[fs[0]] = n
		}
		out = append(out, tableLine{n, fs})
	}
	return out, nil
}

// read fills the word tables of t from the table files of fsys (tableFiles,
// or a test's), and fails on the first malformed file.
func (t *tables) read(fsys fs.FS) error {
	r := tableReader{fsys: fsys}
	t.aliases = r.pairs("aliases.txt")
	t.phrases = r.pairs("phrases.txt")
	t.concepts = r.concepts("concepts.txt")
	t.stopwords = r.set("stopwords.txt")
	t.elisions = r.list("elisions.txt")
	t.endings = r.list("endings.txt")
	t.kinds = r.pairs("kinds.txt")
	t.kindSubjects = r.set("kind-subjects.txt")
	t.possessives = r.set("possessives.txt")
	t.generic = r.set("generic.txt")
	t.languageWords = r.set("language-words.txt")
	t.topicWords = r.set("topic-words.txt")
	t.queryLanguages = r.languages("query-languages.txt")
	names, adjectives, cities := r.places("places-countries.txt"), r.places("places-adjectives.txt"), r.places("places-cities.txt")
	regions := r.regions("places-regions.txt")
	t.places = placeTable(names, adjectives, cities, regions)
	t.capitalOnly = r.set("places-capital-only.txt")
	t.upperOnly = r.set("places-upper-only.txt")
	if r.err != nil {
		return fmt.Errorf("builtin: read tables: %w", r.err)
	}
	return nil
}

// tableReader reads the table files of fsys and keeps the first error, so
// that reading every table takes one check.
type tableReader struct {
	fsys fs.FS
	err  error
}

// lines reads the entries of the table file tables/file; nil after an error.
func (r *tableReader) lines(file string, fields int, keyed bool) []tableLine {
	if r.err != nil {
		return nil
	}
	name := "tables/" + file
	data, err := fs.ReadFile(r.fsys, name)
	if err != nil {
		r.err = err
		return nil
	}
	ls, err := readTable(name, data, fields, keyed)
	if err != nil {
		r.err = err
	}
	return ls
}

// pairs reads a table of KEY = VALUE lines.
func (r *tableReader) pairs(file string) map[string]string {
	ls := r.lines(file, 2, true)
	m := make(map[string]string, len(ls))
	for _, l := range ls {
		m[l.fields[0]] = l.fields[1]
	}
	return m
}

// set reads a table of one word or phrase a line.
func (r *tableReader) set(file string) map[string]bool {
	ls := r.lines(file, 1, true)
	m := make(map[string]bool, len(ls))
	for _, l := range ls {
		m[l.fields[0]] = true
	}
	return m
}

// languages reads a table of WORD = LANGUAGE lines, whose languages must
// be en or fr.
func (r *tableReader) languages(file string) map[string]string {
	ls := r.lines(file, 2, true)
	m := make(map[string]string, len(ls))
	for _, l := range ls {
		if l.fields[1] != "en" && l.fields[1] != "fr" {
			r.err = fmt.Errorf("tables/%s:%d: %q is neither en nor fr", file, l.n, l.fields[1])
			return nil
		}
		m[l.fields[0]] = l.fields[1]
	}
	return m
}

// list reads a table of one entry a line, whose order counts.
func (r *tableReader) list(file string) []string {
	ls := r.lines(file, 1, true)
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = l.fields[0]
	}
	return out
}

// noTag is the tag field of a concept group that names no kind of signal.
const noTag = "-"

// concepts reads the concept groups, TAG = WORDS, in order; several groups
// may have one tag.
func (r *tableReader) concepts(file string) []concept {
	ls := r.lines(file, 2, false)
	out := make([]concept, len(ls))
	for i, l := range ls {
		out[i] = concept{words: l.fields[1]}
		if l.fields[0] != noTag {
			out[i].tag = l.fields[0]
		}
	}
	return out
}

// places reads a table of PLACE = COUNTRY lines, whose countries must be
// country keys.
func (r *tableReader) places(file string) map[string]string {
	ls := r.lines(file, 2, true)
	m := make(map[string]string, len(ls))
	for _, l := range ls {
		if !model.ValidCountry(l.fields[1]) {
			r.err = fmt.Errorf("tables/%s:%d: %q is no country key", file, l.n, l.fields[1])
			return nil
		}
		m[l.fields[0]] = l.fields[1]
	}
	return m
}

// regions reads the regions, REGION = COUNTRIES, where each of COUNTRIES
// is a country key or an earlier region, with underscores for spaces,
// that stands for its own countries.
func (r *tableReader) regions(file string) map[string][]string {
	ls := r.lines(file, 2, true)
	m := make(map[string][]string, len(ls))
	for _, l := range ls {
		var cs []string
		for w := range strings.FieldsSeq(l.fields[1]) {
			region, isRegion := m[strings.ReplaceAll(w, "_", " ")]
			switch {
			case isRegion && model.ValidCountry(w):
				r.err = fmt.Errorf("tables/%s:%d: %q is both a country key and a region", file, l.n, w)
			case isRegion:
				cs = append(cs, region...)
			case model.ValidCountry(w):
				cs = append(cs, w)
			default:
				r.err = fmt.Errorf("tables/%s:%d: %q is neither a country key nor a region of an earlier line", file, l.n, w)
			}
			if r.err != nil {
				return nil
			}
		}
		m[l.fields[0]] = cs
	}
	return m
}

// trimClitics removes from a folded word the first French elision of
// t.elisions in front ("l'", "qu'") and the first English contracted ending
// of t.endings behind ("'s"), as the kind and place tables spell words; each
// only when the word is longer than it. A word without an apostrophe is
// returned as it is.
func trimClitics[W ~string | ~[]byte](t *tables, w W) W {
	if !hasApostrophe(w) {
		return w
	}
	w = w[elision(t, w):]
	for _, e := range t.endings {
		if len(w) > len(e) && string(w[len(w)-len(e):]) == e {
			w = w[:len(w)-len(e)]
			break
		}
	}
	return w
}

// elision returns the length of the French elision of t.elisions that the
// folded word w starts with ("l'", "qu'"), 0 when it starts with none or is
// no longer than it.
func elision[W ~string | ~[]byte](t *tables, w W) int {
	for _, p := range t.elisions {
		if len(w) > len(p) && string(w[:len(p)]) == p {
			return len(p)
		}
	}
	return 0
}

func hasApostrophe[W ~string | ~[]byte](w W) bool {
	for i := 0; i < len(w); i++ {
		if w[i] == '\'' {
			return true
		}
	}
	return false
}
