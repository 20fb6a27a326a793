package postgres

import (
	"context"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"

	"signals/internal/store/sqlstore"
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

// retry runs fn, and again while it fails because the connection was
// dropped, unless fn may have committed what it wrote: up to attempts runs,
// and none started retryFor after the first. Before each new run it drops
// every idle connection, since a server that ended one session has usually
// ended them all, and a connection used less than a second ago is reused
// without a check. A server that is ending sessions (a restart in
// progress, an administrator ending a role's sessions) may end the new one
// too before its statement ran, most of all while statements queue for a
// connection; a database that cannot be reached fails each run at once, so
// the request is still answered 503 quickly.
func (db *DB) retry(ctx context.Context, fn func() error) error {
	start := time.Now()
	err := fn()
	for range attempts - 1 {
		if !Unreachable(err) || ctx.Err() != nil || mayHaveCommitted(err) || time.Since(start) > retryFor {
			return err
		}
		db.dropIdle()
		err = fn()
	}
	return err
}

// attempts and retryFor bound the runs of a statement whose connection
// dropped.
const (
	attempts = 8
	retryFor = 2 * time.Second
)

// mayHaveCommitted tells whether err leaves it unknown if a transaction
// committed: its COMMIT was sent and no answer came back (the connection
// broke). A COMMIT that the server answered with an error did not commit,
// whatever the error: PostgreSQL holds off a termination from the commit
// record to the end of the commit, so a session ended while committing
// either ends before the commit (and says so) or after it has answered
// COMMIT. (A wait for synchronous replication ended by a termination is
// the exception, and the server sends nothing then.)
func mayHaveCommitted(err error) bool {
	var commit *sqlstore.CommitError
	var pgErr *pgconn.PgError
	return errors.As(err, &commit) && !errors.As(commit.Err, &pgErr)
}

// inTx runs fn in a transaction on the pool, committed if fn succeeds, and
// runs it again on a new connection when the connection dropped before the
// COMMIT was sent: the transaction then did not happen. fn must start
// afresh each time. Every write on the pool goes through it, so that a
// dropped connection costs no request and applies no write twice.
func (db *DB) inTx(ctx context.Context, fn func(tx pgx.Tx) error) error {
	return db.retry(ctx, func() error {
		tx, err := db.pool.Begin(ctx)
		if err != nil {
			return err
		}
		defer tx.Rollback(context.WithoutCancel(ctx))
		if err := fn(tx); err != nil {
			return err
		}
		if err := tx.Commit(ctx); err != nil {
			return &sqlstore.CommitError{Err: err}
		}
		return nil
	})
}

// dropIdle closes the idle connections of the pool and of database/sql;
// connections in use are closed when they are returned to the pool, and
// checked when database/sql uses them again (see shouldPing).
func (db *DB) dropIdle() {
	db.dropped.Store(time.Now().UnixNano())
	db.pool.Reset()
	db.counts.Reset()
	db.sql.SetMaxIdleConns(0)
	db.sql.SetMaxIdleConns(db.idle)
}

// shouldPing tells database/sql's adapter to check a connection before
// reusing it when it was idle for over a second, as by default, or was
// last checked before a dropped connection was seen: the server that ended
// one session has likely ended this one too, and a retry must not run on
// it. That covers a connection that was in use when the drop was seen, and
// so missed dropIdle. Each connection is then checked once per drop.
func (db *DB) shouldPing(_ context.Context, p stdlib.ShouldPingParams) bool {
	data := p.Conn.PgConn().CustomData()
	checked, _ := data[checkedKey].(int64)
	if p.IdleDuration > time.Second || checked <= db.dropped.Load() {
		data[checkedKey] = time.Now().UnixNano()
		return true
	}
	return false
}

// checkedKey holds, in a connection's custom data, when it was last
// checked (Unix nanoseconds).
const checkedKey = "signals.checked"
