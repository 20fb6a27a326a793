package storetest

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"signals/internal/model"
	"signals/internal/store"
)

func testClaimSearch(t *testing.T, st store.Store) {
	ctx := context.Background()
	now := base
	release, ok, err := st.ClaimSearch(ctx, "k", now, time.Minute)
	if err != nil || !ok {
		t.Fatalf("first claim: %v %v", ok, err)
	}
	if _, ok, _ := st.ClaimSearch(ctx, "k", now.Add(time.Second), time.Minute); ok {
		t.Fatal("a held claim was given twice")
	}
	if _, ok, _ := st.ClaimSearch(ctx, "other", now, time.Minute); !ok {
		t.Fatal("claims of different keys conflict")
	}
	release()
	release2, ok, _ := st.ClaimSearch(ctx, "k", now.Add(2*time.Second), time.Minute)
	if !ok {
		t.Fatal("a released claim cannot be taken again")
	}
	// A holder that never releases (a dead process) loses the claim when its
	// lease passes, and its late release does not free the new holder's.
	if _, ok, _ := st.ClaimSearch(ctx, "k", now.Add(2*time.Second+time.Minute), time.Minute); !ok {
		t.Fatal("an expired claim was not taken over")
	}
	release2()
	if _, ok, _ := st.ClaimSearch(ctx, "k", now.Add(2*time.Second+time.Minute+time.Second), time.Minute); ok {
		t.Fatal("a stale holder's release freed the new holder's claim")
	}

	var wg sync.WaitGroup
	var mu sync.Mutex
	won := 0
	for range 20 {
		wg.Go(func() {
			if _, ok, err := st.ClaimSearch(ctx, "race", now, time.Minute); err == nil && ok {
				mu.Lock()
				won++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if won != 1 {
		t.Errorf("%d of 20 simultaneous claims succeeded, want 1", won)
	}
}

func testSearchSlotsAndReservations(t *testing.T, st store.Store) {
	ctx := context.Background()
	a := newAccount(t, st, "s@example.com")
	now := base
	release, ok, err := st.AcquireSearchSlot(ctx, a.ID, 1, now, time.Minute)
	if err != nil || !ok {
		t.Fatalf("first slot: %v %v", ok, err)
	}
	if _, ok, _ := st.AcquireSearchSlot(ctx, a.ID, 1, now, time.Minute); ok {
		t.Fatal("two slots with a limit of one")
	}
	release()
	release() // releasing twice frees one slot only
	r1, ok1, _ := st.AcquireSearchSlot(ctx, a.ID, 2, now, time.Minute)
	_, ok2, _ := st.AcquireSearchSlot(ctx, a.ID, 2, now, time.Minute)
	_, ok3, _ := st.AcquireSearchSlot(ctx, a.ID, 2, now, time.Minute)
	if !ok1 || !ok2 || ok3 {
		t.Fatalf("limit 2: %v %v %v", ok1, ok2, ok3)
	}
	r1()

	for i := 1; i <= 3; i++ {
		u, err := st.ReserveSearch(ctx, a.ID, 2, now)
		if err != nil {
			t.Fatal(err)
		}
		want := ""
		if i == 3 {
			want = model.LimitSearchDay
		}
		if u.Denied != want || u.SearchesUsed != min(i, 2) {
			t.Errorf("reservation %d: %+v", i, u)
		}
	}
	if u, _ := st.ReserveSearch(ctx, a.ID, 2, now.Add(24*time.Hour)); u.Denied != "" || u.SearchesUsed != 1 {
		t.Errorf("next UTC day: %+v", u)
	}
}

func testSignalsNeedingVectors(t *testing.T, st store.Store) {
	ctx := context.Background()
	Put(t, st, Sig("a", 1), Sig("b", 2), Sig("c", 3), Sig("d", 4), Sig("e", 5),
		Sig("hidden", 6, func(s *model.Signal) { s.Status = model.StatusHidden }))
	pass := func() [][]string {
		t.Helper()
		var batches [][]string
		var cursor *store.Cursor
		for {
			list, err := st.SignalsNeedingVectors(ctx, "m", 100, 2, cursor)
			if err != nil {
				t.Fatal(err)
			}
			if len(list) == 0 {
				return batches
			}
			batches = append(batches, ids(list))
			cursor = store.CursorOf(list[len(list)-1])
		}
	}
	if got := fmt.Sprint(pass()); got != "[[e d] [c b] [a]]" {
		t.Errorf("a pass in batches of 2 = %s, want [[e d] [c b] [a]] (listing order, each once, public only)", got)
	}
	if err := st.PutVectors(ctx, "m", map[string][]float32{"e": {1}, "c": {1}, "a": {1}}); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(pass()); got != "[[d b]]" {
		t.Errorf("after storing e, c and a: %s, want [[d b]]", got)
	}
	// A changed text makes the stored vector stale; another model has none.
	Put(t, st, Sig("c", 3, func(s *model.Signal) { s.Text = "new text" }))
	if got := fmt.Sprint(pass()); got != "[[d c] [b]]" {
		t.Errorf("after c's text changed: %s, want [[d c] [b]]", got)
	}
	if list, _ := st.SignalsNeedingVectors(ctx, "other", 100, 10, nil); len(list) != 5 {
		t.Errorf("another model needs %d vectors, want 5", len(list))
	}
}

// Vectors belong to a text: changing it makes them stale.
func testVectorsFollowText(t *testing.T, db store.Store) {
	ctx := context.Background()
	Put(t, db, Sig("a", 1), Sig("b", 2), Sig("hidden", 3, func(s *model.Signal) { s.Status = model.StatusHidden }))
	need := func() []string {
		t.Helper()
		list, err := db.SignalsNeedingVectors(ctx, "m1", 100, 10, nil)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, s := range list {
			ids = append(ids, s.ID)
		}
		return ids
	}
	if got := need(); !slices.Equal(got, []string{"b", "a"}) {
		t.Fatalf("needing vectors = %v, want the public ones newest first", got)
	}
	if err := db.PutVectors(ctx, "m1", map[string][]float32{"a": {1, 0.5}, "b": {0, 1}, "gone": {1}}); err != nil {
		t.Fatal(err)
	}
	if got := need(); len(got) != 0 {
		t.Errorf("needing vectors after PutVectors = %v", got)
	}
	Put(t, db, Sig("a", 1)) // same text: vector still valid
	Put(t, db, Sig("b", 2, func(s *model.Signal) { s.Text = "a new text" }))
	if got := need(); !slices.Equal(got, []string{"b"}) {
		t.Errorf("needing vectors after a text change = %v, want [b]", got)
	}
	cands, err := db.Candidates(ctx, model.Filter{Tags: []string{"funding"}}, "m1", 5, 10)
	if err != nil || len(cands) != 2 {
		t.Fatalf("Candidates = %v, %v", cands, err)
	}
	if cands[0].Signal.ID != "b" || cands[0].Vector != nil || model.Chars(cands[0].Signal.Text) != 5 {
		t.Errorf("stale candidate = %+v", cands[0])
	}
	if cands[1].Signal.ID != "a" || !slices.Equal(cands[1].Vector, []float32{1, 0.5}) {
		t.Errorf("current candidate = %+v", cands[1])
	}
	for _, c := range []struct {
		id, model string
		want      []float32
	}{{"a", "m1", []float32{1, 0.5}}, {"b", "m1", nil}, {"a", "m2", nil}, {"missing", "m1", nil}} {
		if got, err := db.SignalVector(ctx, c.id, c.model); err != nil || !slices.Equal(got, c.want) {
			t.Errorf("SignalVector(%s, %s) = %v, %v; want %v (current vectors only)", c.id, c.model, got, err, c.want)
		}
	}
	if err := db.PutVectors(ctx, "m1", map[string][]float32{"hidden": {1, 1}}); err != nil {
		t.Fatal(err)
	}
	if got, err := db.SignalVector(ctx, "hidden", "m1"); got != nil || err != nil {
		t.Errorf("SignalVector(hidden) = %v, %v; want none for a signal that is not public", got, err)
	}
	byID, err := db.SignalsByID(ctx, []string{"a", "hidden", "missing"}, 100)
	if err != nil || len(byID) != 1 || byID[0].ID != "a" {
		t.Errorf("SignalsByID = %v, %v; want only the public a", byID, err)
	}
}

func testSearchCache(t *testing.T, db store.Store) {
	ctx := context.Background()
	now := time.Date(2026, 11, 21, 10, 0, 0, 123456789, time.UTC)
	r := store.CachedSearch{Matches: []store.Match{{ID: "a", Relevance: 0.9, Matched: []string{"tag:events", "country:france", "hiring≈recruiting"}},
		{ID: "b", Relevance: 0.88}}, CandidatesConsidered: 512, SearchedAt: now, ExpiresAt: now.Add(15 * time.Minute)}
	if err := db.PutCachedSearch(ctx, "k", r); err != nil {
		t.Fatal(err)
	}
	got, ok, err := db.CachedSearch(ctx, "k", now.Add(time.Minute))
	if err != nil || !ok || got.CandidatesConsidered != 512 || !got.SearchedAt.Equal(now) || len(got.Matches) != 2 ||
		!slices.Equal(got.Matches[0].Matched, r.Matches[0].Matched) || got.Matches[1].Matched != nil {
		t.Errorf("CachedSearch = %+v, %v, %v", got, ok, err)
	}
	if _, ok, _ := db.CachedSearch(ctx, "k", r.ExpiresAt); ok {
		t.Error("expired result still served")
	}
	if _, ok, _ := db.CachedSearch(ctx, "other", now); ok {
		t.Error("unknown key served")
	}
}
