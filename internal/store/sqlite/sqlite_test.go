package sqlite

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"signals/internal/model"

	"signals/internal/store"
	"signals/internal/store/sqlstore"
	"signals/internal/store/storetest"
)

func TestStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		db, err := Open(context.Background(), filepath.Join(t.TempDir(), "signals.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	})
}

// The first Open applies every migration, in order, and says so; the
// second applies none.
func TestMigrateTwice(t *testing.T) {
	path := filepath.Join(t.TempDir(), "signals.db")
	all, err := sqlstore.Migrations(migrations, "migrations")
	if err != nil {
		t.Fatal(err)
	}
	var versions []string
	for _, m := range all {
		versions = append(versions, m.Version)
	}
	for i, want := range [][]string{versions, nil} {
		db, err := Open(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		if got := db.Migrated(); !slices.Equal(got, want) {
			t.Errorf("open %d applied %v, want %v", i+1, got, want)
		}
		db.Close()
	}
}

func TestUsageSurvivesRestart(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "signals.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	a, err := db.CreateAccount(ctx, "r@example.com", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 21, 10, 0, 5, 0, time.UTC)
	for range 7 {
		if _, err := db.TakeRequest(ctx, a.ID, model.InitialLimits, now); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	u, err := db.Usage(ctx, a.ID, now.Add(time.Second))
	if err != nil || u.MinuteUsed != 7 || u.DayUsed != 7 {
		t.Errorf("after restart usage = %+v, %v; want 7 in the minute and the day", u, err)
	}
}

// TestServeLockFollowsTheFile: a second server reaching the same database
// through another name is refused, while an operator command still writes
// beside the server.
func TestServeLockFollowsTheFile(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "signals.db")
	served, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer served.Close()
	if err := served.ClaimServing(); err != nil {
		t.Fatal(err)
	}
	symlink := filepath.Join(dir, "symlink.db")
	if err := os.Symlink(path, symlink); err != nil {
		t.Fatal(err)
	}
	hardlink := filepath.Join(dir, "hardlink.db")
	if err := os.Link(path, hardlink); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{path, symlink} {
		t.Run(filepath.Base(name), func(t *testing.T) {
			other, err := Open(ctx, name)
			if err != nil {
				t.Fatal(err)
			}
			defer other.Close()
			if err := other.ClaimServing(); !errors.Is(err, ErrServedElsewhere) {
				t.Fatalf("second serve through %s: got %v, want ErrServedElsewhere", filepath.Base(name), err)
			}
			// The serve lock leaves SQLite's own locking alone.
			storetest.Put(t, other, storetest.Sig(filepath.Base(name), 1))
			if _, err := served.GetSignal(ctx, filepath.Base(name)); err != nil {
				t.Fatalf("the server does not read what was written beside it: %v", err)
			}
		})
	}
	// SQLite in one process cannot open a hard link of an open database (the
	// link has a WAL of its own), so the hard link is checked on the lock
	// that ClaimServing takes.
	t.Run("hardlink.db", func(t *testing.T) {
		f, err := openServeLock(hardlink)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := lockExclusive(f); !errors.Is(err, errLocked) {
			t.Fatalf("serve lock through a hard link: got %v, want errLocked", err)
		}
	})
	served.Close()
	again, err := Open(ctx, symlink)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if err := again.ClaimServing(); err != nil {
		t.Fatalf("serve after the first closed: %v", err)
	}
}

// What is on disk covers every request answered, so that a crash, which
// skips Close, loses no count: the next open starts from at least the
// counts served, and never more than one reservation's room above them.
func TestUsageSurvivesCrash(t *testing.T) {
	ctx := context.Background()
	db, path := openTemp(t)
	a, err := db.CreateAccount(ctx, "c@example.com", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 21, 10, 0, 5, 0, time.UTC)
	for i := 1; i <= 35; i++ {
		u, err := db.TakeRequest(ctx, a.ID, model.InitialLimits, now)
		if err != nil {
			t.Fatal(err)
		}
		// A second store on the file reads what a restart after a crash
		// here would read.
		other, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		got, err := other.Usage(ctx, a.ID, now)
		other.closeOnce.Do(func() {}) // a crash: no final write
		other.read.Close()
		other.write.Close()
		if err != nil {
			t.Fatal(err)
		}
		if got.MinuteUsed < u.MinuteUsed || got.DayUsed < u.DayUsed {
			t.Fatalf("after request %d on disk %+v, below the served %+v", i, got, u)
		}
		if got.MinuteUsed > min(u.MinuteUsed+reserveAhead, model.InitialLimits.MinuteRequests) || got.DayUsed > u.DayUsed+reserveAhead {
			t.Fatalf("after request %d on disk %+v, more than one reservation above %+v", i, got, u)
		}
	}
}

// openTemp opens a fresh database file for one test, closed after it, and
// returns it with its path.
func openTemp(t *testing.T) (*DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "signals.db")
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, path
}

// Generations read from memory while the WAL index header is unchanged:
// every commit through another handle of the file (an operator command's,
// in another process) moves it, and the next read sees the commit; reads
// with nothing committed between them give the same generations.
func TestGenerationsSeeOtherHandles(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "signals.db")
	served, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer served.Close()
	if served.gens.shm == nil {
		t.Fatal("the -shm file was not opened: every request would read the generations")
	}
	other, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	a, err := other.CreateAccount(ctx, "gens@example.com", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	for i := range 50 {
		signals, credentials, err := served.Generations(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if s, c, err := served.Generations(ctx); err != nil || s != signals || c != credentials {
			t.Fatalf("nothing committed, yet %d %d then %d %d (%v)", signals, credentials, s, c, err)
		}
		if i%2 == 0 {
			limits := model.Limits{DailyRequests: 100 + i, MinuteRequests: 10, DailySearches: 1, ConcurrentSearches: 1}
			if err := other.SetLimits(ctx, a.ID, limits); err != nil {
				t.Fatal(err)
			}
		} else {
			storetest.Put(t, other, storetest.Sig(fmt.Sprintf("g%d", i), i))
		}
		s, c, err := served.Generations(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if moved := s != signals || c != credentials; !moved {
			t.Fatalf("step %d: a commit by another handle did not move the generations (%d %d)", i, s, c)
		}
	}
}

// While nothing is committed, Generations answers without reading the
// file: with every generation connection taken, a read would wait for one
// until its deadline.
func TestGenerationsUnchangedReadNothing(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "signals.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	signals, credentials, err := db.Generations(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var taken []generationConn
	for range generationConns {
		taken = append(taken, <-db.gens.conns)
	}
	defer func() {
		for _, c := range taken {
			db.gens.conns <- c
		}
	}()
	short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	for range 100 {
		if s, c, err := db.Generations(short); err != nil || s != signals || c != credentials {
			t.Fatalf("nothing committed: %d %d, %v; want %d %d from memory", s, c, err, signals, credentials)
		}
	}
}
