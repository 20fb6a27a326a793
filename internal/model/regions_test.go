package model

import (
	"slices"
	"testing"
)

// TestRegionsHoldEveryCountryOnce keeps Regions and Countries in step.
func TestRegionsHoldEveryCountryOnce(t *testing.T) {
	seen := map[string]string{}
	for _, r := range Regions {
		if !slices.IsSorted(r.Countries) {
			t.Errorf("%s is not in the order of Countries", r.Name)
		}
		for _, c := range r.Countries {
			if !ValidCountry(c) {
				t.Errorf("%s holds %q, which is not a country key", r.Name, c)
			}
			if other, ok := seen[c]; ok {
				t.Errorf("%q is in %s and %s", c, other, r.Name)
			}
			seen[c] = r.Name
		}
	}
	for _, c := range Countries {
		if _, ok := seen[c]; !ok {
			t.Errorf("%q is in no region", c)
		}
	}
}
