package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"sync"
)

// readPool is the pool of read-only connections, with the statements it
// runs prepared once: parsing and planning a query costs SQLite more than
// running most of ours (about 60% of the time of a filtered page of
// signals).
type readPool struct {
	*sql.DB

	mu    sync.RWMutex
	stmts map[string]*sql.Stmt
}

// maxStatements bounds the cache. A listing's SQL depends only on which
// filters it has and how many values each holds, all bounded enumerations,
// so real traffic prepares a few dozen; past the bound, queries run
// unprepared.
const maxStatements = 512

// stmt returns the prepared statement of query, or nil when the cache is
// full or query fails to prepare: run unprepared, it then reports its own
// error.
func (p *readPool) stmt(ctx context.Context, query string) *sql.Stmt {
	p.mu.RLock()
	s, ok := p.stmts[query]
	p.mu.RUnlock()
	if ok {
		return s
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if s, ok := p.stmts[query]; ok {
		return s
	}
	if len(p.stmts) >= maxStatements {
		return nil
	}
	s, err := p.DB.PrepareContext(ctx, query)
	if err != nil {
		return nil
	}
	p.stmts[query] = s
	return s
}

// QueryContext runs query as its prepared statement.
func (p *readPool) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if s := p.stmt(ctx, query); s != nil {
		return s.QueryContext(ctx, args...)
	}
	return p.DB.QueryContext(ctx, query, args...)
}

// QueryRowContext runs query as its prepared statement.
func (p *readPool) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if s := p.stmt(ctx, query); s != nil {
		return s.QueryRowContext(ctx, args...)
	}
	return p.DB.QueryRowContext(ctx, query, args...)
}

// Close closes the statements, then the pool.
func (p *readPool) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	var errs []error
	for q, s := range p.stmts {
		errs = append(errs, s.Close())
		delete(p.stmts, q)
	}
	return errors.Join(append(errs, p.DB.Close())...)
}
