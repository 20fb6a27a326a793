// Package postgres implements the store on a PostgreSQL server, for running
// several stateless service processes against one shared database.
//
// The queries it shares with SQLite are in sqlstore, run through pgx's
// database/sql adapter on the same pool. This package holds what several
// processes sharing one database need: every decision that must be exact
// across processes (quotas, search slots and flights) is one atomic
// statement, with nothing cached in process memory; and the bulk import and
// vector writes, which pipeline their statements. Times are BIGINT
// nanoseconds plus their digit count, as in the SQLite store, so that
// nanosecond precision survives.
package postgres

import (
	"context"
	"database/sql"
	"embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"slices"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"

	"signals/internal/store"
	"signals/internal/store/sqlstore"
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

// DB is the PostgreSQL store: a connection pool shared by every request.
type DB struct {
	*sqlstore.Queries

	pool *pgxpool.Pool
	// counts runs the counts alone, with synchronous_commit = off.
	counts *pgxpool.Pool
	sql    *sql.DB
	idle   int // database/sql's idle connections
	// migrated lists the migrations Open applied.
	migrated []string
	// dropped is when a dropped connection was last seen (Unix
	// nanoseconds): connections of database/sql last checked before then
	// are checked before their next use (shouldPing).
	dropped atomic.Int64

	// gens holds the generations while the listener is up (nil otherwise),
	// and stale tells that this process wrote since (generations.go).
	gens     atomic.Pointer[generationPair]
	stale    atomic.Bool
	listener atomic.Uint32 // the listener's server process id
	stop     context.CancelFunc
	watched  chan struct{} // closed when the listener has stopped
}

var _ store.Store = (*DB)(nil)

// CheckURL reports what is wrong with a connection URL, without
// connecting; the error hides the URL's password.
func CheckURL(url string) error {
	_, err := pgxpool.ParseConfig(url)
	return err
}

// Open connects to the database at url (postgres:// or postgresql://, with
// any pgx parameter such as pool_max_conns or search_path), applies pending
// migrations and returns the store.
func Open(ctx context.Context, url string) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, sqlstore.Wrap("open postgres", err)
	}
	migrated, err := migrate(ctx, cfg.ConnConfig.Copy())
	if err != nil {
		return nil, sqlstore.Wrap("migrate postgres", err)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, sqlstore.Wrap("open postgres", err)
	}
	// The counts (quotas.go) have a pool of their own, whose sessions commit
	// without waiting for the disk; nothing else runs on it.
	countCfg := cfg.Copy()
	countCfg.ConnConfig.RuntimeParams["synchronous_commit"] = "off"
	counts, err := pgxpool.NewWithConfig(ctx, countCfg)
	if err != nil {
		pool.Close()
		return nil, sqlstore.Wrap("open postgres", err)
	}
	db := &DB{pool: pool, counts: counts, migrated: migrated, watched: make(chan struct{})}
	db.sql = stdlib.OpenDBFromPool(pool, stdlib.OptionShouldPing(db.shouldPing))
	// database/sql keeps up to half of the pool's connections between
	// queries instead of taking one from the pool for each; the other half
	// stays free for what this package runs on the pool directly (quotas,
	// leases, imports), which database/sql therefore cannot starve.
	db.idle = max(1, int(cfg.MaxConns)/2)
	db.sql.SetMaxIdleConns(db.idle)
	// The shared queries run every read and write once more on a dropped
	// connection where that is safe (db.retry).
	db.Queries = sqlstore.New(db.sql, db.sql, sqlstore.Dialect{
		Numbered:   true,
		PublicOnly: publicOnly,
		Position:   "strpos",
		LockRow:    " FOR UPDATE",
		SignalKey:  "id",
		VectorKey:  "signal_id",
		Vectors:    vectors,
		IDsFirst:   true, // the listing index covers every filter column (0005)
		Substrings: substrings,
		Constraint: constraint,
		ExecBatch:  db.execBatch,
		Retry:      db.retry,
		Committed:  db.wrote,
	})
	watchCtx, stop := context.WithCancel(context.WithoutCancel(ctx))
	db.stop = stop
	go db.watchGenerations(watchCtx, cfg.ConnConfig.Copy())
	return db, nil
}

// publicOnly is the predicate of the partial listing indexes (0005): the
// signals a listing shows.
const publicOnly = `status = 'public' AND NOT market_only`

// vectors are REAL[], read in their binary form (array_send), since the
// database/sql adapter returns arrays as text.
var vectors = sqlstore.Vectors{
	Select: "array_send(v.vector)",
	Encode: func(v []float32) any { return v },
	Decode: decodeFloat4Array,
}

// decodeFloat4Array reads a one-dimensional REAL[] without NULLs in
// PostgreSQL's binary array format: the number of dimensions, a NULL flag
// and the element type; the length and lower bound of each dimension; then
// each element as its length and its big-endian value.
func decodeFloat4Array(b []byte) ([]float32, error) {
	if b == nil {
		return nil, nil
	}
	be := binary.BigEndian
	if len(b) < 12 || be.Uint32(b[8:]) != pgtype.Float4OID {
		return nil, errors.New("a stored vector is not a REAL[]")
	}
	switch ndim := be.Uint32(b); {
	case ndim == 0:
		return []float32{}, nil
	case ndim != 1 || len(b) < 20:
		return nil, fmt.Errorf("a stored vector has %d dimensions", ndim)
	}
	n := int(be.Uint32(b[12:]))
	elems := b[20:]
	if len(elems) != 8*n {
		return nil, errors.New("a stored vector holds NULLs or is cut short")
	}
	v := make([]float32, n)
	for i := range v {
		v[i] = math.Float32frombits(be.Uint32(elems[8*i+4:]))
	}
	return v, nil
}

