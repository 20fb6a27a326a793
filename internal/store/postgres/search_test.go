package postgres

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"signals/internal/model"
	"signals/internal/store"
	"signals/internal/store/postgres/pgtest"
	"signals/internal/store/storetest"
)

// Search reservations are exact across processes sharing the database.
func TestReserveSearchExactAcrossPools(t *testing.T) {
	t.Parallel()
	pools, a := twoPools(t, "searches@example.com")
	ctx := context.Background()
	now := time.Date(2026, 11, 21, 10, 0, 5, 0, time.UTC)
	if _, err := pools[0].TakeRequest(ctx, a.ID, model.InitialLimits, now); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	denied := map[string]int{}
	for i := range 25 {
		db := pools[i%2]
		wg.Go(func() {
			u, err := db.ReserveSearch(ctx, a.ID, 10, now)
			if err != nil {
				t.Error(err)
				return
			}
			if u.DayUsed != 1 || u.MinuteUsed != 1 {
				t.Errorf("reserve reports requests %+v, want the one counted", u)
			}
			mu.Lock()
			denied[u.Denied]++
			mu.Unlock()
		})
	}
	wg.Wait()
	if denied[""] != 10 || denied[model.LimitSearchDay] != 15 {
		t.Errorf("25 simultaneous reservations: %v, want 10 taken and 15 denied", denied)
	}
	if u, _ := pools[1].Usage(ctx, a.ID, now); u.SearchesUsed != 10 || u.DayUsed != 1 {
		t.Errorf("usage = %+v, want 10 searches and 1 request", u)
	}
	if u, _ := pools[1].ReserveSearch(ctx, a.ID, 10, now.Add(24*time.Hour)); u.Denied != "" || u.SearchesUsed != 1 || u.DayUsed != 0 {
		t.Errorf("next day: %+v, want a fresh count", u)
	}
}

// Slots are exact across processes, freed by release or by their lease.
func TestSearchSlotsAcrossPools(t *testing.T) {
	t.Parallel()
	pools, a := twoPools(t, "slots@example.com")
	ctx := context.Background()
	now := time.Date(2026, 11, 21, 10, 0, 5, 0, time.UTC)
	lease := time.Minute
	var wg sync.WaitGroup
	var mu sync.Mutex
	var releases []func()
	for i := range 20 {
		db := pools[i%2]
		wg.Go(func() {
			release, ok, err := db.AcquireSearchSlot(ctx, a.ID, 2, now, lease)
			if err != nil {
				t.Error(err)
				return
			}
			if ok {
				mu.Lock()
				releases = append(releases, release)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(releases) != 2 {
		t.Fatalf("20 simultaneous acquisitions with 2 slots: %d taken", len(releases))
	}
	releases[0]()
	releases[0]() // a second release is a no-op
	r3, ok, err := pools[1].AcquireSearchSlot(ctx, a.ID, 2, now, lease)
	if err != nil || !ok {
		t.Fatalf("after one release: ok=%v, %v; want a slot", ok, err)
	}
	if _, ok, _ := pools[0].AcquireSearchSlot(ctx, a.ID, 2, now, lease); ok {
		t.Error("third slot taken while two are held")
	}
	// A holder that died never releases: its lease ends.
	if _, ok, _ := pools[0].AcquireSearchSlot(ctx, a.ID, 2, now.Add(lease), lease); !ok {
		t.Error("no slot once the leases ended")
	}
	r3()
	if _, ok, _ := pools[0].AcquireSearchSlot(ctx, a.ID, 0, now, lease); ok {
		t.Error("slot taken with a maximum of 0")
	}
	if _, _, err := pools[0].AcquireSearchSlot(ctx, 999999, 1, now, lease); err != store.ErrNotFound {
		t.Errorf("slot for a missing account: %v, want ErrNotFound", err)
	}
}

// Vectors belong to a text: changing it makes them stale.
func TestVectorsFollowText(t *testing.T) {
	t.Parallel()
	db := open(t, pgtest.FreshSchema(t))
	ctx := context.Background()
	storetest.Put(t, db, storetest.Sig("a", 1), storetest.Sig("b", 2),
		storetest.Sig("hidden", 3, func(s *model.Signal) { s.Status = model.StatusHidden }))
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
	storetest.Put(t, db, storetest.Sig("a", 1)) // same text: vector still valid
	storetest.Put(t, db, storetest.Sig("b", 2, func(s *model.Signal) { s.Text = "a new text" }))
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
	byID, err := db.SignalsByID(ctx, []string{"a", "hidden", "missing"}, 100)
	if err != nil || len(byID) != 1 || byID[0].ID != "a" {
		t.Errorf("SignalsByID = %v, %v; want only the public a", byID, err)
	}
}

func TestSearchCache(t *testing.T) {
	t.Parallel()
	db := open(t, pgtest.FreshSchema(t))
	ctx := context.Background()
	now := time.Date(2026, 11, 21, 10, 0, 0, 123456789, time.UTC)
	r := store.CachedSearch{Matches: []store.Match{{ID: "a", Relevance: 0.9}}, CandidatesConsidered: 512,
		SearchedAt: now, ExpiresAt: now.Add(15 * time.Minute)}
	if err := db.PutCachedSearch(ctx, "k", r); err != nil {
		t.Fatal(err)
	}
	got, ok, err := db.CachedSearch(ctx, "k", now.Add(time.Minute))
	if err != nil || !ok || got.CandidatesConsidered != 512 || !got.SearchedAt.Equal(now) || len(got.Matches) != 1 {
		t.Errorf("CachedSearch = %+v, %v, %v", got, ok, err)
	}
	if _, ok, _ := db.CachedSearch(ctx, "k", r.ExpiresAt); ok {
		t.Error("expired result still served")
	}
	if _, ok, _ := db.CachedSearch(ctx, "other", now); ok {
		t.Error("unknown key served")
	}
}
