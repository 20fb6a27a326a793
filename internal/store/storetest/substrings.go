package storetest

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"testing"
	"testing/fstest"
	"time"

	"signals/internal/demo"
	"signals/internal/model"
	"signals/internal/store"
	"signals/internal/store/sqlstore"
)

// testSubstringSameTime lists, page by page, signals published at the same
// time, which the index holds as one document: each page is the next in
// the listing order (id descending), before indexing and after.
func testSubstringSameTime(t *testing.T, st store.Store) {
	var sigs []model.Signal
	var want []string
	for i := range 40 {
		id := fmt.Sprintf("t%02d", i)
		minutes := 5
		if i%4 == 0 {
			minutes = 10 + i // a few later ones between
		}
		sigs = append(sigs, Sig(id, minutes, func(s *model.Signal) {
			s.Text = "shared words " + id
			if i%3 == 0 {
				s.Tag = "job"
			}
		}))
	}
	Put(t, st, sigs...)
	for _, s := range sigs {
		want = append(want, s.ID)
	}
	slices.SortFunc(want, func(a, b string) int {
		return byListing(sigs, a, b)
	})
	check := func(t *testing.T) {
		for _, size := range []int{3, 7, 40} {
			var got []string
			for page := 1; ; page++ {
				ids, more := list(t, st, model.ListQuery{Q: "Shared Words", Page: page, PageSize: size})
				got = append(got, ids...)
				if !more {
					break
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("pages of %d list %v, want %v", size, got, want)
			}
		}
	}
	t.Run("before indexing", check)
	if indexer, ok := st.(SubstringIndexer); ok {
		if _, err := indexer.IndexSubstrings(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("indexed", check)
}

// byListing compares two ids of sigs in the listing order.
func byListing(sigs []model.Signal, a, b string) int {
	var x, y model.Signal
	for _, s := range sigs {
		switch s.ID {
		case a:
			x = s
		case b:
			y = s
		}
	}
	if x.PublishedAt.NS != y.PublishedAt.NS {
		if x.PublishedAt.NS > y.PublishedAt.NS {
			return -1
		}
		return 1
	}
	if x.ID > y.ID {
		return -1
	}
	return 1
}

// Upgrade checks that a store opened on a database of an earlier schema
// (before opens one, after opens it again with the current migrations)
// lists by substring the signals it held, before its substring index has
// read them and after.
func Upgrade(t *testing.T, before, after func(t *testing.T) store.Store) {
	st := before(t)
	Put(t, st,
		Sig("old", 1, func(s *model.Signal) { s.Text = "an old sentence about warehouse robots" }),
		Sig("older", 0, func(s *model.Signal) { s.Text = "the first sentence, ħŧ" }),
	)
	if err := st.(io.Closer).Close(); err != nil {
		t.Fatal(err)
	}
	st = after(t)
	Put(t, st, Sig("new", 2, func(s *model.Signal) { s.Text = "a new sentence" }))
	check := func(t *testing.T) {
		for _, tt := range []struct {
			q    string
			want []string
		}{
			{"sentence", []string{"new", "old", "older"}},
			{"WAREHOUSE robots", []string{"old"}},
			{"ŧ", []string{"older"}},
			{"new", []string{"new"}},
		} {
			got, _ := list(t, st, model.ListQuery{Q: tt.q, PageSize: 10})
			if !slices.Equal(got, tt.want) {
				t.Errorf("q=%q lists %v, want %v", tt.q, got, tt.want)
			}
		}
	}
	t.Run("before indexing", check)
	indexer, ok := st.(SubstringIndexer)
	if !ok {
		t.Fatal("the store has no substring index")
	}
	// The signal put after the upgrade at least is pending.
	if n, err := indexer.IndexSubstrings(context.Background()); err != nil || n == 0 {
		t.Fatalf("indexed %d times (%v)", n, err)
	}
	t.Run("indexed", check)
}

// RareSubstringCost fails when a rare substring costs more than ten times
// a plain list over the given number of synthetic signals, imported at once
// and then indexed, as a substring no index narrows down does: a ratio of
// medians on the same machine, not a time. Nothing runs in between (no
// ANALYZE by hand), so the store must leave its planner ready by itself.
// A scan of 20,000 signals costs 60 times a plain list and more, a probe
// 1 to 3 times on a quiet machine; beside heavy load the probe's few round
// trips weigh more than the list's one, which the CI step avoids by
// running alone.
func RareSubstringCost(t *testing.T, st store.Store, signals int) {
	const runs, ratio = 21, 10
	if raceEnabled {
		t.Skip("the race detector's cost says nothing of the index's")
	}
	Put(t, st, slices.Collect(demo.Synthetic(signals, 1))...)
	if indexer, ok := st.(SubstringIndexer); ok {
		if _, err := indexer.IndexSubstrings(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	took := func(q string) time.Duration {
		start := time.Now()
		if _, _, err := st.ListSignals(context.Background(), model.ListQuery{Q: q, Page: 1, PageSize: 20}); err != nil {
			t.Fatal(err)
		}
		return time.Since(start)
	}
	for _, q := range []string{
		"zqxjv",                       // random letters
		"quantum warehouse subsidies", // common words in an order no text has
		"ʬ", "aʬ", "☃§",               // one or two characters no text has
		"§§§", // no letter or digit
	} {
		// In turn with a plain list, so that the machine's load weighs on
		// both alike.
		var plain, rare []time.Duration
		for range runs {
			plain = append(plain, took(""))
			rare = append(rare, took(q))
		}
		slices.Sort(plain)
		slices.Sort(rare)
		p, d := plain[runs/2], rare[runs/2]
		if d > ratio*p {
			t.Errorf("q=%q takes %v, %.0f times a plain list (%v): more than %d", q, d, float64(d)/float64(p), p, ratio)
		} else {
			t.Logf("q=%q takes %v, %.1f times a plain list (%v)", q, d, float64(d)/float64(p), p)
		}
	}
}

// EarlierSchema returns the migrations of an earlier schema, in a folder
// "migrations": the current ones in current's "migrations" but those named
// in newer, each renumbered one under the version it had then, and the
// migrations removed since, the *.sql files of removed.
func EarlierSchema(t testing.TB, current, removed fs.FS, newer ...string) fs.FS {
	ms, err := sqlstore.Migrations(current, "migrations")
	if err != nil {
		t.Fatal(err)
	}
	out := fstest.MapFS{}
	for _, m := range ms {
		if slices.Contains(newer, m.Version) {
			continue
		}
		version := m.Version
		if len(m.Was) > 0 {
			version = m.Was[0]
		}
		out["migrations/"+version+".sql"] = &fstest.MapFile{Data: []byte(m.SQL)}
	}
	names, err := fs.Glob(removed, "*.sql")
	if err != nil || len(names) == 0 {
		t.Fatalf("no removed migrations (%v)", err)
	}
	for _, name := range names {
		data, err := fs.ReadFile(removed, name)
		if err != nil {
			t.Fatal(err)
		}
		out["migrations/"+name] = &fstest.MapFile{Data: data}
	}
	return out
}
