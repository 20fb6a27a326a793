// Package sqlstore holds the queries that mean the same in SQLite and
// PostgreSQL, written once on database/sql: the sqlite and postgres stores
// embed Queries and add only what their engines do differently (quota
// counters, search slots and flights, bulk import, migrations).
//
// Queries are written with ? placeholders; Queries rebinds them to $1, $2 …
// for PostgreSQL, so a shared query must not hold a ? anywhere else. The
// few things the two engines spell differently are in Dialect.
package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"

	"signals/internal/store"
)

// Dialect is what the engines spell differently in the shared queries.
type Dialect struct {
	// Numbered is true when the engine's placeholders are $1, $2 … rather
	// than ?.
	Numbered bool
	// PublicOnly is the predicate of the partial listing indexes, spelled
	// as the engine's migrations spell it: a query must repeat it literally
	// for the planner to use them.
	PublicOnly string
	// Position is the function giving the position of a substring in a
	// string, 0 when absent: instr(haystack, needle) or strpos(…).
	Position string
	// LockRow ends a SELECT of rows a transaction is about to change: " FOR
	// UPDATE" where writers run side by side; "" where one writer runs at
	// a time (SQLite).
	LockRow string
	// SignalKey is the column of signals that signal_vectors references in
	// its column VectorKey.
	SignalKey, VectorKey string
	// Vectors is how the engine stores embedding vectors.
	Vectors Vectors
	// IDsFirst makes a listing without a substring find its page's ids
	// first and read only the rows it shows: worth it where the listing
	// index covers every filter column, so that the rows skipped are
	// skipped in the index alone.
	IDsFirst bool
	// Substrings is the engine's substring index over the folded columns
	// (see Substrings).
	Substrings *Substrings
	// Constraint translates the engine's constraint errors: store.ErrExists
	// for a unique key taken, store.ErrNotFound for a missing referenced
	// row, any other error unchanged.
	Constraint func(error) error
	// ExecBatch, when not nil, runs a rebound statement once per element of
	// args in one transaction (PostgreSQL pipelines them in one round trip);
	// otherwise the statement is prepared and run on the writer.
	ExecBatch func(ctx context.Context, query string, args [][]any) error
	// Retry, when not nil, runs fn once more when it failed because the
	// connection dropped, unless the failure is a *CommitError. Every write
	// then runs in a transaction, so that a write that failed before its
	// COMMIT was sent is known not to have happened and can run again.
	Retry func(ctx context.Context, fn func() error) error
	// Committed, when not nil, is called after every transaction of the
	// writer that committed (or may have): PostgreSQL then reads the
	// generations it keeps in memory again.
	Committed func()
}

// A CommitError is a failure while committing: the transaction may have
// committed or not, so it is never run again.
type CommitError struct{ Err error }

func (e *CommitError) Error() string { return "commit: " + e.Err.Error() }

// Unwrap returns the error of the commit.
func (e *CommitError) Unwrap() error { return e.Err }

// Substrings is an engine's full-text index of the signals' folded text,
// author and headline, which narrows a listing by substring (q) down to the
// signals that may hold it. Its documents are the signals published at one
// time, each document keyed by that time, so that reading the index newest
// first reads the listing order. The background indexer fills it from
// signal_text_pending, the times whose signals changed since.
type Substrings struct {
	// From is the index joined to signals, for a listing's FROM, where the
	// index is ordered.
	From string
	// Newest orders the joined rows by the index's key, newest first,
	// which the engine reads in index order.
	Newest string
	// Unordered is true where the index names every candidate whatever
	// the page (a GIN index): a listing then checks the newest signals for
	// the substring before it reads the index's candidates, in one
	// statement, since a page of a common substring is found among them;
	// Match's condition is on signals, and From and Newest are not used.
	// Substrings of one or two characters are checked among the newest on
	// every engine.
	Unordered bool
	// Among is the condition that a signal is one of those a subquery
	// selects, given the subquery from its FROM on (%s): written so that
	// the engine runs the subquery first and checks only those signals.
	Among string
	// Match returns the condition on From (on signals where Unordered)
	// that keeps the documents that may hold the folded substring, with its
	// arguments. ok is false when the index cannot narrow it down; cond is
	// "" when no indexed document holds it. It reads through read.
	Match func(ctx context.Context, read Reader, folded string) (cond string, args []any, ok bool, err error)
}

