package postgres

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"signals/internal/benchtest"
	"signals/internal/demo"
	"signals/internal/model"
	"signals/internal/store/postgres/pgtest"
	"signals/internal/store/storetest"
)

// Benchmarks run against SIGNALS_TEST_POSTGRES, like the tests:
//
//	SIGNALS_TEST_POSTGRES=postgres://postgres@127.0.0.1:5432/test?sslmode=disable \
//	  go test -run '^$' -bench . -benchtime 1x ./internal/store/postgres/   # import
//	  go test -run '^$' -bench List ./internal/store/postgres/             # listings
//
// The listing table (listRows synthetic signals) lives in the database
// named by SIGNALS_BENCH_DATABASE (default signals_bench, so that checkouts
// sharing a server can keep their own), built on first use and reused while
// it holds the same rows; SIGNALS_BENCH_REBUILD=1 rebuilds it, logging how
// fast it imported (with -v).
const (
	listRows   = 1_000_000
	importRows = 100_000
	benchSeed  = 1
)

// BenchmarkImport imports importRows synthetic signals in one transaction
// into an empty schema and reports signals per second. Generating them is
// not timed.
func BenchmarkImport(b *testing.B) {
	perSignal(b, nil, func(ctx context.Context, db *DB, signals []model.Signal) error {
		return importAll(ctx, db, slices.Values(signals))
	})
}

// BenchmarkIndexSubstrings imports importRows synthetic signals into an
// empty schema, untimed, and reports how many signals per second
// IndexSubstrings then indexes, as the serving process does after an import.
func BenchmarkIndexSubstrings(b *testing.B) {
	perSignal(b, func(ctx context.Context, db *DB, signals []model.Signal) error {
		return importAll(ctx, db, slices.Values(signals))
	}, func(ctx context.Context, db *DB, _ []model.Signal) error {
		if n, err := db.IndexSubstrings(ctx); err != nil || n == 0 {
			return fmt.Errorf("indexed %d times: %v", n, err)
		}
		return nil
	})
}

