// Package storetest is the behaviour every store implementation must have:
// one suite that the SQLite and PostgreSQL stores both run.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"signals/internal/model"
	"signals/internal/store"
)

// Opener returns a fresh, empty store for one test.
type Opener func(t *testing.T) store.Store

// Run runs the whole suite against stores made by open.
func Run(t *testing.T, open Opener) {
	t.Run("ListOrderAndPaging", func(t *testing.T) { testListOrderAndPaging(t, open(t)) })
	t.Run("Filters", func(t *testing.T) { testFilters(t, open(t)) })
	t.Run("SubstringIsLiteral", func(t *testing.T) { testSubstring(t, open(t)) })
	t.Run("SubstringCommonAndRare", func(t *testing.T) { testSubstringCommonAndRare(t, open(t)) })
	t.Run("SubstringSameTime", func(t *testing.T) { testSubstringSameTime(t, open(t)) })
	t.Run("ObservedAfterIsExact", func(t *testing.T) { testObservedAfter(t, open(t)) })
	t.Run("Visibility", func(t *testing.T) { testVisibility(t, open(t)) })
	t.Run("GetCutsText", func(t *testing.T) { testGetCutsText(t, open(t)) })
	t.Run("SignalRefs", func(t *testing.T) { testSignalRefs(t, open(t)) })
	t.Run("ImportUpsertsAndRollsBack", func(t *testing.T) { testImport(t, open(t)) })
	t.Run("AccountsAndKeys", func(t *testing.T) { testAccountsAndKeys(t, open(t)) })
	t.Run("KeyConflicts", func(t *testing.T) { testKeyConflicts(t, open(t)) })
	t.Run("TouchKeyKeepsTheLatestUse", func(t *testing.T) { testTouchKeyOrder(t, open(t)) })
	t.Run("CredentialGeneration", func(t *testing.T) { testCredentialGeneration(t, open(t)) })
	t.Run("QuotaExactUnderConcurrency", func(t *testing.T) { testQuotaExactUnderConcurrency(t, open(t)) })
	t.Run("QuotaWindows", func(t *testing.T) { testQuotaWindows(t, open(t)) })
	t.Run("ReturnRequest", func(t *testing.T) { testReturnRequest(t, open(t)) })
	t.Run("ReturnSearch", func(t *testing.T) { testReturnSearch(t, open(t)) })
	t.Run("ClaimSearch", func(t *testing.T) { testClaimSearch(t, open(t)) })
	t.Run("SignalsNeedingVectors", func(t *testing.T) { testSignalsNeedingVectors(t, open(t)) })
	t.Run("SearchSlotsAndReservations", func(t *testing.T) { testSearchSlotsAndReservations(t, open(t)) })
	t.Run("VectorsFollowText", func(t *testing.T) { testVectorsFollowText(t, open(t)) })
	t.Run("SearchCache", func(t *testing.T) { testSearchCache(t, open(t)) })
	t.Run("ErrorsNameTheOperation", func(t *testing.T) { testErrorsNameTheOperation(t, open(t)) })
	runAccountArea(t, open)
	runOAuth(t, open)
	t.Run("Hubs", func(t *testing.T) { testHubs(t, open(t)) })
	t.Run("Articles", func(t *testing.T) { testArticles(t, open(t)) })
	t.Run("PublicCountries", func(t *testing.T) { testPublicCountries(t, open(t)) })
}

var base = time.Date(2026, 10, 1, 12, 0, 0, 0, time.UTC)

// Sig returns a valid public signal; mutate it with the options.
func Sig(id string, minutes int, opts ...func(*model.Signal)) model.Signal {
	obs := model.TimeOf(base.Add(time.Duration(minutes)*time.Minute+time.Second), 3)
	s := model.Signal{
		ID: id, Tag: "funding", Source: "microblog", Language: "en", Country: "canada",
		AuthorName: "Ada Example", AuthorHeadline: "Investor", SourceURL: "https://example.org/" + id,
		Text: "Signal " + id + " about AI funding.", PublishedAt: model.TimeOf(base.Add(time.Duration(minutes)*time.Minute), 0),
		PublishedAtPrecision: "second", ObservedAt: &obs, Status: model.StatusPublic,
	}
	for _, o := range opts {
		o(&s)
	}
	return s
}

