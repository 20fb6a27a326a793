// Package storetest is the behaviour every store implementation must have:
// one suite that the SQLite and PostgreSQL stores both run.
package storetest

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"signals/internal/model"
	"signals/internal/store"
)

// testSubstring: q is found as a literal substring of the text, the author
// and the headline, folded, whatever its length and characters; the same
// answers come before the substring index has seen the signals, after,
// and after a text changes.
func testSubstring(t *testing.T, st store.Store) {
	Put(t, st,
		Sig("pct", 1, func(s *model.Signal) { s.Text = "Growth of 100% in a year" }),
		Sig("underscore", 2, func(s *model.Signal) { s.Text = "the snake_case field" }),
		Sig("plain", 3, func(s *model.Signal) { s.Text = "Plain text about snakes and cases, 1000 users" }),
		Sig("strasse", 4, func(s *model.Signal) { s.Text = "Büro in der Hauptstraße eröffnet" }),
		Sig("author", 5, func(s *model.Signal) { s.AuthorName = "Zoë Quantum" }),
		Sig("headline", 6, func(s *model.Signal) { s.AuthorHeadline = "Head of Robotics at ExampleCorp" }),
		Sig("quoted", 7, func(s *model.Signal) { s.Text = `He said "hi" NEAR(a b) OR c* col:x {a b} ^x` }),
		Sig("cjk", 8, func(s *model.Signal) { s.Text = "東京で人工知能の資金調達 ÉCOLE" }),
		Sig("changes", 9, func(s *model.Signal) { s.Text = "an old sentence" }),
		Sig("hidden", 10, func(s *model.Signal) { s.Text = "Growth of 100% hidden"; s.Status = model.StatusHidden }),
		Sig("ends", 11, func(s *model.Signal) { s.Text = "a word ending in ħŧ" }),
		Sig("short author", 12, func(s *model.Signal) { s.AuthorName = "Øy"; s.AuthorHeadline = "" }),
		Sig("windows", 13, func(s *model.Signal) { s.Text = "opqrstu then abcdefg and hijklmn" }),
	)
	tests := substringCases()
	t.Run("before indexing", func(t *testing.T) { checkSubstrings(t, st, tests) })
	indexer, indexes := st.(SubstringIndexer)
	if !indexes {
		return
	}
	index := func(t *testing.T) {
		t.Helper()
		if _, err := indexer.IndexSubstrings(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	index(t)
	t.Run("indexed", func(t *testing.T) { checkSubstrings(t, st, tests) })
	Put(t, st, Sig("changes", 9, func(s *model.Signal) { s.Text = "a new sentence" }))
	changed := slices.Clone(tests)
	for i := range changed {
		switch changed[i].q {
		case "old sentence":
			changed[i].want = []string{}
		case "new sentence":
			changed[i].want = []string{"changes"}
		}
	}
	t.Run("changed, not indexed", func(t *testing.T) { checkSubstrings(t, st, changed) })
	index(t)
	t.Run("changed, indexed", func(t *testing.T) { checkSubstrings(t, st, changed) })
}

// substringCase is a q and the signals listed for it, in order.
type substringCase struct {
	q    string
	want []string
}

// substringCases are the qs of testSubstring, before "changes" changes its
// text.
func substringCases() []substringCase {
	return []substringCase{
		{"100%", []string{"pct"}},
		{"%", []string{"pct"}},
		{"_", []string{"underscore"}},
		{"snake_case", []string{"underscore"}},
		{"e_c", []string{"underscore"}},
		{"*", []string{"quoted"}},
		{"HAUPTSTRASSE", []string{"strasse"}},
		{"zoë quantum", []string{"author"}},
		{"ZOË", []string{"author"}},
		{"robotics at examplecorp", []string{"headline"}},
		{"1000 USERS", []string{"plain"}},
		// One and two characters: shorter than a trigram.
		{"0%", []string{"pct"}},
		{"%_", []string{}},
		{"ß", []string{"strasse"}},
		{"ss", []string{"strasse"}},
		{"é", []string{"cjk"}},
		{"京", []string{"cjk"}},
		{"z", []string{"author"}},
		// LIKE's and the full-text syntax's characters are literal.
		{"0% i", []string{"pct"}},
		{"e_c", []string{"underscore"}},
		{"%%%", []string{}},
		{"___", []string{}},
		{`"hi"`, []string{"quoted"}},
		{`said "`, []string{"quoted"}},
		{"near(a b) or c*", []string{"quoted"}},
		{"col:x {a", []string{"quoted"}},
		{"hi OR said", []string{}},
		{`\`, []string{}},
		{`e\_c`, []string{}},
		// Words joined otherwise than in the text.
		{"snake case", []string{}},
		{"snake-case", []string{}},
		{"1000,users", []string{}},
		// Two characters the text holds, but not side by side.
		{"üo", []string{}},
		// Non-ASCII, folded.
		{"büro", []string{"strasse"}},
		{"STRAẞE", []string{"strasse"}},
		{"人工知能", []string{"cjk"}},
		{"で人工", []string{"cjk"}},
		{"école", []string{"cjk"}},
		{"old sentence", []string{"changes"}},
		{"new sentence", []string{}},
		// Across the end of one field and the start of another.
		{"investorsignal", []string{}},
		// One and two characters at the very end of a field, and a whole
		// field of two characters.
		{"ħŧ", []string{"ends"}},
		{"ŧ", []string{"ends"}},
		{"øy", []string{"short author"}},
		{"ø", []string{"short author"}},
		// Longer than a phrase: each of its start, middle and end occurs,
		// but not the whole.
		{"abcdefg hijklmn opqrstu", []string{}},
		{"then abcdefg and hijk", []string{"windows"}},
		// The character the index puts after each field is not in it.
		{"funding.\uE000", []string{}},
		{"\uE000", []string{}},
	}
}

// checkSubstrings lists each case's q as a subtest and compares the ids.
func checkSubstrings(t *testing.T, st store.Store, tests []substringCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.q, func(t *testing.T) {
			got, _ := list(t, st, model.ListQuery{Q: tt.q})
			if !slices.Equal(got, tt.want) {
				t.Errorf("q=%q: got %v, want %v", tt.q, got, tt.want)
			}
		})
	}
}

// SubstringIndexer is a store whose substring index is filled after imports.
type SubstringIndexer interface {
	// IndexSubstrings indexes the signals changed since it last ran and
	// returns how many publication times it indexed.
	IndexSubstrings(ctx context.Context) (int, error)
}

// A substring found in many signals is listed in the same order and pages
// whether the index names few candidates or too many to check one by one.
func testSubstringCommonAndRare(t *testing.T, st store.Store) {
	var sigs []model.Signal
	for i := range 1600 {
		sigs = append(sigs, Sig(fmt.Sprintf("s%04d", i), i, func(s *model.Signal) {
			s.Text = fmt.Sprintf("common words, number %d", i)
			if i%100 == 7 {
				s.Text += " and a rare one"
			}
			if i%2 == 0 {
				s.Tag = "job"
			}
		}))
	}
	Put(t, st, sigs...)
	if indexer, ok := st.(SubstringIndexer); ok {
		if _, err := indexer.IndexSubstrings(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct {
		q     model.ListQuery
		first string
		n     int
		more  bool
	}{
		{model.ListQuery{Q: "COMMON words", Page: 1, PageSize: 20}, "s1599", 20, true},
		{model.ListQuery{Q: "common", Page: 80, PageSize: 20}, "s0019", 20, false},
		{model.ListQuery{Q: "rare one", Page: 1, PageSize: 20}, "s1507", 16, false},
		{model.ListQuery{Q: "rare one", Page: 2, PageSize: 10}, "s0507", 6, false},
		{model.ListQuery{Q: "rare one", Page: 1, PageSize: 5, Filter: model.Filter{Tags: []string{"funding"}}}, "s1507", 5, true},
		{model.ListQuery{Q: "number 1", Page: 1, PageSize: 50}, "s1599", 50, true},
		// Many candidates, another filter, a later page.
		{model.ListQuery{Q: "common", Page: 2, PageSize: 10, Filter: model.Filter{Tags: []string{"job"}}}, "s1578", 10, true},
		// One character that begins many different trigrams.
		{model.ListQuery{Q: "1", Page: 1, PageSize: 20}, "s1599", 20, true},
		{model.ListQuery{Q: "1", Page: 30, PageSize: 20}, "s1019", 20, true},
	} {
		got, more, err := st.ListSignals(context.Background(), tt.q)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != tt.n || more != tt.more || got[0].ID != tt.first {
			t.Errorf("%+v: %d signals from %s, more %v; want %d from %s, more %v", tt.q, len(got), ids(got)[0], more, tt.n, tt.first, tt.more)
		}
	}
}
