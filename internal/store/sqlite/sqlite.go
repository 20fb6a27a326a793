// Package sqlite implements the store on an embedded SQLite database file.
// The queries it shares with PostgreSQL are in sqlstore; this package holds
// what one embedded file served by one process does differently: quota
// counters, search slots and claims kept in memory, and the import.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"signals/internal/store"
	"signals/internal/store/sqlstore"
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

// dialect is how SQLite spells what the shared queries need.
var dialect = sqlstore.Dialect{
	PublicOnly: `status = 'public' AND market_only = 0`,
	Position:   "instr",
	SignalKey:  "pk", // the rowid: a smaller key than the id
	VectorKey:  "signal_pk",
	Vectors:    littleEndian,
	Trigrams: &sqlstore.Trigrams{
		Candidates: trigramCandidates,
		In:         `pk IN (SELECT value FROM json_each(?))`,
		// The unary + keeps the rowid from choosing the plan.
		InOrder: `+pk IN (SELECT value FROM json_each(?))`,
		// Walking the listing order against the candidates reads only the
		// signals on the way, so many candidates cost little more than few:
		// up to 5,000, which the index names in about 3 ms.
		Limit: 5000,
		List:  func(keys []string) any { return "[" + strings.Join(keys, ",") + "]" },
	},
	Constraint: constraint,
}

// constraint translates SQLite's constraint errors into the store's.
func constraint(err error) error {
	var e *sqlite.Error
	if errors.As(err, &e) {
		switch e.Code() {
		case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
			return store.ErrExists
		case sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
			return store.ErrNotFound
		}
	}
	return err
}

// DB is the SQLite store. Writes go through one connection (SQLite has one
// writer at a time, and queueing in Go is cheaper than SQLITE_BUSY retries);
// reads use a pool that WAL lets run beside the writer.
type DB struct {
	*sqlstore.Queries

	write    *sql.DB
	read     *readPool
	counters *counters
	slots    slots
	claims   claims
	// terms are the trigrams signal_trigram_terms lists, once read.
	terms trigramTerms

	path      string
	serveLock *os.File
	closeOnce sync.Once
	closeErr  error
}

var _ store.Store = (*DB)(nil)

// An Option configures Open.
type Option func(*DB)

// Open opens (creating if needed) the database file at path and applies
// pending migrations.
func Open(ctx context.Context, path string, opts ...Option) (*DB, error) {
	dsn := func(cacheSize string) string {
		pragmas := url.Values{}
		for _, p := range []string{"journal_mode(WAL)", "foreign_keys(1)", "busy_timeout(10000)", "synchronous(NORMAL)", "cache_size(" + cacheSize + ")"} {
			pragmas.Add("_pragma", p)
		}
		return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + pragmas.Encode()
	}
	write, err := sql.Open("sqlite", dsn(writerCacheSize)+"&_txlock=immediate")
	if err != nil {
		return nil, sqlstore.Wrap("open "+path, err)
	}
	write.SetMaxOpenConns(1)
	write.SetConnMaxIdleTime(0)
	db := &DB{write: write, path: path}
	for _, o := range opts {
		o(db)
	}
	if err := db.migrate(ctx); err != nil {
		write.Close()
		return nil, sqlstore.Wrap("migrate "+path, err)
	}
	read, err := sql.Open("sqlite", dsn(readerCacheSize)+"&mode=ro")
	if err != nil {
		write.Close()
		return nil, sqlstore.Wrap("open "+path, err)
	}
	read.SetMaxOpenConns(readers)
	read.SetMaxIdleConns(readers)
	db.read = newReadPool(read)
	db.Queries = sqlstore.New(db.read, write, dialect)
	db.startCounters()
	return db, nil
}

// Close writes the counters not written yet and closes both connection
// pools; closing again does nothing.
func (db *DB) Close() error {
	db.closeOnce.Do(func() {
		db.closeErr = errors.Join(db.closeCounters(), db.read.Close(), db.write.Close())
		if db.serveLock != nil {
			db.serveLock.Close() // releases the lock
		}
	})
	return db.closeErr
}

// migrate applies the migrations not applied yet, each in a transaction of
// the one writer connection.
func (db *DB) migrate(ctx context.Context) error {
	if _, err := db.write.ExecContext(ctx,
		`CREATE TABLE IF NOT EXISTS schema_migrations (version TEXT PRIMARY KEY)`); err != nil {
		return err
	}
	all, err := sqlstore.Migrations(migrations, "migrations")
	if err != nil {
		return err
	}
	for _, m := range all {
		if err := db.applyMigration(ctx, m); err != nil {
			return fmt.Errorf("%s: %w", m.Version, err)
		}
	}
	return nil
}

func (db *DB) applyMigration(ctx context.Context, m sqlstore.Migration) error {
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations WHERE version = ?`, m.Version).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version) VALUES (?)`, m.Version); err != nil {
		return err
	}
	return tx.Commit()
}
