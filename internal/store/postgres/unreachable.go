package postgres

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"
)

// Unreachable reports whether err means that the database could not be
// reached or dropped the connection (the server shut down or restarted, an
// administrator terminated the session, the network failed), rather than
// that a statement failed.
func Unreachable(err error) bool {
	if err == nil {
		return false
	}
	var connectErr *pgconn.ConnectError
	if errors.As(err, &connectErr) {
		return true // whatever the server said, no session could start
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		// Class 08 is connection exception; 57P01 admin_shutdown, 57P02
		// crash_shutdown and 57P03 cannot_connect_now end a session.
		return strings.HasPrefix(pgErr.Code, "08") || pgErr.Code == "57P01" || pgErr.Code == "57P02" || pgErr.Code == "57P03"
	}
	var netErr *net.OpError
	return errors.Is(err, driver.ErrBadConn) || errors.As(err, &netErr) ||
		pgconn.SafeToRetry(err) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.EPIPE) ||
		strings.Contains(err.Error(), "conn closed")
}

// retry runs fn, and once more when it failed because the connection was
// dropped. Before the second run it drops every idle connection, since a
// server that ended one session has usually ended them all, and a
// connection used less than a second ago is reused without a check.
func (db *DB) retry(ctx context.Context, fn func() error) error {
	err := fn()
	if !Unreachable(err) || ctx.Err() != nil {
		return err
	}
	db.dropIdle()
	return fn()
}

// dropIdle closes the idle connections of the pool and of database/sql;
// connections in use are closed when they are returned.
func (db *DB) dropIdle() {
	db.pool.Reset()
	db.sql.SetMaxIdleConns(0)
	db.sql.SetMaxIdleConns(db.idle)
}

// retryingReader runs the shared reads with one retry on a dropped
// connection. Reads change nothing, so running one twice is safe.
type retryingReader struct{ db *DB }

func (r retryingReader) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	var rows *sql.Rows
	err := r.db.retry(ctx, func() error {
		var err error
		rows, err = r.db.sql.QueryContext(ctx, query, args...)
		return err
	})
	return rows, err
}

func (r retryingReader) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	var row *sql.Row
	r.db.retry(ctx, func() error {
		row = r.db.sql.QueryRowContext(ctx, query, args...)
		return row.Err()
	})
	return row
}