// perSignal runs, b.N times on a fresh schema, setup untimed (when not
// nil) and then run timed, each with importRows synthetic signals, and
// reports signals per second of run.
func perSignal(b *testing.B, setup, run func(context.Context, *DB, []model.Signal) error) {
	pgtest.ServerURL(b)
	signals := slices.Collect(demo.Synthetic(importRows, benchSeed))
	ctx := context.Background()
	var total time.Duration
	for range b.N {
		b.StopTimer()
		db, err := Open(ctx, pgtest.FreshSchema(b))
		if err != nil {
			b.Fatal(err)
		}
		if setup != nil {
			if err := setup(ctx, db, signals); err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
		start := time.Now()
		if err := run(ctx, db, signals); err != nil {
			b.Fatal(err)
		}
		total += time.Since(start)
		b.StopTimer()
		db.Close()
	}
	b.ReportMetric(float64(importRows*b.N)/total.Seconds(), "signals/s")
}

func importAll(ctx context.Context, db *DB, signals func(func(model.Signal) bool)) error {
	tx, err := db.BeginImport(ctx, "")
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for s := range signals {
		if err := putSignal(ctx, tx, s); err != nil {
			return err
		}
	}
	return tx.Commit()
}

var listTable struct {
	once sync.Once
	db   *DB
	err  error
}

// benchDB opens the listing database, creating it when missing, and fills it with
// listRows synthetic signals unless it already holds exactly those.
func benchDB(b *testing.B) *DB {
	base := pgtest.ServerURL(b)
	listTable.once.Do(func() {
		listTable.db, listTable.err = openListTable(b, base)
	})
	if listTable.err != nil {
		b.Fatal(listTable.err)
	}
	return listTable.db
}

func openListTable(b *testing.B, base string) (*DB, error) {
	ctx := context.Background()
	benchDatabase := cmp.Or(os.Getenv("SIGNALS_BENCH_DATABASE"), "signals_bench")
	u, err := url.Parse(base)
	if err != nil || !strings.Contains(base, "://") {
		return nil, errors.New("the listing benchmarks need SIGNALS_TEST_POSTGRES as a URL")
	}
	admin, err := pgx.Connect(ctx, base)
	if err != nil {
		return nil, err
	}
	_, err = admin.Exec(ctx, `CREATE DATABASE `+benchDatabase+` TEMPLATE template0 ENCODING 'UTF8'`)
	admin.Close(ctx)
	if err != nil && !hasCode(err, "42P04") { // duplicate_database
		return nil, err
	}
	u.Path = "/" + benchDatabase
	db, err := Open(ctx, u.String())
	if err != nil {
		return nil, err
	}
	var last string
	for s := range demo.Synthetic(listRows, benchSeed) {
		last = s.ID
	}
	var n int
	var found bool
	if err := db.pool.QueryRow(ctx, `SELECT count(*), coalesce(bool_or(id = $1), false) FROM signals`, last).Scan(&n, &found); err != nil {
		db.Close()
		return nil, err
	}
	if n == listRows && found && os.Getenv("SIGNALS_BENCH_REBUILD") == "" {
		b.Logf("reusing %d signals in database %s", n, benchDatabase)
		_, err := db.IndexSubstrings(ctx)
		return db, err
	}
	b.Logf("building %d signals in database %s…", listRows, benchDatabase)
	db.Close()
	// The signals are imported under the schema before the substring
	// index (testdata/before-0016); the upgrade to the current schema then
	// builds the whole index, the full reindex an operator waits for.
	pgtest.Exec(b, u.String(), `DROP SCHEMA public CASCADE; CREATE SCHEMA public`)
	schema = storetest.EarlierSchema(b, migrations, os.DirFS("testdata/before-0016"), "0016_substring_index", "0017_substring_statistics")
	db, err = Open(ctx, u.String())
	schema = migrations
	if err != nil {
		return nil, err
	}
	start := time.Now()
	err = importAll(ctx, db, demo.Synthetic(listRows, benchSeed))
	db.Close()
	if err != nil {
		return nil, err
	}
	d := time.Since(start)
	b.Logf("imported %d signals in one transaction in %s: %.0f signals/s (generating them included)",
		listRows, d.Round(time.Millisecond), listRows/d.Seconds())
	start = time.Now()
	if db, err = Open(ctx, u.String()); err != nil {
		return nil, err
	}
	b.Logf("upgraded, building the substring index of %d signals, in %s", listRows, time.Since(start).Round(time.Millisecond))
	// Vacuum, as autovacuum would soon, so that deep pages can skip rows
	// through the index alone.
	if _, err := db.pool.Exec(ctx, `VACUUM ANALYZE`); err != nil {
		db.Close()
		return nil, err
	}
	var size string
	if err := db.pool.QueryRow(ctx, `SELECT pg_size_pretty(pg_relation_size('signal_text_trigrams'))
		|| ' (table ' || pg_size_pretty(pg_total_relation_size('signal_text')) || ' with it)'`).Scan(&size); err != nil {
		db.Close()
		return nil, err
	}
	b.Logf("substring index: %s", size)
	return db, nil
}

// BenchmarkList lists one page over listRows signals and reports the median
// and 95th percentile latency of a call.
func BenchmarkList(b *testing.B) {
	db := benchDB(b)
	page := func(page int, f model.Filter, q string) model.ListQuery {
		return model.ListQuery{Filter: f, Q: q, Page: page, PageSize: 20}
	}
	cases := []struct {
		name string
		q    model.ListQuery
	}{
		{"all", page(1, model.Filter{}, "")},
		{"tags=funding", page(1, model.Filter{Tags: []string{"funding"}}, "")},
		{"tags=funding,job", page(1, model.Filter{Tags: []string{"funding", "job"}}, "")},
		{"tags=funding&country=canada", page(1, model.Filter{Tags: []string{"funding"}, Countries: []string{"canada"}}, "")},
		{"language=fr&sources=tech_forum", page(1, model.Filter{Languages: []string{"fr"}, Sources: []string{"tech_forum"}}, "")},
		{"country=kenya", page(1, model.Filter{Countries: []string{"kenya"}}, "")},
		{"tags=funding&page=50", page(50, model.Filter{Tags: []string{"funding"}}, "")},
		{"tags=funding&page=1000", page(1000, model.Filter{Tags: []string{"funding"}}, "")},
		{"observed_after=recent", page(1, model.Filter{ObservedAfter: &model.Time{NS: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC).UnixNano()}}, "")},
		{"q=robot", page(1, model.Filter{}, "robot")},
		{"tags=funding&q=series", page(1, model.Filter{Tags: []string{"funding"}}, "series")},
		{"q=no-match", page(1, model.Filter{}, "zzqx no such text")},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			ctx := context.Background()
			if _, _, err := db.ListSignals(ctx, c.q); err != nil {
				b.Fatal(err)
			}
			times := make([]time.Duration, 0, b.N)
			for b.Loop() {
				start := time.Now()
				if _, _, err := db.ListSignals(ctx, c.q); err != nil {
					b.Fatal(err)
				}
				times = append(times, time.Since(start))
			}
			slices.Sort(times)
			ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
			b.ReportMetric(ms(times[len(times)/2]), "median-ms")
			b.ReportMetric(ms(times[len(times)*95/100]), "p95-ms")
		})
	}
}

