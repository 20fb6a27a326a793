package postgres

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"signals/internal/model"
	"signals/internal/store/postgres/pgtest"
)

// A count commits without waiting for the disk, so a crash of the database
// server may forget the counts of its last moments: at most those
// committed in the last 3 × wal_writer_delay, and never an older one. Eight
// clients count as fast as they can until the server is killed with
// SIGKILL; after recovery, the counts it kept are compared with those it
// acknowledged.
func TestDatabaseCrashForgetsOnlyTheLastCounts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cluster := pgtest.NewCluster(t)
	db, err := Open(ctx, cluster.URL())
	if err != nil {
		t.Fatal(err)
	}
	var delay time.Duration
	var setting string
	if err := db.pool.QueryRow(ctx, `SHOW wal_writer_delay`).Scan(&setting); err != nil {
		t.Fatal(err)
	}
	if delay, err = time.ParseDuration(setting); err != nil {
		t.Fatalf("wal_writer_delay %q: %v", setting, err)
	}
	acct, err := db.CreateAccount(ctx, "crash@example.com", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	limits := model.Limits{DailyRequests: 1 << 40, MinuteRequests: 1 << 40}

	// The WAL writer flushes every wal_writer_delay, and a commit waits at
	// most three of its rounds; the margin is for a busy machine's
	// scheduling.
	window := 3*delay + 300*time.Millisecond

	// count runs eight clients counting as fast as they can until stop is
	// closed or the server is gone, and returns when each count returned.
	count := func(stop <-chan struct{}) []time.Time {
		var mu sync.Mutex
		var acked []time.Time
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				for {
					select {
					case <-stop:
						return
					default:
					}
					_, err := db.TakeRequest(ctx, acct.ID, limits, time.Now())
					at := time.Now()
					if err != nil {
						return // the server is gone
					}
					mu.Lock()
					acked = append(acked, at)
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		return acked
	}
	// First counts, then a pause longer than the window: those are on disk.
	stop := make(chan struct{})
	time.AfterFunc(500*time.Millisecond, func() { close(stop) })
	settled := len(count(stop))
	time.Sleep(window)
	// Then counts until the crash.
	crash := make(chan time.Time, 1)
	time.AfterFunc(time.Second, func() {
		at := time.Now()
		cluster.Crash()
		crash <- at
	})
	acked := count(make(chan struct{}))
	crashed := <-crash
	db.Close()

	cluster.Start()
	db, err = Open(ctx, cluster.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	u, err := db.Usage(ctx, acct.ID, crashed)
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(acked, func(a, b time.Time) int { return a.Compare(b) })
	recent := len(acked) - len(slicesBefore(acked, crashed.Add(-window)))
	all := settled + len(acked)
	lost := all - u.DayUsed
	t.Logf("acknowledged %d counts, then after a pause %d until the crash; %d kept; %d forgotten; %d acknowledged in the last %s (wal_writer_delay %s)",
		settled, len(acked), u.DayUsed, lost, recent, window, delay)
	if settled < 100 || len(acked) < 100 {
		t.Fatalf("only %d and %d counts; the test measures nothing", settled, len(acked))
	}
	if u.DayUsed < settled {
		t.Errorf("the crash forgot counts acknowledged %s or more before it: %d kept of the %d acknowledged before the pause",
			window, u.DayUsed, settled)
	}
	if lost > recent {
		t.Errorf("the crash forgot %d counts; at most the %d of the last %s may be", lost, recent, window)
	}
}

// slicesBefore returns the leading times of sorted that are before t.
func slicesBefore(sorted []time.Time, t time.Time) []time.Time {
	i, _ := slices.BinarySearchFunc(sorted, t, func(a, b time.Time) int { return a.Compare(b) })
	return sorted[:i]
}
