package importer

import (
	"fmt"
	"strings"

	"signals/internal/label"
	"signals/internal/model"
)

// Format is the import format as documentation gives it, field by field,
// with every key each enumeration takes: generated from the decoder's
// rules and the model's enumerations, so that it cannot drift from them
// (docs/operating.md holds it; a test checks it).
func Format() string {
	var b strings.Builder
	b.WriteString("| field | required | rule |\n|---|---|---|\n")
	keys := func(values []string, name func(string) string) string {
		parts := make([]string, len(values))
		for i, v := range values {
			parts[i] = "`" + v + "`"
			if name != nil {
				parts[i] += " (" + name(v) + ")"
			}
		}
		return strings.Join(parts, ", ")
	}
	rows := [][3]string{
		{"id", "yes", fmt.Sprintf("the signal's name, 1 to %d characters, no control characters, not `.` or `..`; "+
			"opaque otherwise (`/ : ? # %% +`, spaces and non-ASCII are kept). Importing an id again updates that signal", model.MaxIDChars)},
		{"tag", "yes", "its kind, one of " + keys(model.Tags, label.Tag)},
		{"source", "yes", "the platform it was collected from, one of " + keys(model.Sources, label.Source)},
		{"language", "yes", "one of " + keys(model.Languages, label.Language) + "; `other` is neither English nor French " +
			"(listed, never searched)"},
		{"country", "no", "a country key (below), or `null` or absent for none"},
		{"author_name", "yes", fmt.Sprintf("not blank, at most %d characters", model.MaxAuthorNameChars)},
		{"author_headline", "no", fmt.Sprintf("at most %d characters; empty or absent for none", model.MaxHeadlineChars)},
		{"source_url", "yes", fmt.Sprintf("the original post: an absolute `http` or `https` URL of at most %d bytes", model.MaxSourceURLBytes)},
		{"text", "yes", fmt.Sprintf("the post's text, not blank, stored whole (answers cut it: lists at %d characters, "+
			"a signal at %d)", model.ListSnippetChars, model.MaxTextChars)},
		{"published_at", "yes", "when the post was published, RFC 3339 (`2026-11-20T09:30:00Z`), its full precision kept"},
		{"published_at_precision", "yes", "how much of `published_at` the platform gave: one of " + keys(model.Precisions, nil) +
			" (`day`: only the date is known)"},
		{"observed_at", "no", "when it was collected, RFC 3339, or `null`; `observed_after` filters on it"},
		{"status", "no", "the editorial decision: `" + model.StatusPending + "` (the default: not shown anywhere), `" +
			model.StatusPublic + "` (published) or `" + model.StatusHidden + "` (withdrawn)"},
		{"market_only", "no", "`true` marks a signal for market use only: it is on no public surface, whatever its " +
			"status; default `false`"},
	}
	for _, r := range rows {
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", r[0], r[1], r[2])
	}
	b.WriteString("\nA signal is public when its `status` is `public` and `market_only` is `false`; only public signals reach the API, MCP, the website and the feeds. " +
		"Any other field is refused, as is a line that is not one JSON object. Strings are UTF-8 without NUL.\n\n")
	b.WriteString("Country keys: " + keys(model.Countries, nil) + ".\n")
	return b.String()
}
