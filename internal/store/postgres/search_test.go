package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"signals/internal/demo"
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

// A listing by substring is one statement whose plan does not depend on
// the substring: after PostgreSQL's five custom plans, its connection
// keeps a generic one instead of planning it anew for every substring. It
// fails, for one, when the count of newest signals checked is a parameter
// rather than written into the text: a generic plan then reckons it at a
// tenth of the table, and every run is planned for its own.
func TestSubstringListingKeepsOnePlan(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	// One connection, so that every listing and the look at its prepared
	// statements share it.
	db, err := Open(ctx, pgtest.WithParam(pgtest.FreshSchema(t), "pool_max_conns", "1"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	// Enough signals, analyzed, that a plan made without the statement's
	// values can cost more than one made with them.
	storetest.Put(t, db, slices.Collect(demo.Synthetic(3000, 1))...)
	if _, err := db.IndexSubstrings(ctx); err != nil {
		t.Fatal(err)
	}
	// Statistics as a large archive has them (its import analyzes).
	if _, err := db.pool.Exec(ctx, `ANALYZE`); err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		q := model.ListQuery{Q: fmt.Sprintf("zqxjvw%d", i), Page: 1, PageSize: 20}
		if list, _, err := db.ListSignals(ctx, q); err != nil || len(list) != 0 {
			t.Fatalf("%s: %d signals, %v; want none", q.Q, len(list), err)
		}
	}
	var generic, custom int64
	if err := db.sql.QueryRowContext(ctx, `SELECT generic_plans, custom_plans FROM pg_prepared_statements
		WHERE statement LIKE 'WITH newest AS MATERIALIZED %'`).Scan(&generic, &custom); err != nil {
		t.Fatal(err)
	}
	if generic < 5 {
		t.Errorf("the listing was planned %d times and kept a generic plan %d times in 10 runs; want a generic plan from the sixth on", custom, generic)
	}
}
