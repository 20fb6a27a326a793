package postgres

import (
	"context"
	"crypto/rand"
	"errors"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"signals/internal/store"
	"signals/internal/store/sqlstore"
)

// Leases bound what a process holds in the shared database (a search slot,
// a claim on a search), so that a process that dies mid-search frees it
// when its lease passes.

// acquireSlotSQL keeps the account's unexpired leases ($2 is now) and adds
// lease $3 ending at $4 if fewer than $5 remain, in one locked upsert; no
// row comes back when every slot is taken.
const acquireSlotSQL = `
INSERT INTO search_slots AS s (account_id, leases)
SELECT $1, jsonb_build_object($3::text, $4::bigint) WHERE $5::int > 0
ON CONFLICT (account_id) DO UPDATE SET
	leases = (SELECT coalesce(jsonb_object_agg(key, value), '{}'::jsonb)
		FROM jsonb_each(s.leases) WHERE value::bigint > $2::bigint) || excluded.leases
WHERE (SELECT count(*) FROM jsonb_each(s.leases) WHERE value::bigint > $2) < $5
RETURNING true`

// AcquireSearchSlot takes one of the account's concurrent search slots,
// shared by every process, until release or the end of the lease.
func (db *DB) AcquireSearchSlot(ctx context.Context, accountID int64, max int, now time.Time, lease time.Duration) (func(), bool, error) {
	id := rand.Text()
	var ok bool
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		return tx.QueryRow(ctx, acquireSlotSQL, accountID, now.UnixNano(), id, now.Add(lease).UnixNano(), max).Scan(&ok)
	})
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, false, nil
	case hasCode(err, codeForeignKeyViolation):
		return nil, false, sqlstore.Wrap("acquire search slot", store.ErrNotFound)
	case err != nil:
		return nil, false, sqlstore.Wrap("acquire search slot", err)
	}
	return db.releaser(ctx, `UPDATE search_slots SET leases = leases - $2::text WHERE account_id = $1`, accountID, id), true, nil
}

// claimSQL takes the key when nobody holds it or the holder's lease has
// passed, in one statement, so two processes never both get it.
const claimSQL = `INSERT INTO search_flights (key, token, expires_ns) VALUES ($1, $2, $3)
	ON CONFLICT (key) DO UPDATE SET token = excluded.token, expires_ns = excluded.expires_ns
	WHERE search_flights.expires_ns <= $4
	RETURNING token`

// ClaimSearch claims key across every process sharing the database.
func (db *DB) ClaimSearch(ctx context.Context, key string, now time.Time, lease time.Duration) (func(), bool, error) {
	token := rand.Text()
	var got string
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		return tx.QueryRow(ctx, claimSQL, key, token, now.Add(lease).UnixNano(), now.UnixNano()).Scan(&got)
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, sqlstore.Wrap("claim search", err)
	}
	return db.releaser(ctx, `DELETE FROM search_flights WHERE key = $1 AND token = $2`, key, token), got == token, nil
}

// releaser returns a function that runs sql once, best effort (retried
// once on a dropped connection): if it fails, the lease it ends runs out
// anyway.
func (db *DB) releaser(ctx context.Context, sql string, args ...any) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			defer cancel()
			db.inTx(ctx, func(tx pgx.Tx) error {
				_, err := tx.Exec(ctx, sql, args...)
				return err
			})
		})
	}
}
