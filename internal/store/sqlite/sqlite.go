// Package sqlite implements the store on an embedded SQLite database file.
// The queries it shares with PostgreSQL are in sqlstore; this package holds
// what one embedded file served by one process does differently: quota
// counters, search slots and claims kept in memory, and the import.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"time"

	sqlitedriver "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"signals/internal/store"
	"signals/internal/store/sqlstore"
)

// SQLite's page cache is per connection: 32 MB for the one writer, 8 MB for
// each of the readers (the operating system caches the file for all), and
// a few pages for each connection that reads the generations alone.
const (
	writerCacheSize     = "-32000"
	readerCacheSize     = "-8000"
	readers             = 8
	generationCacheSize = "-100"
	generationConns     = 2
)

//go:embed migrations/*.sql
var migrations embed.FS

// schema holds the migrations Open applies: migrations, but in a test of
// an upgrade from an earlier schema.
var schema fs.FS = migrations

// SchemaVersion is the schema version this build expects: its newest
// migration.
func SchemaVersion() string {
	all, err := sqlstore.Migrations(migrations, "migrations")
	if err != nil {
		panic(err) // embedded at build time: read once by its tests
	}
	return sqlstore.Newest(all)
}

// dialect is how SQLite spells what the shared queries need.
var dialect = sqlstore.Dialect{
	PublicOnly: `status = 'public' AND market_only = 0`,
	Position:   "instr",
	SignalKey:  "pk", // the rowid: a smaller key than the id
	VectorKey:  "signal_pk",
	Vectors:    littleEndian,
	Substrings: substrings,
	Constraint: constraint,
}

// constraint translates SQLite's constraint errors into the store's.
func constraint(err error) error {
	var e *sqlitedriver.Error
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
	gens     *generationReaders
	counters counters
	leases   leases

	// migrated lists the migrations Open applied.
	migrated []string

	path      string
	serveLock *os.File
	closeOnce sync.Once
	closeErr  error
}

var _ store.Store = (*DB)(nil)

// Open opens (creating if needed) the database file at path and applies
// pending migrations.
func Open(ctx context.Context, path string) (*DB, error) {
	dsn := func(cacheSize string) string {
		return fileDSN(path, "journal_mode(WAL)", "foreign_keys(1)", "busy_timeout(10000)", "synchronous(NORMAL)", "cache_size("+cacheSize+")")
	}
	write, err := sql.Open("sqlite", dsn(writerCacheSize)+"&_txlock=immediate")
	if err != nil {
		return nil, sqlstore.Wrap("open "+path, err)
	}
	write.SetMaxOpenConns(1)
	write.SetConnMaxIdleTime(0)
	db := &DB{write: write, path: path,
		counters: counters{accounts: map[int64]*account{}},
		leases:   leases{running: map[int64]int{}, claims: map[string]*time.Time{}}}
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
	db.read = &readPool{DB: read, stmts: map[string]*sql.Stmt{}}
	if db.gens, err = openGenerationReaders(ctx, dsn(generationCacheSize)+"&mode=ro", path+"-shm", generationConns); err != nil {
		return nil, sqlstore.Wrap("open "+path, errors.Join(err, db.read.Close(), write.Close()))
	}
	db.Queries = sqlstore.New(db.read, write, dialect)
	return db, nil
}

// ReleaseMemory gives back the page caches a long pass over the archive
// filled, up to writerCacheSize for the writer and readerCacheSize for each
// reader: the writer's by SQLite's shrink_memory, the readers' by closing
// the idle read connections (the pool opens new ones as reads need them).
func (db *DB) ReleaseMemory(ctx context.Context) error {
	_, err := db.write.ExecContext(ctx, `PRAGMA shrink_memory`)
	db.read.SetMaxIdleConns(0)
	db.read.SetMaxIdleConns(readers)
	return sqlstore.Wrap("release memory", err)
}

// Close writes the counters not written yet and closes both connection
// pools; closing again does nothing.
func (db *DB) Close() error {
	db.closeOnce.Do(func() {
		db.closeErr = errors.Join(db.closeCounters(), db.gens.Close(), db.read.Close(), db.write.Close())
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
	// The build that applied each migration, for the refusal of an older
	// build (sqlstore.CheckKnown); rows from before it was kept hold NULL.
	var recorded int
	if err := db.write.QueryRowContext(ctx,
		`SELECT count(*) FROM pragma_table_info('schema_migrations') WHERE name = 'applied_by'`).Scan(&recorded); err != nil {
		return err
	}
	if recorded == 0 {
		if _, err := db.write.ExecContext(ctx, `ALTER TABLE schema_migrations ADD COLUMN applied_by TEXT`); err != nil {
			return err
		}
	}
	all, err := sqlstore.Migrations(schema, "migrations")
	if err != nil {
		return err
	}
	applied := map[string]string{}
	rows, err := db.write.QueryContext(ctx, `SELECT version, coalesce(applied_by, '') FROM schema_migrations`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var v, by string
		if err := rows.Scan(&v, &by); err != nil {
			rows.Close()
			return err
		}
		applied[v] = by
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return err
	}
	if err := sqlstore.CheckKnown(applied, all); err != nil {
		return err
	}
	for _, m := range all {
		ran, err := db.applyMigration(ctx, m)
		if err != nil {
			return fmt.Errorf("%s: %w", m.Version, err)
		}
		if ran {
			db.migrated = append(db.migrated, m.Version)
		}
	}
	return nil
}

// applyMigration runs m in a transaction and records its version, unless
// it is applied; applied under a version it was renumbered from, only its
// version is recorded. It reports whether it ran m.
func (db *DB) applyMigration(ctx context.Context, m sqlstore.Migration) (bool, error) {
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	// The versions m was applied under before, as a JSON array ([] for none).
	was, _ := json.Marshal(append([]string{}, m.Was...))
	var applied, renumbered int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FILTER (WHERE version = ?), count(*) FILTER (WHERE version IN (SELECT value FROM json_each(?)))
		FROM schema_migrations`, m.Version, string(was)).Scan(&applied, &renumbered); err != nil {
		return false, err
	}
	if applied > 0 {
		return false, nil
	}
	if renumbered == 0 {
		if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
			return false, err
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, applied_by) VALUES (?, ?)`, m.Version, sqlstore.AppliedBy()); err != nil {
		return false, err
	}
	return renumbered == 0, tx.Commit()
}

// Migrated implements store.Store.
func (db *DB) Migrated() []string { return db.migrated }
