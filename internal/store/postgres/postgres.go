// Package postgres implements the store on a PostgreSQL server, for running
// several stateless service processes against one shared database.
//
// Every decision that must be exact across processes (quotas) is one atomic
// statement; nothing is cached in process memory. Times are BIGINT
// nanoseconds plus their digit count, as in the SQLite store, so that
// nanosecond precision survives.
package postgres

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"signals/internal/store"
)

//go:embed migrations/*.sql
var migrations embed.FS

// DB is the PostgreSQL store: a connection pool shared by every request.
type DB struct {
	pool *pgxpool.Pool
}

var _ store.Store = (*DB)(nil)

// Open connects to the database at url (postgres:// or postgresql://, with
// any pgx parameter such as pool_max_conns or search_path), applies pending
// migrations and returns the store.
func Open(ctx context.Context, url string) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	if err := migrate(ctx, cfg.ConnConfig.Copy()); err != nil {
		return nil, fmt.Errorf("postgres: migrate: %w", err)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	return &DB{pool: pool}, nil
}

// Close closes every connection of the pool.
func (db *DB) Close() error {
	db.pool.Close()
	return nil
}

// Ping checks that the database answers.
func (db *DB) Ping(ctx context.Context) error {
	return db.pool.Ping(ctx)
}

// migrationLock is the first key of the advisory lock held while migrating;
// the second is derived from the schema, so that different schemas of one
// database migrate independently.
const migrationLock = 0x5167_6e61 // "Sgna"

// migrate applies the embedded migrations that the database has not
// recorded yet, each in its own transaction, under a session advisory lock so
// that processes starting together apply each one exactly once. It uses its
// own connection, closed at the end, so the lock never outlives it.
func migrate(ctx context.Context, cfg *pgx.ConnConfig) error {
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))

	var encoding string
	if err := conn.QueryRow(ctx, `SHOW server_encoding`).Scan(&encoding); err != nil {
		return err
	}
	if encoding != "UTF8" {
		// Text cuts and substring matches count code points; only UTF8
		// databases do.
		return fmt.Errorf("database encoding is %s; signals needs a UTF8 database", encoding)
	}
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1, hashtext(current_schema()))`, migrationLock); err != nil {
		return err
	}
	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version TEXT PRIMARY KEY, applied_ns BIGINT NOT NULL)`); err != nil {
		return err
	}
	applied := map[string]bool{}
	rows, err := conn.Query(ctx, `SELECT version FROM schema_migrations`)
	if err != nil {
		return err
	}
	versions, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return err
	}
	for _, v := range versions {
		applied[v] = true
	}
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return err
	}
	sort.Strings(names)
	for _, name := range names {
		version := strings.TrimSuffix(strings.TrimPrefix(name, "migrations/"), ".sql")
		if applied[version] {
			continue
		}
		body, err := migrations.ReadFile(name)
		if err != nil {
			return err
		}
		err = pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			// Simple protocol: a migration holds several statements.
			if _, err := tx.Exec(ctx, string(body), pgx.QueryExecModeSimpleProtocol); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, applied_ns) VALUES ($1, $2)`,
				version, time.Now().UnixNano())
			return err
		})
		if err != nil {
			return fmt.Errorf("%s: %w", version, err)
		}
	}
	_, err = conn.Exec(ctx, `SELECT pg_advisory_unlock($1, hashtext(current_schema()))`, migrationLock)
	return err
}

// querier is what both the pool and a transaction offer, so that helpers
// work inside and outside transactions.
type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

var (
	_ querier = (*pgxpool.Pool)(nil)
	_ querier = (pgx.Tx)(nil)
)

// PostgreSQL error codes the store translates.
const (
	codeUniqueViolation     = "23505"
	codeForeignKeyViolation = "23503"
)

func hasCode(err error, code string) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == code
}

// notFound turns "no rows" into store.ErrNotFound.
func notFound(err error) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return store.ErrNotFound
	}
	return err
}
