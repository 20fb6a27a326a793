package model

import (
	"math/rand/v2"
	"testing"
)

func TestFoldAgreesWithFullFold(t *testing.T) {
	var all []byte
	for c := range 0x80 {
		all = append(all, byte(c))
	}
	cases := []string{string(all), "", "abc", "ABC def", "Snake_Case 100%", "Ünïcode", "straße", "K",
		"e\u0301", "E\u0301X", "Ae\u0301\u0327B", "\u0301Start", "ΣΑΣ σας", "İstanbul", "\ufb01NE", "\u212aelvin",
		"\u1100\u1161\u11a8 Hangul", "A\u030a\u212b", "x\u0345\u0399", "Ǆ ǅ ǆ", "€5M Series A 👋 OK"}
	for _, s := range cases {
		if got, want := Fold(s), FullFold(s); got != want {
			t.Errorf("Fold(%q) = %q, want %q", s, got, want)
		}
	}
	// Random mixes of ASCII, letters with case, combining marks and
	// characters that compose or fold to several.
	alphabet := []rune("aAzZ _%.0e\u0301\u0308\u0327\u0345éÉßẞΣσςΐİıﬁ\u212a\u212bÅǅ\u1100\u1161\u11a8가中👋")
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		rs := make([]rune, r.IntN(12))
		for i := range rs {
			rs[i] = alphabet[r.IntN(len(alphabet))]
		}
		s := string(rs)
		if got, want := Fold(s), FullFold(s); got != want {
			t.Fatalf("Fold(%q) = %q, want %q", s, got, want)
		}
	}
}

func FuzzFold(f *testing.F) {
	f.Add("Straße e\u0301 ΣΑΣ")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Fold(s), FullFold(s); got != want {
			t.Errorf("Fold(%q) = %q, want %q", s, got, want)
		}
	})
}
