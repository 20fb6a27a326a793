package postgres

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"signals/internal/model"
	"signals/internal/store"
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
	denied := storetest.Decisions(t, stores(pools), 25, func(st store.Store) (model.Usage, error) {
		u, err := st.ReserveSearch(ctx, a.ID, 10, now)
		if err == nil && (u.DayUsed != 1 || u.MinuteUsed != 1) {
			t.Errorf("reserve reports requests %+v, want the one counted", u)
		}
		return u, err
	})
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
	if _, _, err := pools[0].AcquireSearchSlot(ctx, 999999, 1, now, lease); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("slot for a missing account: %v, want ErrNotFound", err)
	}
}
