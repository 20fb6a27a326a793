package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"os"
	"sync/atomic"

	"signals/internal/store/sqlstore"
)

// Every request reads the signals' and credentials' generations, to know
// whether the key and list it has cached still hold; another process (an
// operator command) may have moved them, so they are read from the file
// each time. The read itself is two rows of two one-row tables, and
// database/sql's pool, statement cache and conversions cost as much as
// SQLite's own work on it: generationReaders run it on connections of
// their own, as a statement prepared once on each, through the driver.

// Reading them from the file still costs a read transaction of SQLite,
// whose locks are system calls, and the connection's round of the driver:
// more than the rest of a cached request. So a read first looks at the
// header of the WAL index, the first 96 bytes of the -shm file, which SQLite
// rewrites at every commit of any connection of any process (its two
// copies hold the transaction counter, the last frame and their checksums;
// https://www.sqlite.org/walformat.html). While it is the one seen at the
// last read, nothing was committed since and the generations read then
// still hold; once it differs, they are read again. The header is read
// before the generations, so that a commit between the two only makes the
// next request read again. Without the -shm file (another journal mode, a
// file system that has none) every request reads them.

// walIndexHeader is the size of the WAL index header's two copies.
const walIndexHeader = 96

// seenGenerations are the generations read while the WAL index header was
// header.
type seenGenerations struct {
	header               [walIndexHeader]byte
	signals, credentials int64
}

// generationQuery reads both generations in one statement.
const generationQuery = `SELECT s.n, c.n FROM signal_generation s, credential_generation c WHERE s.id = 1 AND c.id = 1`

// generationReaders is a few read connections, each with generationQuery
// prepared on it, taken in turn by requests.
type generationReaders struct {
	db     *sql.DB
	conns  chan generationConn
	closed chan struct{}

	// shm is the database's -shm file, nil without one; seen is the last
	// read and the header it was read under.
	shm  *os.File
	seen atomic.Pointer[seenGenerations]
}

// errClosed is a read after Close.
var errClosed = errors.New("the database is closed")

type generationConn struct {
	conn *sql.Conn
	stmt driver.Stmt
}

// openGenerationReaders opens n connections by dsn and prepares the query
// on each; shm is the database's -shm file, read if it can be opened.
func openGenerationReaders(ctx context.Context, dsn, shm string, n int) (*generationReaders, error) {
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(n)
	db.SetMaxIdleConns(n)
	g := &generationReaders{db: db, conns: make(chan generationConn, n), closed: make(chan struct{})}
	for range n {
		conn, err := db.Conn(ctx)
		if err != nil {
			return nil, errors.Join(err, g.Close())
		}
		c := generationConn{conn: conn}
		err = conn.Raw(func(dc any) error {
			prep, ok := dc.(driver.ConnPrepareContext)
			if !ok {
				return fmt.Errorf("the SQLite driver's connection %T cannot prepare with a context", dc)
			}
			c.stmt, err = prep.PrepareContext(ctx, generationQuery)
			return err
		})
		if err != nil {
			return nil, errors.Join(err, conn.Close(), g.Close())
		}
		g.conns <- c
	}
	if f, err := os.Open(shm); err == nil {
		g.shm = f
	}
	return g, nil
}

// header reads the WAL index header; ok is false when it cannot.
func (g *generationReaders) header() (h [walIndexHeader]byte, ok bool) {
	if g.shm == nil {
		return h, false
	}
	n, err := g.shm.ReadAt(h[:], 0)
	return h, err == nil && n == len(h)
}

// generations returns the generations read last when nothing was
// committed since, and reads them otherwise.
func (g *generationReaders) generations(ctx context.Context) (signals, credentials int64, err error) {
	h, ok := g.header()
	if seen := g.seen.Load(); ok && seen != nil && seen.header == h {
		return seen.signals, seen.credentials, nil
	}
	if signals, credentials, err = g.read(ctx); err == nil && ok {
		g.seen.Store(&seenGenerations{header: h, signals: signals, credentials: credentials})
	}
	return signals, credentials, err
}

// read runs the query on one of the connections, waiting for one to be free.
func (g *generationReaders) read(ctx context.Context) (signals, credentials int64, err error) {
	var c generationConn
	select {
	case c = <-g.conns:
	case <-ctx.Done():
		return 0, 0, ctx.Err()
	case <-g.closed:
		return 0, 0, errClosed
	}
	defer func() { g.conns <- c }()
	err = c.conn.Raw(func(any) error {
		rows, err := c.stmt.(driver.StmtQueryContext).QueryContext(ctx, nil)
		if err != nil {
			return err
		}
		dest := make([]driver.Value, 2)
		err = rows.Next(dest)
		err = errors.Join(err, rows.Close())
		if err != nil {
			return err
		}
		var ok1, ok2 bool
		signals, ok1 = dest[0].(int64)
		credentials, ok2 = dest[1].(int64)
		if !ok1 || !ok2 {
			return fmt.Errorf("the generations are %T and %T, not integers", dest[0], dest[1])
		}
		return nil
	})
	return signals, credentials, err
}

// Close closes the statements and connections; a read after it fails. The
// readers must be idle.
func (g *generationReaders) Close() error {
	close(g.closed)
	var errs []error
	for len(g.conns) > 0 {
		c := <-g.conns
		errs = append(errs, c.conn.Raw(func(any) error { return c.stmt.Close() }), c.conn.Close())
	}
	if g.shm != nil {
		errs = append(errs, g.shm.Close())
	}
	return errors.Join(append(errs, g.db.Close())...)
}

// Generations reads the signals' and the credentials' generations.
func (db *DB) Generations(ctx context.Context) (signals, credentials int64, err error) {
	signals, credentials, err = db.gens.generations(ctx)
	return signals, credentials, sqlstore.Wrap("read generations", err)
}
