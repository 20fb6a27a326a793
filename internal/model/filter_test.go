package model

import (
	"errors"
	"slices"
	"testing"

	"signals/internal/failure"
)

// suggested returns the values a refusal of value suggests, failing when
// value is not refused.
func suggested(t *testing.T, param, value string, allowed []string, aliases map[string]string) []string {
	t.Helper()
	err := CheckValues(param, []string{value}, allowed, aliases)
	var f *failure.Error
	if !errors.As(err, &f) {
		t.Fatalf("%s %q: got %v, want a refusal", param, value, err)
	}
	return f.SuggestedValues
}

// TestSuggestionsByMeaning checks that a value refused for a filter
// suggests, first, the value it means, not only one spelled like it.
func TestSuggestionsByMeaning(t *testing.T) {
	for _, c := range []struct {
		param, value string
		allowed      []string
		aliases      map[string]string
		want         string
	}{
		{"tags", "fundraising", Tags, TagAliases, "funding"},
		{"tags", "raise", Tags, TagAliases, "funding"},
		{"tags", "Investment", Tags, TagAliases, "funding"},
		{"tags", "Series A", Tags, TagAliases, "funding"},
		{"tags", "hiring", Tags, TagAliases, "job"},
		{"tags", "jobs", Tags, TagAliases, "job"},
		{"tags", "robotics", Tags, TagAliases, "physical_ai"},
		{"tags", "conference", Tags, TagAliases, "events"},
		{"tags", "launch", Tags, TagAliases, "product_launch"},
		{"tags", "fundng", Tags, TagAliases, "funding"}, // spelling still works
		{"sources", "linkedin", Sources, SourceAliases, "professional_network"},
		{"sources", "Hacker News", Sources, SourceAliases, "tech_forum"},
		{"sources", "twitter", Sources, SourceAliases, "microblog"},
		{"language", "français", Languages, LanguageAliases, "fr"},
		{"language", "French", SearchLanguages, LanguageAliases, "fr"},
		{"language", "english", Languages, LanguageAliases, "en"},
		{"language", "anglais", SearchLanguages, LanguageAliases, "en"},
	} {
		got := suggested(t, c.param, c.value, c.allowed, c.aliases)
		if len(got) == 0 || got[0] != c.want {
			t.Errorf("%s %q suggests %q, want %q first", c.param, c.value, got, c.want)
		}
	}
}

// TestAliasTables checks each table of meanings: every word leads to a
// value of its filter, is not itself a value, and is written as a key, so
// that the refusal can find it.
func TestAliasTables(t *testing.T) {
	for _, c := range []struct {
		name    string
		aliases map[string]string
		allowed []string
	}{{"TagAliases", TagAliases, Tags}, {"SourceAliases", SourceAliases, Sources}, {"LanguageAliases", LanguageAliases, Languages}} {
		for word, value := range c.aliases {
			if !slices.Contains(c.allowed, value) {
				t.Errorf("%s[%q] = %q, not a value", c.name, word, value)
			}
			if slices.Contains(c.allowed, word) {
				t.Errorf("%s[%q]: the word is itself a value", c.name, word)
			}
			if got := suggested(t, "x", word, c.allowed, c.aliases); len(got) == 0 || got[0] != value {
				t.Errorf("%s[%q]: the refusal suggests %q, want %q first", c.name, word, got, value)
			}
		}
	}
}
