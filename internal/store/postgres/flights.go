package postgres

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// claimSQL takes the key when nobody holds it or the holder's lease has
// passed, in one statement, so two processes never both get it.
const claimSQL = `INSERT INTO search_flights (key, token, expires_ns) VALUES ($1, $2, $3)
	ON CONFLICT (key) DO UPDATE SET token = excluded.token, expires_ns = excluded.expires_ns
	WHERE search_flights.expires_ns <= $4
	RETURNING token`

// ClaimSearch claims key across every process sharing the database.
func (db *DB) ClaimSearch(ctx context.Context, key string, now time.Time, lease time.Duration) (func(), bool, error) {
	token := newToken()
	var got string
	err := db.pool.QueryRow(ctx, claimSQL, key, token, now.Add(lease).UnixNano(), now.UnixNano()).Scan(&got)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return db.releaser(ctx, `DELETE FROM search_flights WHERE key = $1 AND token = $2`, key, token), got == token, nil
}

// newToken identifies one holder of a lease.
func newToken() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// releaser returns a function that runs sql once, best effort: if it
// fails, the lease it ends runs out anyway.
func (db *DB) releaser(ctx context.Context, sql string, args ...any) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			defer cancel()
			db.pool.Exec(ctx, sql, args...)
		})
	}
}
