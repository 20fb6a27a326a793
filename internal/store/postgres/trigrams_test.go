package postgres

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"signals/internal/model"
	"signals/internal/store/postgres/pgtest"
	"signals/internal/store/sqlstore"
	"signals/internal/store/storetest"
)

// The stretches a cover names hold exactly the finest stretches from its
// first to its last: a signal published in one of them holds one of the
// cover's keys, and one published outside holds none.
func TestStretchCover(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	ranges := [][2]int64{{0, 0}, {0, 15}, {1, 16}, {15, 16}, {-1, 0}, {-300, 5000}, {255, 256}, {4095, 4097}}
	for range 200 {
		from := rng.Int64N(20000) - 10000
		ranges = append(ranges, [2]int64{from, from + rng.Int64N(9000)})
	}
	for _, r := range ranges {
		cover := stretchCover(r[0], r[1])
		if len(cover) > 2*(1<<stretchBits)*levels {
			t.Errorf("cover of %v: %d keys", r, len(cover))
		}
		for n := r[0] - 40; n <= r[1]+40; n++ {
			holds := slices.ContainsFunc(gramKeys("", n<<stretchShift), func(k int32) bool { return slices.Contains(cover, k) })
			if in := n >= r[0] && n <= r[1]; holds != in {
				t.Fatalf("cover of %v: stretch %d covered %v, want %v", r, n, holds, in)
			}
		}
	}
}

// A signal holding a substring holds every key the substring is looked up
// by.
func TestSubstringKeysAreHeld(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	alphabet := []rune("ab é東\n%_")
	for range 300 {
		text := make([]rune, rng.IntN(40))
		for i := range text {
			text[i] = alphabet[rng.IntN(len(alphabet))]
		}
		keys := gramKeys(string(text), rng.Int64())
		for i := range text {
			for j := i + 1; j <= len(text); j++ {
				for _, k := range substringKeys(string(text[i:j])) {
					if _, found := slices.BinarySearch(keys, k); !found {
						t.Fatalf("%q holds %q but not its key %d", string(text), string(text[i:j]), k)
					}
				}
			}
		}
	}
}

// Listings by substring are exact, page after page: words of a small
// vocabulary in either order, across fields, over signals spread over
// months (some published at the same instant, some hidden), with the
// index's sample and without, before and after the signals are indexed.
// With the sample, common substrings are looked up a part at a time.
func TestSubstringParts(t *testing.T) {
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
	for i := range 400 {
		// Ten hours apart, about two to a stretch, and every seventh at
		// the time of the one before.
		minutes := 600 * (i - i%7/6)
		sigs = append(sigs, storetest.Sig(fmt.Sprintf("s%03d", i), minutes, func(s *model.Signal) {
			s.Text = phrase(1 + rng.IntN(12))
			s.AuthorName = phrase(1 + rng.IntN(2))
			s.AuthorHeadline = phrase(rng.IntN(3))
			if i%9 == 0 {
				s.Status = model.StatusHidden
			}
		}))
	}
	storetest.Put(t, db, sigs...)
	// The listing order, newest first.
	slices.SortStableFunc(sigs, func(a, b model.Signal) int {
		return cmp.Or(cmp.Compare(b.PublishedAt.NS, a.PublishedAt.NS), cmp.Compare(b.ID, a.ID))
	})
	var qs []string
	for range 40 {
		qs = append(qs, phrase(1), phrase(2), phrase(3))
	}
	qs = append(qs, "the own", "hype of", "that ones", "and tests,", "e ow", "s, the", "东京 zoë", "zoë\nthe", "e", "h", "東", "%", "t ", "qq")
	check := func(t *testing.T) {
		for _, q := range qs {
			folded := model.Fold(q)
			var want []string
			for _, s := range sigs {
				f := s.Folded()
				if s.Public() && (strings.Contains(f.Text, folded) || strings.Contains(f.AuthorName, folded) || strings.Contains(f.AuthorHeadline, folded)) {
					want = append(want, s.ID)
				}
			}
			for _, lq := range []model.ListQuery{{Page: 1, PageSize: 100}, {Page: 1, PageSize: 7}, {Page: 3, PageSize: 7}, {Page: 9, PageSize: 20}} {
				lq.Q = q
				got, more, err := db.ListSignals(ctx, lq)
				if err != nil {
					t.Fatal(err)
				}
				ids := []string{}
				for _, s := range got {
					ids = append(ids, s.ID)
				}
				page := want[min(len(want), lq.Offset()):min(len(want), lq.Offset()+lq.PageSize)]
				if wantMore := len(want) > lq.Offset()+lq.PageSize; !slices.Equal(ids, page) && !(len(ids) == 0 && len(page) == 0) || more != wantMore {
					t.Errorf("q=%q page %d of %d: got %v (more %v), want %v (more %v)", q, lq.Page, lq.PageSize, ids, more, page, wantMore)
				}
			}
		}
	}
	t.Run("not indexed", check)
	if _, err := db.IndexTrigrams(ctx); err != nil {
		t.Fatal(err)
	}
	t.Run("indexed", check)
	// A common substring is looked up a part at a time, each part naming
	// every candidate within it, after a walk of the newest signals when
	// the sample tells that walking costs less.
	lookUp := func(t *testing.T) (parts, walks, named int) {
		for _, q := range qs {
			folded := model.Fold(q)
			var after *sqlstore.Bound
			part := sqlstore.Part{Want: 21}
			for round := 0; ; round++ {
				part.After, part.Round = after, round
				if part.Rest != nil {
					named++ // handed out of what the index named before
				}
				keys, until, ok, err := db.trigramCandidates(ctx, db.sql, folded, &part, 1500)
				// A walk (not ok) may end with the listing.
				if err != nil || !ok && round > 0 {
					t.Fatalf("q=%q part %d: candidates %v, %v", q, round, ok, err)
				}
				for _, s := range sigs {
					if !ok {
						walks++
						break
					}
					f := s.Folded()
					at := sqlstore.Bound{PublishedNS: s.PublishedAt.NS, ID: s.ID}
					in := (after == nil || after.Before(at)) && (until == nil || !until.Before(at))
					if in && (strings.Contains(f.Text, folded) || strings.Contains(f.AuthorName, folded) || strings.Contains(f.AuthorHeadline, folded)) &&
						!slices.Contains(keys, s.ID) {
						t.Errorf("q=%q part %d: candidates miss %s", q, round, s.ID)
					}
				}
				if until == nil {
					break
				}
				parts++
				after = until
			}
		}
		return parts, walks, named
	}
	if parts, _, named := lookUp(t); parts == 0 || named == 0 {
		t.Errorf("%d parts looked up, %d parts named before: want both", parts, named)
	}
	// A sample that tells of a large table, where reading every candidate
	// costs more than walking the newest signals for the commonest
	// substrings, and than asking for stretches of time for the others.
	large := *db.sample.Load()
	large.rows *= 1000
	db.sample.Store(&large)
	t.Run("indexed, sampled as large", check)
	if parts, walks, _ := lookUp(t); parts == 0 || walks == 0 {
		t.Errorf("%d parts looked up, %d walks: want both", parts, walks)
	}
	db.sample.Store(nil)
	t.Run("indexed, no sample", check)
}
