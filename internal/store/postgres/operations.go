package postgres

import (
	"signals/internal/store"
)

var _ store.Operations = (*DB)(nil)

// PoolUse reports the connection pool.
func (db *DB) PoolUse() []store.PoolUse {
	s := db.pool.Stat()
	return []store.PoolUse{{Name: "main", Max: int(s.MaxConns()), Open: int(s.TotalConns()),
		InUse: int(s.AcquiredConns()), Idle: int(s.IdleConns()),
		WaitCount: s.EmptyAcquireCount(), WaitDuration: s.EmptyAcquireWaitTime()}}
}
