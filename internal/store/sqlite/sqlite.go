// Package sqlite implements the store on an embedded SQLite database file.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"sort"
	"strings"

	_ "modernc.org/sqlite" // pure-Go SQLite driver

	"signals/internal/store"
)

// SQLite's page cache is per connection: 32 MB for the one writer, 8 MB for
// each of the readers (the operating system caches the file for all).
const (
	writerCacheSize = "-32000"
	readerCacheSize = "-8000"
	readers         = 8
)

//go:embed migrations/*.sql
var migrations embed.FS

// DB is the SQLite store. Writes go through one connection (SQLite has one
// writer at a time, and queueing in Go is cheaper than SQLITE_BUSY retries);
// reads use a pool that WAL lets run beside the writer.
type DB struct {
	write    *sql.DB
	read     *readPool
	counters *counters
	slots    slots
	claims   claims
	// Log receives errors of background work; nil discards them.
	Log *slog.Logger

	path      string
	serveLock *os.File
}

var _ store.Store = (*DB)(nil)

// Open opens (creating if needed) the database file at path and applies
// pending migrations.
func Open(ctx context.Context, path string) (*DB, error) {
	dsn := func(cacheSize string) string {
		pragmas := url.Values{}
		for _, p := range []string{"journal_mode(WAL)", "foreign_keys(1)", "busy_timeout(10000)", "synchronous(NORMAL)", "cache_size(" + cacheSize + ")"} {
			pragmas.Add("_pragma", p)
		}
		return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + pragmas.Encode()
	}
	write, err := sql.Open("sqlite", dsn(writerCacheSize)+"&_txlock=immediate")
	if err != nil {
		return nil, err
	}
	write.SetMaxOpenConns(1)
	write.SetConnMaxIdleTime(0)
	db := &DB{write: write, path: path}
	if err := db.migrate(ctx); err != nil {
		write.Close()
		return nil, fmt.Errorf("migrate %s: %w", path, err)
	}
	read, err := sql.Open("sqlite", dsn(readerCacheSize)+"&mode=ro")
	if err != nil {
		write.Close()
		return nil, err
	}
	read.SetMaxOpenConns(readers)
	read.SetMaxIdleConns(readers)
	db.read = newReadPool(read)
	db.startCounters()
	return db, nil
}

// Close closes both connection pools.
func (db *DB) Close() error {
	err := errors.Join(db.closeCounters(), db.read.Close(), db.write.Close())
	if db.serveLock != nil {
		db.serveLock.Close() // releases the lock
	}
	return err
}

// Ping checks that the database answers a query.
func (db *DB) Ping(ctx context.Context) error {
	var one int
	return db.read.QueryRowContext(ctx, "SELECT 1").Scan(&one)
}

func (db *DB) migrate(ctx context.Context) error {
	if _, err := db.write.ExecContext(ctx,
		`CREATE TABLE IF NOT EXISTS schema_migrations (version TEXT PRIMARY KEY)`); err != nil {
		return err
	}
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return err
	}
	sort.Strings(names)
	for _, name := range names {
		version := strings.TrimSuffix(strings.TrimPrefix(name, "migrations/"), ".sql")
		if err := db.applyMigration(ctx, name, version); err != nil {
			return fmt.Errorf("%s: %w", version, err)
		}
	}
	return nil
}

func (db *DB) applyMigration(ctx context.Context, name, version string) error {
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations WHERE version = ?`, version).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return nil
	}
	body, err := migrations.ReadFile(name)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, string(body)); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version) VALUES (?)`, version); err != nil {
		return err
	}
	return tx.Commit()
}

func (db *DB) log(msg string, err error) {
	if db.Log != nil {
		db.Log.Error(msg, "err", err)
	}
}
