package postgres

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"signals/internal/model"
	"signals/internal/store/postgres/pgtest"
	"signals/internal/store/storetest"
)

// The windows of a text hold the windows of each of its substrings, one
// character for each window.
func TestTrigramWindows(t *testing.T) {
	for _, s := range []string{"", "ab", "abc", "theꞏownꞏhypeꞏofꞏthat", "東京で人工知能ꞏécoleꞏħŧ"} {
		w := trigramWindows(s)
		runes := []rune(s)
		if want := max(0, len(runes)-2); utf8.RuneCountInString(w) != want {
			t.Errorf("windows of %q: %d characters, want %d", s, utf8.RuneCountInString(w), want)
		}
		for _, r := range w {
			if r < windowBase || r >= windowBase+windowRange {
				t.Errorf("windows of %q hold %U, outside the ideographs", s, r)
			}
		}
		for i := range runes {
			for j := i + 3; j <= len(runes); j++ {
				if sub := trigramWindows(string(runes[i:j])); !strings.Contains(w, sub) {
					t.Errorf("windows of %q do not hold those of %q", s, string(runes[i:j]))
				}
			}
		}
	}
}

// Substrings of five characters or more, looked up by their 5-grams, list
// exactly the signals that hold them: words of a small vocabulary in
// either order, across fields, with the index's sample and without, before
// and after the signals are indexed.
func TestFiveGramSubstrings(t *testing.T) {
	t.Parallel()
	db := open(t, pgtest.FreshSchema(t))
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"the", "own", "hype", "of", "that", "ones", "and", "tests,", "open-source", "Zoë", "東京"}
	phrase := func(n int) string {
		ws := make([]string, n)
		for i := range ws {
			ws[i] = words[rng.IntN(len(words))]
		}
		return strings.Join(ws, " ")
	}
	var sigs []model.Signal
	for i := range 300 {
		sigs = append(sigs, storetest.Sig(fmt.Sprintf("s%03d", i), i, func(s *model.Signal) {
			s.Text = phrase(1 + rng.IntN(12))
			s.AuthorName = phrase(1 + rng.IntN(2))
			s.AuthorHeadline = phrase(rng.IntN(3))
			if i%9 == 0 {
				s.Status = model.StatusHidden
			}
		}))
	}
	storetest.Put(t, db, sigs...)
	var qs []string
	for range 60 {
		qs = append(qs, phrase(2), phrase(3))
	}
	qs = append(qs, "the own", "hype of", "that ones", "and tests,", "e ow", "s, the", "东京 zoë", "zoë\nthe")
	check := func(t *testing.T) {
		for _, q := range qs {
			folded := model.Fold(q)
			var want []string
			for _, s := range slices.Backward(sigs) {
				f := s.Folded()
				if s.Public() && (strings.Contains(f.Text, folded) || strings.Contains(f.AuthorName, folded) || strings.Contains(f.AuthorHeadline, folded)) {
					want = append(want, s.ID)
				}
			}
			got, _, err := db.ListSignals(ctx, model.ListQuery{Q: q, Page: 1, PageSize: 100})
			if err != nil {
				t.Fatal(err)
			}
			ids := []string{}
			for _, s := range got {
				ids = append(ids, s.ID)
			}
			if want = want[:min(len(want), 100)]; !slices.Equal(ids, want) && !(len(ids) == 0 && len(want) == 0) {
				t.Errorf("q=%q: got %v, want %v", q, ids, want)
			}
		}
	}
	t.Run("not indexed", check)
	if _, err := db.IndexTrigrams(ctx); err != nil {
		t.Fatal(err)
	}
	t.Run("indexed", check)
	db.sample.Store(nil)
	t.Run("indexed, no sample", check)
	// Without a sample every 5-gram is rare: the index names the
	// candidates, and they hold every signal holding the substring.
	asked := 0
	for _, q := range qs {
		folded := model.Fold(q)
		keys, ok, err := db.trigramCandidates(ctx, retryingReader{db}, folded, 1500)
		if err != nil {
			t.Fatal(err)
		}
		if !ok || keys == nil || utf8.RuneCountInString(folded) < 5 {
			continue
		}
		asked++
		for _, s := range sigs {
			f := s.Folded()
			if (strings.Contains(f.Text, folded) || strings.Contains(f.AuthorName, folded) || strings.Contains(f.AuthorHeadline, folded)) &&
				!slices.Contains(keys, s.ID) {
				t.Errorf("q=%q: candidates miss %s", q, s.ID)
			}
		}
	}
	t.Logf("%d of %d substrings looked up by their 5-grams", asked, len(qs))
	if asked == 0 {
		t.Error("no substring was looked up by its 5-grams")
	}
}
