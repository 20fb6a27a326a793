package builtin

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"signals/internal/model"
)

// TestQueryLanguage reads the language of every query of the evaluation
// sets, each labelled with the language it is asked in, and of a few
// queries written for this test.
func TestQueryLanguage(t *testing.T) {
	b, err := New()
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{
		"":                           "en",
		"Halden Robotics":            "en",
		"startups in Rio de Janeiro": "en",
		"who is hiring in Europe?":   "en",
		"robots d'entrepôt":          "fr",
		"IA générative pour composer de la musique": "fr",
		"qui recrute des ingénieurs ?":              "fr",
		"L'IA en santé":                             "fr",
	}
	var files []string
	files, err = filepath.Glob("../eval/testdata/eval*.json")
	if err != nil || len(files) < 4 {
		t.Fatalf("evaluation sets: %v %v", files, err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var set struct {
			Queries []struct{ Query, Language string }
		}
		if err := json.Unmarshal(data, &set); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, q := range set.Queries {
			if q.Language == "" {
				q.Language = "en"
			}
			cases[q.Query] = q.Language
		}
	}
	french := 0
	for q, want := range cases {
		if want == "fr" {
			french++
		}
		if got := b.rd.language(q); got != want {
			t.Errorf("language(%q) = %s, want %s", q, got, want)
		}
	}
	if french < 20 {
		t.Errorf("only %d French queries", french)
	}
}

// FuzzReadQuery reads any text as a query: the reader never fails, asks
// only for tags and country keys that exist, and reads the query's
// language as English once English function words outnumber the rest of
// its words.
func FuzzReadQuery(f *testing.F) {
	for _, s := range []string{"who is hiring in Canada", "levées de fonds de plus de 10 M€ en Europe", "l'IA d'entreprise",
		"Halden Robotics", "AI Act", "robots d'entrepôt en Espagne ou au Portugal", "funding rounds above $50M in Asia",
		"qu'", "l''", "de de de", "ÉÉ", "\u0301", "- - -"} {
		f.Add(s)
	}
	b, err := New()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, q string) {
		a := b.rd.read(q)
		for _, k := range a.kinds {
			if !slices.Contains(model.Tags, k) {
				t.Errorf("read(%q) asks for tag %q", q, k)
			}
		}
		for _, c := range a.countries {
			if !model.ValidCountry(c) {
				t.Errorf("read(%q) asks for country %q", q, c)
			}
		}
		if l := b.rd.language(q); l != "en" && l != "fr" {
			t.Errorf("language(%q) = %q", q, l)
		}
		n := 1
		words(q, nil, func([]byte) { n++ })
		if strings.ContainsAny(q, frenchLetters) {
			n++
		}
		if l := b.rd.language(q + strings.Repeat(" the", n)); l != "en" {
			t.Errorf("language(%q + %d × the) = %q", q, n, l)
		}
	})
}