// Vectors is how an engine stores embedding vectors in the vector column of
// signal_vectors.
type Vectors struct {
	// Select is the expression that reads the column of the row v as the
	// bytes Decode reads.
	Select string
	// Encode returns the value that writes v.
	Encode func(v []float32) any
	// Decode reads a vector; nil when there is none.
	Decode func(b []byte) ([]float32, error)
}

// Reader runs read-only queries: a *sql.DB, or a pool that prepares its
// statements once.
type Reader interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Queries runs the shared queries: reads through read, writes through write
// (the same pool for PostgreSQL; for SQLite a read pool beside the one
// writer connection).
type Queries struct {
	read    Reader
	write   *sql.DB
	dialect Dialect
}

// New returns the shared queries of an engine.
func New(read Reader, write *sql.DB, d Dialect) *Queries {
	return &Queries{read: read, write: write, dialect: d}
}

// bind rewrites the ? placeholders of query for the engine.
func (q *Queries) bind(query string) string {
	if !q.dialect.Numbered {
		return query
	}
	return Rebind(query)
}

// Rebind numbers the ? placeholders of query: $1, $2 ….
func Rebind(query string) string {
	var b strings.Builder
	b.Grow(len(query) + 16)
	for n := 1; ; n++ {
		i := strings.IndexByte(query, '?')
		if i < 0 {
			b.WriteString(query)
			return b.String()
		}
		b.WriteString(query[:i])
		b.WriteByte('$')
		b.WriteString(strconv.Itoa(n))
		query = query[i+1:]
	}
}

// reading runs fn, a read, once more when Dialect.Retry says so: fn must
// start afresh each time.
func (q *Queries) reading(ctx context.Context, fn func() error) error {
	if q.dialect.Retry == nil {
		return fn()
	}
	return q.dialect.Retry(ctx, fn)
}

