// Package label holds the names people read for the service's keys: the
// kinds of signal, their sources, languages and countries, and moments in
// time. The website, the account area and the digest mail all write them.
package label

import (
	"strings"
	"time"
)

// Names of the filter values, as people read them.
var (
	tags = map[string]string{
		"job": "Job", "funding": "Funding", "product_launch": "Product launch",
		"product_feedback": "Product feedback", "physical_ai": "Physical AI", "events": "Events", "other": "Other",
	}
	sources = map[string]string{
		"professional_network": "Professional network", "microblog": "Microblog", "tech_forum": "Tech forum",
	}
	languages = map[string]string{"en": "English", "fr": "French", "other": "Other languages"}
)

// Tag is the name people read for a kind of signal: "physical_ai" →
// "Physical AI".
func Tag(tag string) string { return lookup(tags, tag) }

// Source is the name people read for a source: "tech_forum" → "Tech forum".
func Source(source string) string { return lookup(sources, source) }

// Language is the name people read for a language key: "fr" → "French".
func Language(lang string) string { return lookup(languages, lang) }

func lookup(labels map[string]string, v string) string {
	if l, ok := labels[v]; ok {
		return l
	}
	return v
}

// countryNames are the names a country key cannot be turned into word by
// word: their accents, apostrophes and hyphens.
var countryNames = map[string]string{
	"cote_d_ivoire":         "Côte d'Ivoire",
	"guinea_bissau":         "Guinea-Bissau",
	"timor_leste":           "Timor-Leste",
	"sao_tome_and_principe": "São Tomé and Príncipe",
}

// Country turns a country key into its name: "united_states" →
// "United States", "bosnia_and_herzegovina" → "Bosnia and Herzegovina",
// "cote_d_ivoire" → "Côte d'Ivoire".
func Country(key string) string {
	if name, ok := countryNames[key]; ok {
		return name
	}
	words := strings.Split(key, "_")
	for i, w := range words {
		switch {
		case w == "":
		case i > 0 && (w == "and" || w == "of" || w == "the" || w == "d"):
		default:
			words[i] = strings.ToUpper(w[:1]) + w[1:]
		}
	}
	return strings.Join(words, " ")
}

// Time writes a moment as every page shows one: to the minute, in UTC.
// Seconds are for machines: <time datetime> and the API keep them.
func Time(t time.Time) string { return t.UTC().Format("2 January 2006, 15:04 UTC") }
