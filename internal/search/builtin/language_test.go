package builtin

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
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
