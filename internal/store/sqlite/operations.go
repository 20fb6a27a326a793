package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"strings"

	driver "modernc.org/sqlite"

	"signals/internal/store"
)

var _ store.Operations = (*DB)(nil)

// Path is the database file.
func (db *DB) Path() string { return db.path }

// PoolUse reports the writer and the reader pools.
func (db *DB) PoolUse() []store.PoolUse {
	use := func(name string, s sql.DBStats) store.PoolUse {
		return store.PoolUse{Name: name, Max: s.MaxOpenConnections, Open: s.OpenConnections, InUse: s.InUse,
			Idle: s.Idle, WaitCount: s.WaitCount, WaitDuration: s.WaitDuration}
	}
	return []store.PoolUse{use("write", db.write.Stats()), use("read", db.read.Stats())}
}

// Backup writes a consistent copy of the database to the new file path:
// the quota counters on disk already cover every request answered (they
// are reservations, see quotas.go), and VACUUM INTO copies one snapshot of the database on a connection of its own, so
// readers, the writer and imports go on meanwhile.
func (db *DB) Backup(ctx context.Context, path string) error {
	if _, err := os.Stat(path); err == nil {
		return fmt.Errorf("backup: %s exists; name a new file", path)
	}
	conn, err := sql.Open("sqlite", fileDSN(db.path, "busy_timeout(10000)"))
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `VACUUM INTO ?`, path); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	return Check(ctx, path)
}

// Check opens the database file at path read-only and reports whether it
// passes SQLite's integrity check and holds a Signals schema.
func Check(ctx context.Context, path string) error {
	if _, err := os.Stat(path); err != nil {
		return fmt.Errorf("check %s: %w", path, err)
	}
	conn, err := sql.Open("sqlite", fileDSN(path)+"&mode=ro")
	if err != nil {
		return err
	}
	defer conn.Close()
	rows, err := conn.QueryContext(ctx, `PRAGMA integrity_check`)
	if err != nil {
		return fmt.Errorf("check %s: %w", path, err)
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return fmt.Errorf("check %s: %w", path, err)
		}
		if line != "ok" {
			problems = append(problems, line)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("check %s: %w", path, err)
	}
	if len(problems) > 0 {
		return fmt.Errorf("check %s: the integrity check failed: %s", path, strings.Join(problems, "; "))
	}
	var n int
	if err := conn.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema
		WHERE type = 'table' AND name IN ('schema_migrations', 'signals', 'accounts')`).Scan(&n); err != nil {
		return fmt.Errorf("check %s: %w", path, err)
	}
	if n != 3 {
		return fmt.Errorf("check %s: not a Signals database", path)
	}
	return nil
}

// ErrServing means a serve process holds the database a restore would
// replace.
var ErrServing = errors.New("a signals serve process holds this database; stop it before restoring")

// Restore replaces the database at path by the backup at from, after
// checking the backup's integrity. It refuses while a serve process holds
// path, and holds path's serve lock meanwhile so that none starts. The
// copy goes through SQLite's backup API into the live file, so a process
// that has it open (an import, an operator command) sees either the old
// database or the restored one, never a mix.
func Restore(ctx context.Context, from, path string) error {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		// A new database: create the file so that its serve lock can be taken.
		if err := os.WriteFile(path, nil, 0o600); err != nil {
			return fmt.Errorf("restore: %w", err)
		}
	}
	lock, err := openServeLock(path)
	if err != nil {
		return fmt.Errorf("restore: serve lock: %w", err)
	}
	defer lock.Close()
	if err := lockExclusive(lock); err != nil {
		if errors.Is(err, errLocked) {
			return ErrServing
		}
		return fmt.Errorf("restore: serve lock: %w", err)
	}
	if err := Check(ctx, from); err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	target, err := (&driver.Driver{}).Open(fileDSN(path, "journal_mode(WAL)", "busy_timeout(10000)"))
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	defer target.Close()
	r, ok := target.(interface {
		NewRestore(string) (*driver.Backup, error)
	})
	if !ok {
		return errors.New("restore: the SQLite driver has no backup API")
	}
	b, err := r.NewRestore(fileDSN(from) + "&mode=ro")
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	if _, err := b.Step(-1); err != nil {
		b.Finish()
		return fmt.Errorf("restore: %w", err)
	}
	if err := b.Finish(); err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	return nil
}

// fileDSN is the driver's name of the database file at path with pragmas.
func fileDSN(path string, pragmas ...string) string {
	v := url.Values{"_pragma": pragmas}
	return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + v.Encode()
}