// constraint translates PostgreSQL's constraint errors into the store's.
func constraint(err error) error {
	switch {
	case hasCode(err, codeUniqueViolation):
		return store.ErrExists
	case hasCode(err, codeForeignKeyViolation):
		return store.ErrNotFound
	}
	return err
}

// execBatch runs query once per element of args, pipelined in one round
// trip, in one transaction.
func (db *DB) execBatch(ctx context.Context, query string, args [][]any) error {
	var b pgx.Batch
	for _, a := range args {
		b.Queue(query, a...)
	}
	defer db.wrote()
	return db.inTx(ctx, func(tx pgx.Tx) error {
		return tx.SendBatch(ctx, &b).Close()
	})
}

// Close closes every connection of the pool.
func (db *DB) Close() error {
	db.stop()
	<-db.watched
	err := db.sql.Close()
	db.pool.Close()
	db.counts.Close()
	return err
}

// migrationLock is the first key of the advisory lock held while migrating;
// the second is derived from the schema, so that different schemas of one
// database migrate independently.
const migrationLock = 0x5167_6e61 // "Sgna"

// migrate applies the embedded migrations that the database has not
// recorded yet, each in its own transaction, under a session advisory lock so
// that processes starting together apply each one exactly once. It uses its
// own connection, closed at the end, so the lock never outlives it.
func migrate(ctx context.Context, cfg *pgx.ConnConfig) (migrated []string, err error) {
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	defer conn.Close(context.WithoutCancel(ctx))

	var encoding string
	if err := conn.QueryRow(ctx, `SHOW server_encoding`).Scan(&encoding); err != nil {
		return nil, err
	}
	if encoding != "UTF8" {
		// Text cuts and substring matches count code points; only UTF8
		// databases do.
		return nil, fmt.Errorf("database encoding is %s; signals needs a UTF8 database", encoding)
	}
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1, hashtext(current_schema()))`, migrationLock); err != nil {
		return nil, err
	}
	appliedBy, applied, err := appliedMigrations(ctx, conn)
	if err != nil {
		return nil, err
	}
	all, err := sqlstore.Migrations(schema, "migrations")
	if err != nil {
		return nil, err
	}
	if err := sqlstore.CheckKnown(appliedBy, all); err != nil {
		return nil, err
	}
	for _, m := range all {
		if slices.Contains(applied, m.Version) {
			continue
		}
		renumbered := slices.ContainsFunc(m.Was, func(v string) bool { return slices.Contains(applied, v) })
		err = pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			// Simple protocol: a migration holds several statements.
			if !renumbered {
				if _, err := tx.Exec(ctx, m.SQL, pgx.QueryExecModeSimpleProtocol); err != nil {
					return err
				}
			}
			_, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, applied_ns, applied_by) VALUES ($1, $2, $3)`,
				m.Version, time.Now().UnixNano(), sqlstore.AppliedBy())
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m.Version, err)
		}
		if !renumbered {
			migrated = append(migrated, m.Version)
		}
	}
	_, err = conn.Exec(ctx, `SELECT pg_advisory_unlock($1, hashtext(current_schema()))`, migrationLock)
	return migrated, err
}

// appliedMigrations creates the table that records migrations where it is
// missing, and reads it: the build that applied each migration (for the
// refusal of an older build, sqlstore.CheckKnown; "" for rows from before
// it was kept), and the versions applied.
func appliedMigrations(ctx context.Context, conn *pgx.Conn) (map[string]string, []string, error) {
	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version TEXT PRIMARY KEY, applied_ns BIGINT NOT NULL)`); err != nil {
		return nil, nil, err
	}
	// Altered once: an ALTER TABLE takes the table's strongest lock even
	// when it has nothing to do.
	var recorded bool
	if err := conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM information_schema.columns
		WHERE table_schema = current_schema() AND table_name = 'schema_migrations' AND column_name = 'applied_by')`).Scan(&recorded); err != nil {
		return nil, nil, err
	}
	if !recorded {
		if _, err := conn.Exec(ctx, `ALTER TABLE schema_migrations ADD COLUMN applied_by TEXT`); err != nil {
			return nil, nil, err
		}
	}
	rows, err := conn.Query(ctx, `SELECT version, coalesce(applied_by, '') FROM schema_migrations`)
	if err != nil {
		return nil, nil, err
	}
	appliedBy := map[string]string{}
	var applied []string
	var version, by string
	_, err = pgx.ForEachRow(rows, []any{&version, &by}, func() error {
		appliedBy[version] = by
		applied = append(applied, version)
		return nil
	})
	return appliedBy, applied, err
}

// Migrated implements store.Store.
func (db *DB) Migrated() []string { return db.migrated }

// PostgreSQL error codes the store translates.
const (
	codeUniqueViolation     = "23505"
	codeForeignKeyViolation = "23503"
)

func hasCode(err error, code string) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == code
}