// BenchmarkListSubstrings lists the first page over listRows signals once
// for each of 400 q values of every kind (benchtest.Substrings), none of
// them seen before, and reports the median and 99th percentile latency over
// all, and how many passed the API's listing deadline (busy); with -v it
// logs the median, 90th percentile and maximum of each kind and the slowest
// q values.
func BenchmarkListSubstrings(b *testing.B) {
	db := benchDB(b)
	ctx := context.Background()
	qs := benchtest.Substrings(400, benchSeed)
	type timing struct {
		q benchtest.Substring
		d time.Duration
	}
	var all []timing
	busy := 0
	for b.Loop() {
		all = all[:0]
		busy = 0
		for _, q := range qs {
			start := time.Now()
			// Within the listing deadline of the API (reads.DefaultListTimeout),
			// past which it answers service_busy.
			ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
			_, _, err := db.ListSignals(ctx, model.ListQuery{Q: q.Q, Page: 1, PageSize: 20})
			late := ctx.Err() != nil
			cancel()
			if err != nil && late {
				busy++
			} else if err != nil {
				b.Fatal(err)
			}
			all = append(all, timing{q, time.Since(start)})
		}
	}
	slices.SortFunc(all, func(x, y timing) int { return cmp.Compare(x.d, y.d) })
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	at := func(ts []timing, p int) time.Duration { return ts[(len(ts)-1)*p/100].d }
	b.ReportMetric(ms(at(all, 50)), "p50-ms")
	b.ReportMetric(ms(at(all, 99)), "p99-ms")
	b.ReportMetric(float64(busy), "busy")
	for _, kind := range benchtest.SubstringKinds {
		ts := slices.DeleteFunc(slices.Clone(all), func(t timing) bool { return t.q.Kind != kind })
		if len(ts) > 0 {
			b.Logf("%-12s n=%3d  p50 %7.2f ms  p90 %7.2f ms  max %7.2f ms",
				kind, len(ts), ms(at(ts, 50)), ms(at(ts, 90)), ms(ts[len(ts)-1].d))
		}
	}
	for _, t := range slices.Backward(all[max(0, len(all)-10):]) {
		b.Logf("slow: %7.2f ms  %-12s q=%q", ms(t.d), t.q.Kind, t.q.Q)
	}
}

// BenchmarkTakeRequest counts requests from 16 goroutines at once, as 16
// keep-alive clients of one replica would, for one account and for 16
// (one each), and reports counts per second. With one account every count
// waits for the row lock of the one before it, so the time a commit takes
// is what bounds the rate.
//
//	go test -run '^$' -bench TakeRequest -benchtime 20000x ./internal/store/postgres/
func BenchmarkTakeRequest(b *testing.B) {
	for _, accounts := range []int{1, 16} {
		b.Run(fmt.Sprintf("accounts=%d", accounts), func(b *testing.B) {
			ctx := context.Background()
			db := open(b, pgtest.FreshSchema(b))
			var ids []int64
			for i := range accounts {
				a, err := db.CreateAccount(ctx, fmt.Sprintf("count%d@example.com", i), time.Now())
				if err != nil {
					b.Fatal(err)
				}
				ids = append(ids, a.ID)
			}
			limits := model.Limits{DailyRequests: 1 << 40, MinuteRequests: 1 << 40}
			var next sync.Mutex
			n := 0
			b.SetParallelism(max(1, 16/runtime.GOMAXPROCS(0)))
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				next.Lock()
				id := ids[n%len(ids)]
				n++
				next.Unlock()
				for pb.Next() {
					if _, err := db.TakeRequest(ctx, id, limits, time.Now()); err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "counts/s")
		})
	}
}
