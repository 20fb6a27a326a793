package failure

import (
	"slices"
	"strings"
	"testing"
)

func TestSuggest(t *testing.T) {
	countries := []string{"canada", "cote_d_ivoire", "france", "north_korea", "south_korea", "united_arab_emirates", "united_kingdom", "united_states"}
	aliases := map[string]string{"usa": "united_states", "uk": "united_kingdom"}
	for _, tc := range []struct {
		value string
		want  []string
	}{
		{"frnace", []string{"france"}},
		{"France", []string{"france"}},
		{"United States", []string{"united_states"}},
		{"cote-d'ivoire", []string{"cote_d_ivoire"}},
		{"usa", []string{"united_states"}},
		{"UK", []string{"united_kingdom"}},
		{"united", []string{"united_arab_emirates", "united_kingdom", "united_states"}},
		{"korea", []string{"north_korea", "south_korea"}},
		{"canadaa", []string{"canada"}},
		{"atlantis", nil},
		{"", nil},
		{strings.Repeat("x", 10000), nil},
	} {
		if got := Suggest(tc.value, countries, aliases); !slices.Equal(got, tc.want) {
			t.Errorf("Suggest(%.20q) = %q, want %q", tc.value, got, tc.want)
		}
	}
	if got := Suggest("e", strings.Fields("ea eb ec ed ee ef eg"), nil); len(got) != MaxSuggested {
		t.Errorf("Suggest gave %d values, want at most %d", len(got), MaxSuggested)
	}
}

func TestNotAllowed(t *testing.T) {
	e := NotAllowed("tags", "jobs", "must be one of: job, events", []string{"job", "events"}, nil)
	if e.Code != CodeInvalidParameter || e.Param != "tags" || e.ValidationMessage != "must be one of: job, events" ||
		e.Detail != `tags must be one of: job, events, got "jobs"; did you mean job?` || !slices.Equal(e.SuggestedValues, []string{"job"}) {
		t.Errorf("%+v", e)
	}
	long := NotAllowed("country", strings.Repeat("é", 100), "must be a country key", nil, nil)
	if want := `country must be a country key, got "` + strings.Repeat("é", 40) + `…"`; long.Detail != want {
		t.Errorf("detail %q, want %q", long.Detail, want)
	}
}
