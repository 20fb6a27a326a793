package builtin

import (
	"strings"
	"testing"
)

func TestPhraseExpand(t *testing.T) {
	ix := newPhraseIndex(mustTables(t).phrases)
	tests := []struct{ query, want string }{
		{"robots shaped like people", "humanoid robots"},
		{"Voice-to-text start-ups", "speech transcription"},
		{"cars with nobody at the wheel", "driverless autonomous"},
		{"startups that raise money and write code", "funding coding assistant"},
		{"people shaped like", ""},
		{"chocolate cake recipe", ""},
	}
	for _, tc := range tests {
		if got := ix.expand(tc.query); got != tc.want {
			t.Errorf("expand(%q) = %q, want %q", tc.query, got, tc.want)
		}
	}
}

// TestPhraseTable checks the table's shape: phrases of at least two folded
// words, terms the scorer can read.
func TestPhraseTable(t *testing.T) {
	b := mustBuiltin(t)
	for p, terms := range b.tables.phrases {
		ws := strings.Fields(p)
		if len(ws) < 2 || strings.Join(ws, " ") != p || p != strings.ToLower(p) || strings.Contains(p, "-") {
			t.Errorf("phrase %q: want two or more lower-case words separated by single spaces", p)
		}
		for w := range strings.FieldsSeq(strings.ReplaceAll(terms, "-", " ")) {
			if _, alias := b.tables.aliases[w]; !alias && b.vec.lookup([]byte(w)) < 0 {
				t.Errorf("phrase %q: term %q has neither a vector nor an alias", p, w)
			}
		}
	}
}
