package store

import (
	"context"
	"time"
)

// PoolUse is how one connection pool of a store is used.
type PoolUse struct {
	// Name tells pools of one store apart: "write" and "read" (SQLite),
	// "main" (PostgreSQL).
	Name                   string
	Max, Open, InUse, Idle int
	// WaitCount and WaitDuration add up the waits for a free connection.
	WaitCount    int64
	WaitDuration time.Duration
}

// Operations is what a store tells an operator beyond its data (metrics).
type Operations interface {
	// PoolUse reports the store's connection pools.
	PoolUse() []PoolUse
	// SignalsWithoutVectors counts public signals that have no current
	// vector under vectorModel: the ones waiting to be embedded.
	SignalsWithoutVectors(ctx context.Context, vectorModel string) (int, error)
}
