package builtin

import (
	"math"
	"testing"
)

func TestFindAmounts(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []float64
	}{
		{"raised a $50M Series B", []float64{50e6}},
		{"une levée de 12 millions d'euros", []float64{12e6 * 1.1}},
		{"tour de table de 10 M€ puis 300 M€", []float64{10e6 * 1.1, 300e6 * 1.1}},
		{"£2.8M seed and a $1.2B valuation", []float64{2.8e6 * 1.3, 1.2e9}},
		{"USD 30 million", []float64{30e6}},
		{"salary $41k", []float64{41e3}},
		{"a 1,5 M€ round", []float64{1.5e6 * 1.1}},
		{"€1,000 prize, €48,900 in total", []float64{1000 * 1.1, 48900 * 1.1}},
		{"1 200 000 €", []float64{1.2e6 * 1.1}},
		{"50 engineers in 3 cities", nil},
		{"GPT-4 and Llama 3", nil},
	} {
		got := findAmounts(tc.text)
		if len(got) != len(tc.want) {
			t.Errorf("%q: %v, want %v", tc.text, got, tc.want)
			continue
		}
		for i, s := range got {
			if math.Abs(s.usd-tc.want[i]) > 1e-6*tc.want[i] {
				t.Errorf("%q: amount %d is %v, want %v", tc.text, i, s.usd, tc.want[i])
			}
		}
	}
}

func TestReadAmount(t *testing.T) {
	inf := math.Inf(1)
	for _, tc := range []struct {
		query    string
		ok       bool
		min, max float64
		rest     string
	}{
		{"funding rounds of more than $50M", true, 50e6, inf, "funding rounds of"},
		{"levées de fonds de plus de 10 M€", true, 11e6, inf, "levées de fonds de"},
		{"seed rounds under $5 million in Europe", true, 0, 5e6, "seed rounds in Europe"},
		{"$20M rounds", true, 10e6, 40e6, "rounds"},
		{"rounds over 1 billion dollars", true, 1e9, inf, "rounds"},
		{"humanoid robot funding", false, 0, 0, "humanoid robot funding"},
	} {
		a, rest, ok := readAmount(tc.query)
		if ok != tc.ok || rest != tc.rest || ok && (math.Abs(a.min-tc.min) > 1 || a.max != tc.max && math.Abs(a.max-tc.max) > 1) {
			t.Errorf("readAmount(%q) = %v %q %v, want [%v %v] %q %v", tc.query, a, rest, ok, tc.min, tc.max, tc.rest, tc.ok)
		}
	}
	if !(amountAsk{50e6, inf}).agrees([]float64{12e6, 60e6}) || (amountAsk{50e6, inf}).agrees([]float64{13.2e6}) {
		t.Error("agrees: one amount within the bounds agrees, none disagrees")
	}
}

func FuzzFindAmounts(f *testing.F) {
	for _, s := range []string{"$50M", "12 millions d'euros", "1 200 000 €", "plus de 10 M€", "1,5", "€"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, a := range findAmounts(s) {
			if a.usd < 0 || math.IsNaN(a.usd) || a.start < 0 || a.end > len(s) || a.start >= a.end {
				t.Fatalf("%q: %+v", s, a)
			}
		}
		readAmount(s)
	})
}
