package builtin

import (
	"slices"
	"strings"
	"testing"
)

func TestWords(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"empty", "", nil},
		{"punctuation only", " -- ... !? ", nil},
		{"lower-cases", "Hello WORLD", []string{"hello", "world"}},
		{"splits on punctuation", "AI, robots; (agents).", []string{"ai", "robots", "agents"}},
		{"keeps inner hyphen", "fine-tuning state-of-the-art", []string{"fine-tuning", "state-of-the-art"}},
		{"drops outer hyphens", "-word- --x", []string{"word", "x"}},
		{"double hyphen splits", "a--b", []string{"a", "b"}},
		{"keeps inner apostrophe", "company's don't", []string{"company's", "don't"}},
		{"typographic apostrophe", "l’IA d’entreprise", []string{"l'ia", "d'entreprise"}},
		{"folds french accents", "Levée de fonds: données, ÉVÉNEMENT, cœur", []string{"levee", "de", "fonds", "donnees", "evenement", "coeur"}},
		{"decomposed accents", "e\u0301quipe", []string{"equipe"}},
		{"digits", "GPT-4o raised $40M in 2024", []string{"gpt-4o", "raised", "40m", "in", "2024"}},
		{"splits dots", "e.g. U.S. 3.5", []string{"e", "g", "u", "s", "3", "5"}},
		{"other scripts", "東京 Москва", []string{"東京", "москва"}},
		{"hashtags and mentions", "#MachineLearning @openai", []string{"machinelearning", "openai"}},
		{"urls", "https://example.com/ai-jobs", []string{"https", "example", "com", "ai-jobs"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			words(tc.in, nil, func(w []byte) { got = append(got, string(w)) })
			if !slices.Equal(got, tc.want) {
				t.Errorf("words(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestAnalyze(t *testing.T) {
	b := mustBuiltin(t)
	tests := []struct {
		name     string
		in       string
		wantLex  []string // lexical terms, in order
		wantVecs []string // words whose vectors are used, in order
	}{
		{"stop words dropped", "the robots of the future", []string{"robot", "future"}, []string{"robots", "future"}},
		{"alias expands", "LLMs", []string{"llm", "language", "model"}, []string{"language", "models"}},
		{"alias keeps own vector", "humanoid", []string{"humanoid", "robot"}, []string{"humanoid", "robot"}},
		{"hyphenated alias", "fine-tuning", []string{"fine-tuning", "training", "model"}, []string{"training", "model"}},
		{"hyphenated vocabulary word", "state-of-the-art", []string{"state", "art"}, []string{"state-of-the-art"}},
		{"unknown hyphenated word splits", "GPT-4o", []string{"gpt", "language", "model", "4o"}, []string{"language", "model"}},
		{"french elision and alias", "l'intelligence artificielle", []string{"intelligence", "artificielle", "artificial"}, []string{"intelligence", "artificial"}},
		{"french job ad", "Nous recrutons un ingénieur", []string{"recruton", "hiring", "ingenieur", "engineer"}, []string{"hiring", "engineer"}},
		{"english possessive", "Nvidia's GPUs", []string{"nvidia", "chipmaker", "graphic", "chip", "gpus", "graphic", "chip"}, []string{"chipmaker", "graphics", "chips", "graphics", "chips"}},
		{"plural stem", "companies launches models", []string{"company", "launch", "model"}, []string{"companies", "launches", "models"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var lex, vecs []string
			b.an.analyze(tc.in, nil, func(l []byte, v int32) {
				if l != nil {
					lex = append(lex, string(l))
				}
				if v >= 0 {
					vecs = append(vecs, b.vec.word(v))
				}
			})
			if !slices.Equal(lex, tc.wantLex) {
				t.Errorf("lexical terms of %q = %q, want %q", tc.in, lex, tc.wantLex)
			}
			if !slices.Equal(vecs, tc.wantVecs) {
				t.Errorf("vector words of %q = %q, want %q", tc.in, vecs, tc.wantVecs)
			}
		})
	}
}

func TestAliasesResolve(t *testing.T) {
	b := mustBuiltin(t)
	for k, exp := range b.tables.aliases {
		for w := range strings.FieldsSeq(exp) {
			if b.vec.lookup([]byte(w)) < 0 {
				t.Errorf("alias %q: %q is not in the vocabulary", k, w)
			}
		}
		var folded []string
		words(k, nil, func(w []byte) { folded = append(folded, string(w)) })
		if len(folded) != 1 || folded[0] != k {
			t.Errorf("alias key %q is not one folded word (tokenises as %q)", k, folded)
		}
	}
}

// mustTables returns the tables the scorer ships with.
func mustTables(t testing.TB) tables {
	t.Helper()
	tb, err := defaultTables()
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

func mustBuiltin(t testing.TB) *Scorer {
	t.Helper()
	b, err := New()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// word returns the i-th vocabulary word (folded).
func (w *wordVectors) word(i int32) string {
	for k, v := range w.index {
		if v == i {
			return k
		}
	}
	return ""
}

// TestVocabularyTokenises checks that tools/vecpack kept only words the
// tokeniser can produce: each packed word is one word, itself once folded.
func TestVocabularyTokenises(t *testing.T) {
	v := mustBuiltin(t).vec
	if len(v.index) < 90000 {
		t.Fatalf("only %d distinct folded words", len(v.index))
	}
	bad := 0
	for w := range v.index {
		var got []string
		words(w, nil, func(b []byte) { got = append(got, string(b)) })
		if len(got) != 1 || got[0] != w {
			if bad++; bad <= 10 {
				t.Errorf("vocabulary word %q tokenises as %q", w, got)
			}
		}
	}
}