// readAll runs a read and returns its rows, each read by scan, or none on
// failure; the whole read runs once more on a dropped connection (see
// reading).
func readAll[T any](ctx context.Context, q *Queries, scan func(*sql.Rows) (T, error), query string, args ...any) ([]T, error) {
	var out []T
	err := q.reading(ctx, func() error {
		out = nil
		rows, err := q.read.QueryContext(ctx, q.bind(query), args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			v, err := scan(rows)
			if err != nil {
				return err
			}
			out = append(out, v)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// scanInto returns the scan of readAll for a T whose columns dest lists,
// with what completes a T once they are scanned (see keyDest).
func scanInto[T any](dest func(*T) ([]any, func())) func(*sql.Rows) (T, error) {
	return func(rows *sql.Rows) (T, error) {
		var v T
		d, finish := dest(&v)
		err := rows.Scan(d...)
		finish()
		return v, err
	}
}

// queryRow is a read of one row, run when the row is scanned, and run again
// whole when the connection drops before the row is read to its end. No row
// is store.ErrNotFound.
func (q *Queries) queryRow(ctx context.Context, query string, args ...any) row {
	return row{q: q, ctx: ctx, query: query, args: args}
}

// row is a read of one row that queryRow has yet to run.
type row struct {
	q     *Queries
	ctx   context.Context
	query string
	args  []any
}

// Scan runs the read and reads its row into dest, as sql.Row.Scan does, but
// for store.ErrNotFound when there is no row.
func (r row) Scan(dest ...any) error {
	return notFound(r.q.reading(r.ctx, func() error {
		return r.q.read.QueryRowContext(r.ctx, r.q.bind(r.query), r.args...).Scan(dest...)
	}))
}

// writeRow runs a write that returns a row (RETURNING) on the writer and
// reads the row with scan, which may run again when Retry runs the write
// again. No row is store.ErrNotFound.
func (q *Queries) writeRow(ctx context.Context, scan func(*sql.Row) error, query string, args ...any) error {
	if q.dialect.Retry == nil {
		return notFound(scan(q.write.QueryRowContext(ctx, q.bind(query), args...)))
	}
	return notFound(q.inTx(ctx, func(tx *sql.Tx) error {
		return scan(tx.QueryRowContext(ctx, q.bind(query), args...))
	}))
}

// notFound reads sql.ErrNoRows as store.ErrNotFound.
func notFound(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return store.ErrNotFound
	}
	return err
}

// exec runs a write and returns how many rows it changed.
func (q *Queries) exec(ctx context.Context, query string, args ...any) (int64, error) {
	if q.dialect.Retry == nil {
		return q.execOn(ctx, q.write, query, args...)
	}
	var n int64
	err := q.inTx(ctx, func(tx *sql.Tx) (err error) {
		n, err = q.execOn(ctx, tx, query, args...)
		return err
	})
	return n, err
}

// execer runs writes: the writer, or a transaction of it.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// execOn runs a write on e and returns how many rows it changed.
func (q *Queries) execOn(ctx context.Context, e execer, query string, args ...any) (int64, error) {
	res, err := e.ExecContext(ctx, q.bind(query), args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// changedRow is the outcome of a write that must change a row:
// store.ErrNotFound when it changed none.
func changedRow(n int64, err error) error {
	if err == nil && n == 0 {
		return store.ErrNotFound
	}
	return err
}

// inTx runs fn in a transaction of the writer, committed if fn succeeds.
// With Dialect.Retry, fn may run twice, so it must start afresh each time.
func (q *Queries) inTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	run := func() error {
		tx, err := q.write.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		if err := fn(tx); err != nil {
			return err
		}
		err = tx.Commit()
		if q.dialect.Committed != nil {
			q.dialect.Committed()
		}
		if err != nil {
			return &CommitError{err}
		}
		return nil
	}
	return q.reading(ctx, run)
}

// execEach runs query once per element of args, in one transaction.
func (q *Queries) execEach(ctx context.Context, query string, args [][]any) error {
	query = q.bind(query)
	if q.dialect.ExecBatch != nil {
		return q.dialect.ExecBatch(ctx, query, args)
	}
	return q.inTx(ctx, func(tx *sql.Tx) error {
		stmt, err := tx.PrepareContext(ctx, query)
		if err != nil {
			return err
		}
		defer stmt.Close()
		for _, a := range args {
			if _, err := stmt.ExecContext(ctx, a...); err != nil {
				return err
			}
		}
		return nil
	})
}

// Wrap names the operation that failed, as every store error does
// ("store: list signals: …"); nil stays nil. The message never holds SQL or
// the values queried.
func Wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("store: %s: %w", op, err)
}

// Ping checks that the database answers a query.
func (q *Queries) Ping(ctx context.Context) error {
	var one int
	return Wrap("ping", q.queryRow(ctx, `SELECT 1`).Scan(&one))
}

// Migration is one schema change, named by its file: 0001_init.sql has
// version 0001_init.
type Migration struct {
	Version string
	SQL     string
	// Was names the versions the change was applied under before it was
	// renumbered, from its lines "-- was: VERSION …": a database that
	// applied one of them has it already.
	Was []string
	// Retires names the migrations it replaced, which are no longer in the
	// tree, from its lines "-- retires: VERSION…": a database may hold
	// them, and it undoes what they did.
	Retires []string
}

// Migrations reads the *.sql files of dir in files, in the order their
// names sort, which is the order they apply in.
func Migrations(files fs.FS, dir string) ([]Migration, error) {
	names, err := fs.Glob(files, dir+"/*.sql")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	out := make([]Migration, len(names))
	for i, name := range names {
		body, err := fs.ReadFile(files, name)
		if err != nil {
			return nil, err
		}
		out[i] = Migration{Version: strings.TrimSuffix(strings.TrimPrefix(name, dir+"/"), ".sql"), SQL: string(body)}
		for _, line := range strings.Split(out[i].SQL, "\n") {
			if was, ok := strings.CutPrefix(line, "-- was: "); ok {
				out[i].Was = append(out[i].Was, strings.Fields(was)[0])
			}
			if retires, ok := strings.CutPrefix(line, "-- retires: "); ok {
				out[i].Retires = append(out[i].Retires, strings.Fields(retires)...)
			}
		}
	}
	return known(out), nil
}
