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
	runDesk(t, open)
	t.Run("Hubs", func(t *testing.T) { testHubs(t, open(t)) })
	t.Run("Articles", func(t *testing.T) { testArticles(t, open(t)) })
	t.Run("PublicCountries", func(t *testing.T) { testPublicCountries(t, open(t)) })
}

var base = time.Date(2026, 10, 1, 12, 0, 0, 0, time.UTC)

// Sig returns a valid signal with id, published minutes after 1 October
// 2026 12:00 UTC (to the second) and observed a second later (to the
// millisecond). Unless an option says otherwise it is a public funding
// signal from a microblog, in English, about Canada, by "Ada Example"
// (headline "Investor"), linking https://example.org/<id>, whose text is
// "Signal <id> about AI funding."; a test that relies on one of these
// fields should set it in an option, where its reader sees it.
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
	PutMode(t, st, "", signals...)
}

// PutMode imports signals in one transaction in an import mode, and
// returns the ids it wrote (store.ImportTx.Written).
func PutMode(t testing.TB, st store.Store, mode store.ImportMode, signals ...model.Signal) map[string]bool {
	t.Helper()
	ctx := context.Background()
	tx, err := st.BeginImport(ctx, mode)
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
	return tx.Written()
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
	tx, err := st.BeginImport(ctx, "")
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
