package label

import "testing"

func TestCountry(t *testing.T) {
	for key, want := range map[string]string{
		"united_states": "United States", "bosnia_and_herzegovina": "Bosnia and Herzegovina",
		"cote_d_ivoire": "Côte d'Ivoire", "guinea_bissau": "Guinea-Bissau", "democratic_republic_of_the_congo": "Democratic Republic of the Congo",
	} {
		if got := Country(key); got != want {
			t.Errorf("Country(%q) = %q, want %q", key, got, want)
		}
	}
}
