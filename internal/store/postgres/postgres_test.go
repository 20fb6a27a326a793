package postgres

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"signals/internal/model"
	"signals/internal/store"
	"signals/internal/store/postgres/pgtest"
	"signals/internal/store/storetest"
)

func open(t testing.TB, conn string) *DB {
	t.Helper()
	db, err := Open(context.Background(), conn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestStore(t *testing.T) {
	t.Parallel()
	pgtest.ServerURL(t)
	storetest.Run(t, func(t *testing.T) store.Store { return open(t, pgtest.FreshSchema(t)) })
}

// Two processes share one database: their pools together count exactly up
// to the limit.
func TestQuotaExactAcrossPools(t *testing.T) {
	t.Parallel()
	pools, a := twoPools(t, "pools@example.com")
	ctx := context.Background()
	now := time.Date(2026, 11, 21, 10, 0, 5, 0, time.UTC)
	denied := storetest.Decisions(t, stores(pools), 45, func(st store.Store) (model.Usage, error) {
		return st.TakeRequest(ctx, a.ID, model.InitialLimits, now)
	})
	if denied[""] != 30 || denied[model.LimitMinute] != 15 {
		t.Errorf("45 simultaneous requests over two pools: %v, want 30 counted and 15 denied by the minute limit", denied)
	}
	for i, db := range pools {
		u, err := db.Usage(ctx, a.ID, now)
		if err != nil || u.MinuteUsed != 30 || u.DayUsed != 30 {
			t.Errorf("pool %d: usage = %+v, %v; want 30 used", i, u, err)
		}
	}
}

// A replica whose clock lags behind counts into the newer window instead of
// resetting it.
func TestQuotaWindowNeverMovesBack(t *testing.T) {
	t.Parallel()
	db := open(t, pgtest.FreshSchema(t))
	ctx := context.Background()
	a, err := db.CreateAccount(ctx, "skew@example.com", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	l := model.Limits{DailyRequests: 100, MinuteRequests: 2}
	ahead := time.Date(2026, 11, 21, 10, 1, 0, 10e6, time.UTC)
	behind := ahead.Add(-50 * time.Millisecond) // still in the previous minute
	if u, _ := db.TakeRequest(ctx, a.ID, l, ahead); u.Denied != "" || u.MinuteUsed != 1 {
		t.Fatalf("first request: %+v", u)
	}
	if u, _ := db.TakeRequest(ctx, a.ID, l, behind); u.Denied != "" || u.MinuteUsed != 2 {
		t.Fatalf("lagging request: %+v, want counted in the newer minute (2 used)", u)
	}
	if u, _ := db.TakeRequest(ctx, a.ID, l, behind); u.Denied != model.LimitMinute {
		t.Fatalf("third request: %+v, want the minute limit", u)
	}
}

func TestQuotaUnknownAccount(t *testing.T) {
	t.Parallel()
	db := open(t, pgtest.FreshSchema(t))
	if _, err := db.TakeRequest(context.Background(), 12345, model.InitialLimits, time.Now()); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("TakeRequest for a missing account = %v, want ErrNotFound", err)
	}
}

// Processes starting together on an empty database apply each migration
// once.
func TestConcurrentOpen(t *testing.T) {
	t.Parallel()
	conn := pgtest.FreshSchema(t)
	var wg sync.WaitGroup
	dbs := make([]*DB, 6)
	errs := make([]error, len(dbs))
	for i := range dbs {
		wg.Go(func() { dbs[i], errs[i] = Open(context.Background(), conn) })
	}
	wg.Wait()
	for i, db := range dbs {
		if errs[i] != nil {
			t.Fatalf("Open %d: %v", i, errs[i])
		}
		t.Cleanup(func() { db.Close() })
	}
	names, _ := migrations.ReadDir("migrations")
	var n int
	if err := dbs[0].pool.QueryRow(context.Background(), `SELECT count(*) FROM schema_migrations`).Scan(&n); err != nil || n != len(names) {
		t.Errorf("schema_migrations has %d rows (%v), want %d", n, err, len(names))
	}
	// Together they applied each migration exactly once.
	var applied []string
	for _, db := range dbs {
		applied = append(applied, db.Migrated()...)
	}
	slices.Sort(applied)
	var want []string
	for _, name := range names {
		want = append(want, strings.TrimSuffix(name.Name(), ".sql"))
	}
	if !slices.Equal(applied, want) {
		t.Errorf("the opens applied %v, want %v", applied, want)
	}
	// And again, with nothing left to apply.
	if got := open(t, conn).Migrated(); len(got) != 0 {
		t.Errorf("a reopen applied %v, want none", got)
	}
}

// Ids order byte-wise, as in the SQLite store, whatever the server's locale.
func TestIDOrderIsBytewise(t *testing.T) {
	t.Parallel()
	db := open(t, pgtest.FreshSchema(t))
	ids := []string{"a", "B", "é", "Z", "aa", "a b", "a-b", "_x", "~", "中"}
	var sigs []model.Signal
	for _, id := range ids {
		sigs = append(sigs, storetest.Sig(id, 1))
	}
	storetest.Put(t, db, sigs...)
	got, _, err := db.ListSignals(context.Background(), model.ListQuery{Page: 1, PageSize: 50})
	if err != nil {
		t.Fatal(err)
	}
	want := slices.Clone(ids)
	slices.Sort(want)
	slices.Reverse(want)
	var gotIDs []string
	for _, s := range got {
		gotIDs = append(gotIDs, s.ID)
	}
	if !slices.Equal(gotIDs, want) {
		t.Errorf("order = %q, want %q", gotIDs, want)
	}
}

// Imports larger than a batch upsert by id (the last Put wins, also within
// one batch and across batches) and roll back whole.
func TestImportBatches(t *testing.T) {
	t.Parallel()
	db := open(t, pgtest.FreshSchema(t))
	ctx := context.Background()
	n := 2*batchRows + 17
	tx, err := db.BeginImport(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if err := putSignal(ctx, tx, storetest.Sig(fmt.Sprint("s", i), i)); err != nil {
			t.Fatal(err)
		}
		if i%700 == 0 { // the same id again, in the same and in later batches
			s := storetest.Sig("dup", i, func(s *model.Signal) { s.Text = fmt.Sprint("version ", i) })
			if err := putSignal(ctx, tx, s); err != nil {
				t.Fatal(err)
			}
		}
	}
	last := storetest.Sig("dup", 1, func(s *model.Signal) { s.Text = "final" })
	if err := putSignal(ctx, tx, last); err != nil {
		t.Fatal(err)
	}
	if c, _ := db.CountSignals(ctx); c != 0 {
		t.Errorf("%d signals visible before Commit", c)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if c, err := db.CountSignals(ctx); err != nil || c != n+1 {
		t.Errorf("CountSignals = %d, %v; want %d", c, err, n+1)
	}
	if s, err := db.GetSignal(ctx, "dup"); err != nil || s.Text != "final" {
		t.Errorf("dup = %q, %v; want the last version", s.Text, err)
	}
	if err := tx.Rollback(); err != nil {
		t.Errorf("Rollback after Commit = %v, want nil", err)
	}

	tx, err = db.BeginImport(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if err := putSignal(ctx, tx, storetest.Sig(fmt.Sprint("r", i), i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if c, _ := db.CountSignals(ctx); c != n+1 {
		t.Errorf("after rollback %d signals, want %d", c, n+1)
	}
}

func TestImportRejectsNUL(t *testing.T) {
	t.Parallel()
	db := open(t, pgtest.FreshSchema(t))
	ctx := context.Background()
	tx, err := db.BeginImport(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	err = putSignal(ctx, tx, storetest.Sig("nul", 1, func(s *model.Signal) { s.Text = "a\x00b" }))
	if err == nil || !strings.HasPrefix(err.Error(), "store: import signal: text: ") {
		t.Errorf("Put with NUL = %v, want a text: error naming the operation", err)
	}
}

func TestRefusesNonUTF8Database(t *testing.T) {
	t.Parallel()
	base := pgtest.ServerURL(t)
	name := pgtest.RandomName("signals_test_")
	pgtest.Exec(t, base, `CREATE DATABASE `+name+` TEMPLATE template0 ENCODING 'SQL_ASCII' LC_COLLATE 'C' LC_CTYPE 'C'`)
	t.Cleanup(func() { pgtest.Exec(t, base, `DROP DATABASE `+name+` WITH (FORCE)`) })
	u, err := url.Parse(base)
	if err != nil || !strings.Contains(base, "://") {
		t.Skip("needs a URL connection string")
	}
	u.Path = "/" + name
	if db, err := Open(context.Background(), u.String()); err == nil {
		db.Close()
		t.Error("Open on a SQL_ASCII database succeeded; want an error")
	}
}

// Deep pages are found through the index first; they list exactly what the
// shallow way would.
func TestDeepPages(t *testing.T) {
	t.Parallel()
	db := open(t, pgtest.FreshSchema(t))
	ctx := context.Background()
	var sigs []model.Signal
	var want []string // funding ones, newest first; pairs share a time
	for i := range 400 {
		s := storetest.Sig(fmt.Sprintf("s%03d", i), i/2, func(s *model.Signal) {
			if i%3 == 0 {
				s.Tag = "job"
			}
			if i%7 == 0 {
				s.Status = model.StatusHidden
			}
		})
		sigs = append(sigs, s)
		if s.Tag == "funding" && s.Public() {
			want = append(want, s.ID)
		}
	}
	slices.Reverse(want)
	storetest.Put(t, db, sigs...)
	for _, q := range []model.ListQuery{
		{Page: 6, PageSize: 20}, {Page: 3, PageSize: 50}, {Page: 11, PageSize: 20}, {Page: 5, PageSize: 50},
	} {
		q.Tags = []string{"funding"}
		got, more, err := db.ListSignals(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		end := min(q.Offset()+q.PageSize, len(want))
		var ids []string
		for _, s := range got {
			ids = append(ids, s.ID)
		}
		if !slices.Equal(ids, want[min(q.Offset(), end):end]) || more != (len(want) > end) {
			t.Errorf("page %d of %d: %v more=%v; want %v more=%v", q.Page, q.PageSize, ids, more, want[min(q.Offset(), end):end], len(want) > end)
		}
		for _, s := range got {
			if s.Text == "" || s.TextChars == 0 || s.ObservedAt == nil {
				t.Errorf("deep page row %+v is incomplete", s)
				break
			}
		}
	}
}

// putSignal puts s with its folded forms, as the importer does.
func putSignal(ctx context.Context, tx store.ImportTx, s model.Signal) error {
	return tx.Put(ctx, s, s.Folded())
}

// stores returns pools as stores.
func stores(pools []*DB) []store.Store {
	out := make([]store.Store, len(pools))
	for i, p := range pools {
		out[i] = p
	}
	return out
}

// twoPools opens two stores on one fresh schema, as two processes would,
// and creates an account through the first.
func twoPools(t *testing.T, email string) ([]*DB, model.Account) {
	t.Helper()
	conn := pgtest.FreshSchema(t)
	pools := []*DB{open(t, conn), open(t, conn)}
	a, err := pools[0].CreateAccount(context.Background(), email, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return pools, a
}
