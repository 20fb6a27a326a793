package postgres

import (
	"context"
	"errors"
	"strings"
	"time"

	"signals/internal/model"
	"signals/internal/store"
)

const accountColumns = `id, email, verified_ns, created_ns, daily_requests, minute_requests,
	daily_searches, concurrent_searches`

func scanAccount(row interface{ Scan(...any) error }) (model.Account, error) {
	var a model.Account
	var verified, created int64
	err := row.Scan(&a.ID, &a.Email, &verified, &created, &a.Limits.DailyRequests,
		&a.Limits.MinuteRequests, &a.Limits.DailySearches, &a.Limits.ConcurrentSearches)
	a.VerifiedAt, a.CreatedAt = time.Unix(0, verified).UTC(), time.Unix(0, created).UTC()
	return a, notFound(err)
}

// CreateAccount creates a verified account with the initial limits.
func (db *DB) CreateAccount(ctx context.Context, email string, now time.Time) (model.Account, error) {
	l := model.InitialLimits
	row := db.pool.QueryRow(ctx, `INSERT INTO accounts (email, verified_ns, created_ns,
		daily_requests, minute_requests, daily_searches, concurrent_searches)
		VALUES ($1, $2, $2, $3, $4, $5, $6) ON CONFLICT (email) DO NOTHING RETURNING `+accountColumns,
		strings.ToLower(email), now.UnixNano(),
		l.DailyRequests, l.MinuteRequests, l.DailySearches, l.ConcurrentSearches)
	a, err := scanAccount(row)
	if errors.Is(err, store.ErrNotFound) {
		return a, store.ErrExists
	}
	return a, err
}

// AccountByEmail finds an account by its email.
func (db *DB) AccountByEmail(ctx context.Context, email string) (model.Account, error) {
	return scanAccount(db.pool.QueryRow(ctx,
		`SELECT `+accountColumns+` FROM accounts WHERE email = $1`, strings.ToLower(email)))
}

// Account finds an account by id.
func (db *DB) Account(ctx context.Context, id int64) (model.Account, error) {
	return scanAccount(db.pool.QueryRow(ctx,
		`SELECT `+accountColumns+` FROM accounts WHERE id = $1`, id))
}

// SetLimits replaces an account's limits.
func (db *DB) SetLimits(ctx context.Context, accountID int64, l model.Limits) error {
	tag, err := db.pool.Exec(ctx, `UPDATE accounts SET daily_requests = $1, minute_requests = $2,
		daily_searches = $3, concurrent_searches = $4 WHERE id = $5`,
		l.DailyRequests, l.MinuteRequests, l.DailySearches, l.ConcurrentSearches, accountID)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return store.ErrNotFound
	}
	return nil
}

// CreateKey stores a key description and its hash; ErrExists if the id or
// the hash is taken, ErrNotFound if the account does not exist.
func (db *DB) CreateKey(ctx context.Context, k model.APIKey, hash []byte) error {
	_, err := db.pool.Exec(ctx, `INSERT INTO api_keys (id, account_id, name, hint, hash, created_ns)
		VALUES ($1, $2, $3, $4, $5, $6)`, k.ID, k.AccountID, k.Name, k.Hint, hash, k.CreatedAt.UnixNano())
	switch {
	case hasCode(err, codeUniqueViolation):
		return store.ErrExists
	case hasCode(err, codeForeignKeyViolation):
		return store.ErrNotFound
	}
	return err
}

const keyColumns = `k.id, k.account_id, k.name, k.hint, k.created_ns, k.last_used_ns, k.revoked_ns`

func scanKey(row interface{ Scan(...any) error }, extra ...any) (model.APIKey, error) {
	var k model.APIKey
	var created int64
	var used, revoked *int64
	err := row.Scan(append([]any{&k.ID, &k.AccountID, &k.Name, &k.Hint, &created, &used, &revoked}, extra...)...)
	k.CreatedAt = time.Unix(0, created).UTC()
	k.LastUsed, k.RevokedAt = nsPtr(used), nsPtr(revoked)
	return k, notFound(err)
}

func nsPtr(ns *int64) *time.Time {
	if ns == nil {
		return nil
	}
	t := time.Unix(0, *ns).UTC()
	return &t
}

// Keys lists an account's keys, newest first.
func (db *DB) Keys(ctx context.Context, accountID int64) ([]model.APIKey, error) {
	rows, err := db.pool.Query(ctx, `SELECT `+keyColumns+` FROM api_keys k
		WHERE k.account_id = $1 ORDER BY k.created_ns DESC, k.id DESC`, accountID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var keys []model.APIKey
	for rows.Next() {
		k, err := scanKey(rows)
		if err != nil {
			return nil, err
		}
		keys = append(keys, k)
	}
	return keys, rows.Err()
}

// RevokeKey revokes an unrevoked key.
func (db *DB) RevokeKey(ctx context.Context, keyID string, now time.Time) error {
	tag, err := db.pool.Exec(ctx,
		`UPDATE api_keys SET revoked_ns = $1 WHERE id = $2 AND revoked_ns IS NULL`, now.UnixNano(), keyID)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return store.ErrNotFound
	}
	return nil
}

// KeyByHash finds an unrevoked key and its account by the key's hash.
func (db *DB) KeyByHash(ctx context.Context, hash []byte) (model.APIKey, []byte, model.Account, error) {
	var a model.Account
	var stored []byte
	var verified, created int64
	row := db.pool.QueryRow(ctx, `SELECT `+keyColumns+`, k.hash, a.email, a.verified_ns, a.created_ns,
		a.daily_requests, a.minute_requests, a.daily_searches, a.concurrent_searches
		FROM api_keys k JOIN accounts a ON a.id = k.account_id
		WHERE k.hash = $1 AND k.revoked_ns IS NULL`, hash)
	k, err := scanKey(row, &stored, &a.Email, &verified, &created, &a.Limits.DailyRequests,
		&a.Limits.MinuteRequests, &a.Limits.DailySearches, &a.Limits.ConcurrentSearches)
	a.ID = k.AccountID
	a.VerifiedAt, a.CreatedAt = time.Unix(0, verified).UTC(), time.Unix(0, created).UTC()
	return k, stored, a, err
}

// TouchKey records a key's last use. Replicas may report uses out of order;
// the latest one wins, and a use no later than the stored one writes nothing.
func (db *DB) TouchKey(ctx context.Context, keyID string, at time.Time) error {
	_, err := db.pool.Exec(ctx, `UPDATE api_keys SET last_used_ns = $1
		WHERE id = $2 AND (last_used_ns IS NULL OR last_used_ns < $1)`, at.UnixNano(), keyID)
	return err
}
