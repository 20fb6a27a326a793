package postgres

import (
	"github.com/jackc/pgx/v5/pgxpool"

	"signals/internal/store"
)

var _ store.Operations = (*DB)(nil)

// PoolUse reports the connection pool.
func (db *DB) PoolUse() []store.PoolUse {
	use := func(name string, p *pgxpool.Pool) store.PoolUse {
		s := p.Stat()
		return store.PoolUse{Name: name, Max: int(s.MaxConns()), Open: int(s.TotalConns()),
			InUse: int(s.AcquiredConns()), Idle: int(s.IdleConns()),
			WaitCount: s.EmptyAcquireCount(), WaitDuration: s.EmptyAcquireWaitTime()}
	}
	return []store.PoolUse{use("main", db.pool), use("counts", db.counts)}
}