// Put imports signals in one transaction.
func Put(t testing.TB, st store.Store, signals ...model.Signal) {
	t.Helper()
	ctx := context.Background()
	tx, err := st.BeginImport(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range signals {
		if err := tx.Put(ctx, s, s.Folded()); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

func ids(list []model.Signal) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = s.ID
	}
	return out
}

func list(t *testing.T, st store.Store, q model.ListQuery) ([]string, bool) {
	t.Helper()
	if q.Page == 0 {
		q.Page = 1
	}
	if q.PageSize == 0 {
		q.PageSize = 50
	}
	got, more, err := st.ListSignals(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	return ids(got), more
}

func testListOrderAndPaging(t *testing.T, st store.Store) {
	// b and c share a publication time: id descending breaks the tie.
	Put(t, st, Sig("a", 1), Sig("b", 2), Sig("c", 2), Sig("d", 3), Sig("e", 4))
	got, more := list(t, st, model.ListQuery{Page: 1, PageSize: 2})
	if want := []string{"e", "d"}; !slices.Equal(got, want) || !more {
		t.Fatalf("page 1 = %v more=%v, want %v more=true", got, more, want)
	}
	got, more = list(t, st, model.ListQuery{Page: 2, PageSize: 2})
	if want := []string{"c", "b"}; !slices.Equal(got, want) || !more {
		t.Fatalf("page 2 = %v more=%v, want %v more=true", got, more, want)
	}
	got, more = list(t, st, model.ListQuery{Page: 3, PageSize: 2})
	if want := []string{"a"}; !slices.Equal(got, want) || more {
		t.Fatalf("page 3 = %v more=%v, want %v more=false", got, more, want)
	}
	got, _ = list(t, st, model.ListQuery{Page: 9, PageSize: 2})
	if len(got) != 0 {
		t.Fatalf("page past the end = %v, want none", got)
	}
}

func testFilters(t *testing.T, st store.Store) {
	Put(t, st,
		Sig("job-pn-en-ca", 1, func(s *model.Signal) { s.Tag, s.Source = "job", "professional_network" }),
		Sig("fund-mb-fr-fr", 2, func(s *model.Signal) { s.Language, s.Country = "fr", "france" }),
		Sig("launch-tf-en-us", 3, func(s *model.Signal) { s.Tag, s.Source, s.Country = "product_launch", "tech_forum", "united_states" }),
		Sig("job-tf-other-none", 4, func(s *model.Signal) { s.Tag, s.Source, s.Language, s.Country = "job", "tech_forum", "other", "" }),
	)
	tests := []struct {
		name string
		f    model.Filter
		want []string
	}{
		{"none", model.Filter{}, []string{"job-tf-other-none", "launch-tf-en-us", "fund-mb-fr-fr", "job-pn-en-ca"}},
		{"one tag", model.Filter{Tags: []string{"job"}}, []string{"job-tf-other-none", "job-pn-en-ca"}},
		{"tags OR", model.Filter{Tags: []string{"funding", "product_launch"}}, []string{"launch-tf-en-us", "fund-mb-fr-fr"}},
		{"sources OR", model.Filter{Sources: []string{"professional_network", "microblog"}}, []string{"fund-mb-fr-fr", "job-pn-en-ca"}},
		{"tag AND source", model.Filter{Tags: []string{"job"}, Sources: []string{"tech_forum"}}, []string{"job-tf-other-none"}},
		{"language", model.Filter{Languages: []string{"fr"}}, []string{"fund-mb-fr-fr"}},
		{"language other", model.Filter{Languages: []string{"other"}}, []string{"job-tf-other-none"}},
		{"country", model.Filter{Countries: []string{"united_states"}}, []string{"launch-tf-en-us"}},
		{"AND with no match", model.Filter{Tags: []string{"events"}, Countries: []string{"canada"}}, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := list(t, st, model.ListQuery{Filter: tt.f})
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func testSubstring(t *testing.T, st store.Store) {
	Put(t, st,
		Sig("pct", 1, func(s *model.Signal) { s.Text = "Growth of 100% in a year" }),
		Sig("underscore", 2, func(s *model.Signal) { s.Text = "the snake_case field" }),
		Sig("plain", 3, func(s *model.Signal) { s.Text = "Plain text about snakes and cases, 1000 users" }),
		Sig("strasse", 4, func(s *model.Signal) { s.Text = "Büro in der Hauptstraße eröffnet" }),
		Sig("author", 5, func(s *model.Signal) { s.AuthorName = "Zoë Quantum" }),
		Sig("headline", 6, func(s *model.Signal) { s.AuthorHeadline = "Head of Robotics at ExampleCorp" }),
		Sig("quoted", 7, func(s *model.Signal) { s.Text = `He said "hi" NEAR(a b) OR c* col:x {a b} ^x` }),
		Sig("cjk", 8, func(s *model.Signal) { s.Text = "東京で人工知能の資金調達 ÉCOLE" }),
		Sig("changes", 9, func(s *model.Signal) { s.Text = "an old sentence" }),
		Sig("hidden", 10, func(s *model.Signal) { s.Text = "Growth of 100% hidden"; s.Status = model.StatusHidden }),
		Sig("ends", 11, func(s *model.Signal) { s.Text = "a word ending in ħŧ" }),
		Sig("short author", 12, func(s *model.Signal) { s.AuthorName = "Øy"; s.AuthorHeadline = "" }),
		Sig("windows", 13, func(s *model.Signal) { s.Text = "opqrstu then abcdefg and hijklmn" }),
	)
	tests := []struct {
		q    string
		want []string
	}{
		{"100%", []string{"pct"}},
		{"%", []string{"pct"}},
		{"_", []string{"underscore"}},
		{"snake_case", []string{"underscore"}},
		{"e_c", []string{"underscore"}},
		{"*", []string{"quoted"}},
		{"HAUPTSTRASSE", []string{"strasse"}},
		{"zoë quantum", []string{"author"}},
		{"ZOË", []string{"author"}},
		{"robotics at examplecorp", []string{"headline"}},
		{"1000 USERS", []string{"plain"}},
		// One and two characters: shorter than a trigram.
		{"0%", []string{"pct"}},
		{"%_", []string{}},
		{"ß", []string{"strasse"}},
		{"ss", []string{"strasse"}},
		{"é", []string{"cjk"}},
		{"京", []string{"cjk"}},
		{"z", []string{"author"}},
		// LIKE's and the full-text syntax's characters are literal.
		{"0% i", []string{"pct"}},
		{"e_c", []string{"underscore"}},
		{"%%%", []string{}},
		{"___", []string{}},
		{`"hi"`, []string{"quoted"}},
		{`said "`, []string{"quoted"}},
		{"near(a b) or c*", []string{"quoted"}},
		{"col:x {a", []string{"quoted"}},
		{"hi OR said", []string{}},
		{`\`, []string{}},
		{`e\_c`, []string{}},
		// Words joined otherwise than in the text.
		{"snake case", []string{}},
		{"snake-case", []string{}},
		{"1000,users", []string{}},
		// Two characters the text holds, but not side by side.
		{"üo", []string{}},
		// Non-ASCII, folded.
		{"büro", []string{"strasse"}},
		{"STRAẞE", []string{"strasse"}},
		{"人工知能", []string{"cjk"}},
		{"で人工", []string{"cjk"}},
		{"école", []string{"cjk"}},
		{"old sentence", []string{"changes"}},
		{"new sentence", []string{}},
		// Across the end of one field and the start of another.
		{"investorsignal", []string{}},
		// One and two characters at the very end of a field, and a whole
		// field of two characters.
		{"ħŧ", []string{"ends"}},
		{"ŧ", []string{"ends"}},
		{"øy", []string{"short author"}},
		{"ø", []string{"short author"}},
		// Longer than a phrase: each of its start, middle and end occurs,
		// but not the whole.
		{"abcdefg hijklmn opqrstu", []string{}},
		{"then abcdefg and hijk", []string{"windows"}},
		// The character the index puts after each field is not in it.
		{"funding.\uE000", []string{}},
		{"\uE000", []string{}},
	}
	check := func(t *testing.T, tests []struct {
		q    string
		want []string
	}) {
		t.Helper()
		for _, tt := range tests {
			t.Run(tt.q, func(t *testing.T) {
				got, _ := list(t, st, model.ListQuery{Q: tt.q})
				if !slices.Equal(got, tt.want) {
					t.Errorf("q=%q: got %v, want %v", tt.q, got, tt.want)
				}
			})
		}
	}
	// The same answers before the substring index has seen the signals, after,
	// and after a text changes.
	t.Run("before indexing", func(t *testing.T) { check(t, tests) })
	indexer, indexes := st.(SubstringIndexer)
	if !indexes {
		return
	}
	index := func(t *testing.T) {
		t.Helper()
		if _, err := indexer.IndexSubstrings(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	index(t)
	t.Run("indexed", func(t *testing.T) { check(t, tests) })
	Put(t, st, Sig("changes", 9, func(s *model.Signal) { s.Text = "a new sentence" }))
	changed := slices.Clone(tests)
	for i := range changed {
		switch changed[i].q {
		case "old sentence":
			changed[i].want = []string{}
		case "new sentence":
			changed[i].want = []string{"changes"}
		}
	}
	t.Run("changed, not indexed", func(t *testing.T) { check(t, changed) })
	index(t)
	t.Run("changed, indexed", func(t *testing.T) { check(t, changed) })
}

// SubstringIndexer is a store whose substring index is filled after imports.
type SubstringIndexer interface {
	// IndexSubstrings indexes the signals changed since it last ran and
	// returns how many publication times it indexed.
	IndexSubstrings(ctx context.Context) (int, error)
}

// A substring found in many signals is listed in the same order and pages
// whether the index names few candidates or too many to check one by one.
func testSubstringCommonAndRare(t *testing.T, st store.Store) {
	var sigs []model.Signal
	for i := range 1600 {
		sigs = append(sigs, Sig(fmt.Sprintf("s%04d", i), i, func(s *model.Signal) {
			s.Text = fmt.Sprintf("common words, number %d", i)
			if i%100 == 7 {
				s.Text += " and a rare one"
			}
			if i%2 == 0 {
				s.Tag = "job"
			}
		}))
	}
	Put(t, st, sigs...)
	if indexer, ok := st.(SubstringIndexer); ok {
		if _, err := indexer.IndexSubstrings(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct {
		q     model.ListQuery
		first string
		n     int
		more  bool
	}{
		{model.ListQuery{Q: "COMMON words", Page: 1, PageSize: 20}, "s1599", 20, true},
		{model.ListQuery{Q: "common", Page: 80, PageSize: 20}, "s0019", 20, false},
		{model.ListQuery{Q: "rare one", Page: 1, PageSize: 20}, "s1507", 16, false},
		{model.ListQuery{Q: "rare one", Page: 2, PageSize: 10}, "s0507", 6, false},
		{model.ListQuery{Q: "rare one", Page: 1, PageSize: 5, Filter: model.Filter{Tags: []string{"funding"}}}, "s1507", 5, true},
		{model.ListQuery{Q: "number 1", Page: 1, PageSize: 50}, "s1599", 50, true},
		// Many candidates, another filter, a later page.
		{model.ListQuery{Q: "common", Page: 2, PageSize: 10, Filter: model.Filter{Tags: []string{"job"}}}, "s1578", 10, true},
		// One character that begins many different trigrams.
		{model.ListQuery{Q: "1", Page: 1, PageSize: 20}, "s1599", 20, true},
		{model.ListQuery{Q: "1", Page: 30, PageSize: 20}, "s1019", 20, true},
	} {
		got, more, err := st.ListSignals(context.Background(), tt.q)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != tt.n || more != tt.more || got[0].ID != tt.first {
			t.Errorf("%+v: %d signals from %s, more %v; want %d from %s, more %v", tt.q, len(got), ids(got)[0], more, tt.n, tt.first, tt.more)
		}
	}
}

func testObservedAfter(t *testing.T, st store.Store) {
	at := func(ns int64, digits int) func(*model.Signal) {
		return func(s *model.Signal) { s.ObservedAt = &model.Time{NS: ns, Digits: digits} }
	}
	t0 := base.UnixNano()
	Put(t, st,
		Sig("n0", 1, at(t0, 0)),
		Sig("n1", 2, at(t0+1, 9)),
		Sig("n2", 3, at(t0+1000, 6)),
		Sig("null", 4, func(s *model.Signal) { s.ObservedAt = nil }),
	)
	tests := []struct {
		name  string
		after int64
		want  []string
	}{
		{"strictly later", t0, []string{"n2", "n1"}},
		{"nanosecond exact", t0 + 1, []string{"n2"}},
		{"before all", t0 - 1, []string{"n2", "n1", "n0"}},
		{"after all", t0 + 1000, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := list(t, st, model.ListQuery{Filter: model.Filter{ObservedAfter: &model.Time{NS: tt.after}}})
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
	s, err := st.GetSignal(context.Background(), "n1")
	if err != nil {
		t.Fatal(err)
	}
	if got := s.ObservedAt.String(); got != "2026-10-01T12:00:00.000000001Z" {
		t.Errorf("observed_at read back as %s", got)
	}
	if s, _ := st.GetSignal(context.Background(), "null"); s.ObservedAt != nil {
		t.Errorf("null observed_at read back as %v", s.ObservedAt)
	}
}

func testVisibility(t *testing.T, st store.Store) {
	Put(t, st,
		Sig("public", 1),
		Sig("hidden", 2, func(s *model.Signal) { s.Status = model.StatusHidden }),
		Sig("pending", 3, func(s *model.Signal) { s.Status = model.StatusPending }),
		Sig("market", 4, func(s *model.Signal) { s.MarketOnly = true }),
	)
	ctx := context.Background()
	if got, _ := list(t, st, model.ListQuery{}); !slices.Equal(got, []string{"public"}) {
		t.Errorf("list = %v, want only public", got)
	}
	for _, id := range []string{"hidden", "pending", "market", "missing"} {
		if _, err := st.GetSignal(ctx, id); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("GetSignal(%s) error = %v, want ErrNotFound", id, err)
		}
	}
	if err := st.SetStatus(ctx, "hidden", model.StatusPublic, nil); err != nil {
		t.Fatal(err)
	}
	mo := true
	if err := st.SetStatus(ctx, "public", model.StatusPublic, &mo); err != nil {
		t.Fatal(err)
	}
	if got, _ := list(t, st, model.ListQuery{}); !slices.Equal(got, []string{"hidden"}) {
		t.Errorf("after set-status list = %v, want [hidden]", got)
	}
	if err := st.SetStatus(ctx, "missing", model.StatusPublic, nil); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("SetStatus(missing) = %v, want ErrNotFound", err)
	}
	if n, err := st.CountSignals(ctx); err != nil || n != 4 {
		t.Errorf("CountSignals = %d, %v; want 4", n, err)
	}
}

// testSignalRefs: the newest public signals in listing order, each with its
// collection time, or its publication time when it has none.
func testSignalRefs(t *testing.T, st store.Store) {
	Put(t, st,
		Sig("old", 1),
		Sig("unobserved", 2, func(s *model.Signal) { s.ObservedAt = nil }),
		Sig("hidden", 3, func(s *model.Signal) { s.Status = model.StatusHidden }),
		Sig("market", 4, func(s *model.Signal) { s.MarketOnly = true }),
		Sig("new", 5),
	)
	refs, err := st.SignalRefs(context.Background(), 2)
	if err != nil {
		t.Fatal(err)
	}
	want := []store.SignalRef{
		{ID: "new", Changed: Sig("new", 5).ObservedAt.Time()},
		{ID: "unobserved", Changed: Sig("unobserved", 2).PublishedAt.Time()},
	}
	if len(refs) != len(want) {
		t.Fatalf("SignalRefs = %v, want %v", refs, want)
	}
	for i := range want {
		if refs[i].ID != want[i].ID || !refs[i].Changed.Equal(want[i].Changed) {
			t.Errorf("SignalRefs[%d] = %v, want %v", i, refs[i], want[i])
		}
	}
}

func testGetCutsText(t *testing.T, st store.Store) {
	long := strings.Repeat("é", model.MaxTextChars) + "👋 tail"
	odd := "a/b:c?d#e%f+g h ü 中"
	Put(t, st, Sig("long", 1, func(s *model.Signal) { s.Text = long }), Sig(odd, 2))
	ctx := context.Background()
	s, err := st.GetSignal(ctx, "long")
	if err != nil {
		t.Fatal(err)
	}
	if s.TextChars != model.MaxTextChars+6 || !s.TextTruncated() {
		t.Errorf("text_chars = %d truncated=%v", s.TextChars, s.TextTruncated())
	}
	if model.Chars(s.Text) != model.MaxTextChars || s.Text != strings.Repeat("é", model.MaxTextChars) {
		t.Errorf("text cut to %d code points", model.Chars(s.Text))
	}
	listed, _, err := st.ListSignals(ctx, model.ListQuery{Page: 1, PageSize: 5})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range listed {
		if model.Chars(l.Text) > model.ListSnippetChars {
			t.Errorf("list text of %s has %d code points", l.ID, model.Chars(l.Text))
		}
	}
	if _, err := st.GetSignal(ctx, odd); err != nil {
		t.Errorf("GetSignal(%q) = %v", odd, err)
	}
}

func testImport(t *testing.T, st store.Store) {
	ctx := context.Background()
	g0, err := st.Generation(ctx)
	if err != nil {
		t.Fatal(err)
	}
	Put(t, st, Sig("x", 1))
	g1, _ := st.Generation(ctx)
	if g1 <= g0 {
		t.Errorf("generation %d after an import, was %d; want it to grow", g1, g0)
	}
	Put(t, st, Sig("x", 1, func(s *model.Signal) { s.Text = "replaced text" }))
	s, err := st.GetSignal(ctx, "x")
	if err != nil || s.Text != "replaced text" {
		t.Fatalf("upsert: got %q, %v", s.Text, err)
	}
	tx, err := st.BeginImport(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		s := Sig(fmt.Sprint("r", i), i)
		if err := tx.Put(ctx, s, s.Folded()); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if n, _ := st.CountSignals(ctx); n != 1 {
		t.Errorf("after rollback %d signals, want 1", n)
	}
	g2, _ := st.Generation(ctx)
	if err := st.SetStatus(ctx, "x", model.StatusHidden, nil); err != nil {
		t.Fatal(err)
	}
	g3, _ := st.Generation(ctx)
	if g3 <= g2 {
		t.Errorf("generation %d after a status change, was %d; want it to grow", g3, g2)
	}
	if err := st.SetStatus(ctx, "missing", model.StatusHidden, nil); err == nil {
		t.Error("status of a missing signal changed")
	}
	if g4, _ := st.Generation(ctx); g4 != g3 {
		t.Errorf("generation moved from %d to %d without a change", g3, g4)
	}
}

func testAccountsAndKeys(t *testing.T, st store.Store) {
	ctx := context.Background()
	now := base
	a, err := st.CreateAccount(ctx, "Ada@Example.com", now)
	if err != nil {
		t.Fatal(err)
	}
	if a.Limits != model.InitialLimits || a.Email != "ada@example.com" {
		t.Errorf("new account = %+v", a)
	}
	if _, err := st.CreateAccount(ctx, "ada@example.com", now); !errors.Is(err, store.ErrExists) {
		t.Errorf("duplicate email: %v, want ErrExists", err)
	}
	got, err := st.AccountByEmail(ctx, "ADA@example.com")
	if err != nil || got.ID != a.ID {
		t.Fatalf("AccountByEmail = %+v, %v", got, err)
	}
	l := model.Limits{DailyRequests: 5, MinuteRequests: 2, DailySearches: 1, ConcurrentSearches: 3}
	if err := st.SetLimits(ctx, a.ID, l); err != nil {
		t.Fatal(err)
	}
	if got, _ := st.Account(ctx, a.ID); got.Limits != l {
		t.Errorf("limits = %+v, want %+v", got.Limits, l)
	}
	hash := []byte("0123456789abcdef0123456789abcdef")
	k := model.APIKey{ID: "key_1", AccountID: a.ID, Name: "laptop", Hint: "sig_abc…", CreatedAt: now}
	if err := st.CreateKey(ctx, k, hash); err != nil {
		t.Fatal(err)
	}
	key, stored, acct, err := st.KeyByHash(ctx, hash)
	if err != nil || key.ID != "key_1" || acct.ID != a.ID || string(stored) != string(hash) || acct.Limits != l {
		t.Fatalf("KeyByHash = %+v %+v, %v", key, acct, err)
	}
	if err := st.TouchKey(ctx, "key_1", now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	keys, err := st.Keys(ctx, a.ID)
	if err != nil || len(keys) != 1 || keys[0].LastUsed == nil || !keys[0].LastUsed.Equal(now.Add(time.Hour)) {
		t.Fatalf("Keys = %+v, %v", keys, err)
	}
	if err := st.RenameKey(ctx, a.ID, "key_1", "work laptop"); err != nil {
		t.Fatal(err)
	}
	if key, _, _, err := st.KeyByHash(ctx, hash); err != nil || key.Name != "work laptop" {
		t.Errorf("renamed key = %+v, %v", key, err)
	}
	if err := st.RenameKey(ctx, a.ID+1000, "key_1", "stolen"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("rename by another account = %v, want ErrNotFound", err)
	}
	if err := st.RenameKey(ctx, a.ID, "key_none", "x"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("rename of an unknown key = %v, want ErrNotFound", err)
	}
	revokedAt := now.Add(2 * time.Hour)
	if err := st.RevokeKey(ctx, "key_1", revokedAt); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := st.KeyByHash(ctx, hash); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("revoked key still found: %v", err)
	}
	if err := st.RevokeKey(ctx, "key_1", now); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("second revoke = %v, want ErrNotFound", err)
	}
	if err := st.RenameKey(ctx, a.ID, "key_1", "again"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("rename of a revoked key = %v, want ErrNotFound", err)
	}
	// A revoked key stays listed, marked with its revocation.
	keys, err = st.Keys(ctx, a.ID)
	if err != nil || len(keys) != 1 || keys[0].Name != "work laptop" || keys[0].RevokedAt == nil || !keys[0].RevokedAt.Equal(revokedAt) {
		t.Errorf("Keys after revoking = %+v, %v", keys, err)
	}
}

func testKeyConflicts(t *testing.T, st store.Store) {
	ctx := context.Background()
	a := newAccount(t, st, "keys@example.com")
	k := model.APIKey{ID: "key_1", AccountID: a.ID, Name: "laptop", Hint: "sig_abc…", CreatedAt: base}
	if err := st.CreateKey(ctx, k, []byte("hash-1")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		key  model.APIKey
		hash string
		want error
	}{
		{"id taken", model.APIKey{ID: "key_1", AccountID: a.ID, CreatedAt: base}, "hash-2", store.ErrExists},
		{"hash taken", model.APIKey{ID: "key_2", AccountID: a.ID, CreatedAt: base}, "hash-1", store.ErrExists},
		{"no such account", model.APIKey{ID: "key_3", AccountID: a.ID + 1000, CreatedAt: base}, "hash-3", store.ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := st.CreateKey(ctx, tt.key, []byte(tt.hash)); !errors.Is(err, tt.want) {
				t.Errorf("CreateKey = %v, want %v", err, tt.want)
			}
		})
	}
	if keys, err := st.Keys(ctx, a.ID); err != nil || len(keys) != 1 {
		t.Errorf("Keys = %+v, %v; want the first key alone", keys, err)
	}
}

// Uses may be reported out of order (by several processes): the latest
// one stays.
func testTouchKeyOrder(t *testing.T, st store.Store) {
	ctx := context.Background()
	a := newAccount(t, st, "touch@example.com")
	if err := st.CreateKey(ctx, model.APIKey{ID: "key_t", AccountID: a.ID, CreatedAt: base}, []byte("hash-t")); err != nil {
		t.Fatal(err)
	}
	for _, at := range []time.Time{base.Add(2 * time.Hour), base.Add(time.Hour)} {
		if err := st.TouchKey(ctx, "key_t", at); err != nil {
			t.Fatal(err)
		}
	}
	keys, err := st.Keys(ctx, a.ID)
	if err != nil || len(keys) != 1 || keys[0].LastUsed == nil || !keys[0].LastUsed.Equal(base.Add(2*time.Hour)) {
		t.Errorf("Keys = %+v, %v; want last used at the later time", keys, err)
	}
}

// The credentials' generation moves whenever what a key authenticates as
// may have changed, and not when a key's use is recorded; the signals'
// generation read with it is Generation's.
func testCredentialGeneration(t *testing.T, st store.Store) {
	ctx := context.Background()
	a := newAccount(t, st, "gen@example.com")
	if err := st.CreateKey(ctx, model.APIKey{ID: "key_g", AccountID: a.ID, CreatedAt: base}, []byte("hash-g")); err != nil {
		t.Fatal(err)
	}
	Put(t, st, Sig("g1", 1))
	read := func() (int64, int64) {
		t.Helper()
		signals, credentials, err := st.Generations(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if g, err := st.Generation(ctx); err != nil || g != signals {
			t.Fatalf("Generations read signals %d, Generation %d (%v)", signals, g, err)
		}
		return signals, credentials
	}
	steps := []struct {
		name  string
		moves bool
		do    func() error
	}{
		{"touch key", false, func() error { return st.TouchKey(ctx, "key_g", base.Add(time.Hour)) }},
		{"import", false, func() error { Put(t, st, Sig("g2", 2)); return nil }},
		{"set limits", true, func() error {
			return st.SetLimits(ctx, a.ID, model.Limits{DailyRequests: 9, MinuteRequests: 3, DailySearches: 1, ConcurrentSearches: 1})
		}},
		{"rename key", false, func() error { return st.RenameKey(ctx, a.ID, "key_g", "renamed") }},
		{"revoke key", true, func() error { return st.RevokeKey(ctx, "key_g", base.Add(2*time.Hour)) }},
		{"delete account", true, func() error { return st.DeleteAccount(ctx, a.ID) }},
	}
	for _, step := range steps {
		_, before := read()
		if err := step.do(); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		if _, after := read(); (after != before) != step.moves {
			t.Errorf("%s: credentials' generation %d → %d, want moved=%v", step.name, before, after, step.moves)
		}
	}
}

// Every failure says which operation failed, and stays matchable.
func testErrorsNameTheOperation(t *testing.T, st store.Store) {
	ctx := context.Background()
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	now := base
	calls := []struct {
		op   string
		call func() error
	}{
		{"ping", func() error { return st.Ping(ctx) }},
		{"list signals", func() error { _, _, err := st.ListSignals(ctx, model.ListQuery{Page: 1, PageSize: 5}); return err }},
		{"get signal", func() error { _, err := st.GetSignal(ctx, "a"); return err }},
		{"count signals", func() error { _, err := st.CountSignals(ctx); return err }},
		{"read generation", func() error { _, err := st.Generation(ctx); return err }},
		{"read generations", func() error { _, _, err := st.Generations(ctx); return err }},
		{"begin import", func() error { _, err := st.BeginImport(ctx); return err }},
		{"set status", func() error { return st.SetStatus(ctx, "a", model.StatusHidden, nil) }},
		{"create account", func() error { _, err := st.CreateAccount(ctx, "e@example.com", now); return err }},
		{"account by email", func() error { _, err := st.AccountByEmail(ctx, "e@example.com"); return err }},
		{"account", func() error { _, err := st.Account(ctx, 1); return err }},
		{"set limits", func() error { return st.SetLimits(ctx, 1, model.InitialLimits) }},
		{"create key", func() error { return st.CreateKey(ctx, model.APIKey{ID: "k", AccountID: 1}, []byte("h")) }},
		{"list keys", func() error { _, err := st.Keys(ctx, 1); return err }},
		{"revoke key", func() error { return st.RevokeKey(ctx, "k", now) }},
		{"rename key", func() error { return st.RenameKey(ctx, 1, "k", "n") }},
		{"key by hash", func() error { _, _, _, err := st.KeyByHash(ctx, []byte("h")); return err }},
		{"touch key", func() error { return st.TouchKey(ctx, "k", now) }},
		{"take request", func() error { _, err := st.TakeRequest(ctx, 1, model.InitialLimits, now); return err }},
		{"read usage", func() error { _, err := st.Usage(ctx, 1, now); return err }},
		{"reserve search", func() error { _, err := st.ReserveSearch(ctx, 1, 10, now); return err }},
		{"search candidates", func() error { _, err := st.Candidates(ctx, model.Filter{}, "m", 10, 10); return err }},
		{"signals by id", func() error { _, err := st.SignalsByID(ctx, []string{"a"}, 10); return err }},
		{"signals needing vectors", func() error { _, err := st.SignalsNeedingVectors(ctx, "m", 10, 10, nil); return err }},
		{"put vectors", func() error { return st.PutVectors(ctx, "m", map[string][]float32{"a": {1}}) }},
		{"cached search", func() error { _, _, err := st.CachedSearch(ctx, "k", now); return err }},
		{"put cached search", func() error { return st.PutCachedSearch(ctx, "k", store.CachedSearch{ExpiresAt: now}) }},
	}
	for _, c := range calls {
		t.Run(c.op, func(t *testing.T) {
			err := c.call()
			if want := "store: " + c.op + ": "; err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("on a closed store: %v; want an error starting %q", err, want)
			}
		})
	}
}
