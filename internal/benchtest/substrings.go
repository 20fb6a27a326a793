package benchtest

import (
	"math/rand/v2"
	"slices"
	"strings"
	"unicode/utf8"

	"signals/internal/demo"
	"signals/internal/model"
)

// A SubstringKind is one way of choosing a q, from the commonest to what
// no signal holds.
type SubstringKind string

// The kinds of Substrings, in the order they are dealt.
const (
	// A word of a signal's text: usually common.
	KindWord SubstringKind = "word"
	// A run of 8 to 40 characters of a signal's text: often only that
	// signal's.
	KindPassage SubstringKind = "passage"
	// Such a run with one letter changed: absent, but made of trigrams
	// that are common around the change.
	KindNearMiss SubstringKind = "near-miss"
	// Two words of one signal in the wrong order: absent or rare, every
	// trigram common.
	KindSwapped SubstringKind = "swapped"
	// Three to six random letters: absent, with rare trigrams.
	KindRandom SubstringKind = "random"
	// One or two characters taken from a text: common.
	KindShortCommon SubstringKind = "short-common"
	// One or two characters no text holds, or hardly any.
	KindShortRare SubstringKind = "short-rare"
	// Part of an author's name or headline.
	KindAuthor SubstringKind = "author"
)

// SubstringKinds are the kinds in the order Substrings deals them.
var SubstringKinds = []SubstringKind{KindWord, KindPassage, KindNearMiss, KindSwapped, KindRandom,
	KindShortCommon, KindShortRare, KindAuthor}

// A Substring is one q of a benchmark and how it was chosen.
type Substring struct {
	Q    string
	Kind SubstringKind
}

// Substrings returns n distinct values of q drawn from the synthetic
// signals of seed (demo.Synthetic), dealing the kinds in turn, so that a
// benchmark can time q values that no cache has seen, of every kind a
// client may send.
func Substrings(n int, seed int64) []Substring {
	rng := rand.New(rand.NewPCG(uint64(seed), 0x9e37_79b9_7f4a_7c15))
	var samples []model.Signal
	for s := range demo.Synthetic(2000, seed) {
		samples = append(samples, s)
	}
	seen := map[string]bool{}
	out := make([]Substring, 0, n)
	for i := 0; len(out) < n; i++ {
		kind := SubstringKinds[i%len(SubstringKinds)]
		s := samples[rng.IntN(len(samples))]
		q := substring(rng, kind, s)
		if q == "" || seen[model.Fold(q)] || strings.TrimSpace(q) == "" || utf8.RuneCountInString(q) > model.MaxQChars {
			continue
		}
		seen[model.Fold(q)] = true
		out = append(out, Substring{Q: q, Kind: kind})
	}
	return out
}

// rareChars are characters that synthetic texts do not use.
var rareChars = []rune("ʬ҂ꙮ⸘Ꝡ☃ǂ§¶ŧ")

func substring(rng *rand.Rand, kind SubstringKind, s model.Signal) string {
	text := []rune(s.Text)
	words := strings.Fields(s.Text)
	letter := func() rune { return rune('a' + rng.IntN(26)) }
	run := func(min, max int) []rune {
		n := min + rng.IntN(max-min+1)
		if len(text) <= n {
			return slices.Clone(text)
		}
		i := rng.IntN(len(text) - n)
		return slices.Clone(text[i : i+n])
	}
	switch kind {
	case KindWord:
		return strings.Trim(words[rng.IntN(len(words))], ".,;:!?()\"'")
	case KindPassage:
		return string(run(8, 40))
	case KindNearMiss:
		r := run(8, 40)
		i := rng.IntN(len(r))
		c := letter()
		if r[i] == c {
			c = 'q'
		}
		r[i] = c
		return string(r)
	case KindSwapped:
		if len(words) < 2 {
			return ""
		}
		i := rng.IntN(len(words) - 1)
		return words[i+1] + " " + words[i]
	case KindRandom:
		r := make([]rune, 3+rng.IntN(4))
		for i := range r {
			r[i] = letter()
		}
		return string(r)
	case KindShortCommon:
		return string(run(1, 2))
	case KindShortRare:
		c := rareChars[rng.IntN(len(rareChars))]
		if rng.IntN(2) == 0 {
			return string(c)
		}
		return string([]rune{letter(), c})
	case KindAuthor:
		from := s.AuthorName
		if s.AuthorHeadline != "" && rng.IntN(2) == 0 {
			from = s.AuthorHeadline
		}
		r := []rune(from)
		n := min(len(r), 3+rng.IntN(10))
		i := rng.IntN(len(r) - n + 1)
		return string(r[i : i+n])
	}
	return ""
}
