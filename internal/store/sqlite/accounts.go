package sqlite

import (
	"context"
	"database/sql"
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
	if errors.Is(err, sql.ErrNoRows) {
		return a, store.ErrNotFound
	}
	a.VerifiedAt, a.CreatedAt = time.Unix(0, verified).UTC(), time.Unix(0, created).UTC()
	return a, err
}

// CreateAccount creates a verified account with the initial limits.
func (db *DB) CreateAccount(ctx context.Context, email string, now time.Time) (model.Account, error) {
	l := model.InitialLimits
	row := db.write.QueryRowContext(ctx, `INSERT INTO accounts (email, verified_ns, created_ns,
		daily_requests, minute_requests, daily_searches, concurrent_searches)
		VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (email) DO NOTHING RETURNING `+accountColumns,
		strings.ToLower(email), now.UnixNano(), now.UnixNano(),
		l.DailyRequests, l.MinuteRequests, l.DailySearches, l.ConcurrentSearches)
	a, err := scanAccount(row)
	if errors.Is(err, store.ErrNotFound) {
		return a, store.ErrExists
	}
	return a, err
}

// AccountByEmail finds an account by its email.
func (db *DB) AccountByEmail(ctx context.Context, email string) (model.Account, error) {
	return scanAccount(db.read.QueryRowContext(ctx,
		`SELECT `+accountColumns+` FROM accounts WHERE email = ?`, strings.ToLower(email)))
}

// Account finds an account by id.
func (db *DB) Account(ctx context.Context, id int64) (model.Account, error) {
	return scanAccount(db.read.QueryRowContext(ctx,
		`SELECT `+accountColumns+` FROM accounts WHERE id = ?`, id))
}

// SetLimits replaces an account's limits.
func (db *DB) SetLimits(ctx context.Context, accountID int64, l model.Limits) error {
	res, err := db.write.ExecContext(ctx, `UPDATE accounts SET daily_requests = ?, minute_requests = ?,
		daily_searches = ?, concurrent_searches = ? WHERE id = ?`,
		l.DailyRequests, l.MinuteRequests, l.DailySearches, l.ConcurrentSearches, accountID)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return store.ErrNotFound
	}
	return nil
}

// CreateKey stores a key description and its hash.
func (db *DB) CreateKey(ctx context.Context, k model.APIKey, hash []byte) error {
	_, err := db.write.ExecContext(ctx, `INSERT INTO api_keys (id, account_id, name, hint, hash, created_ns)
		VALUES (?, ?, ?, ?, ?, ?)`, k.ID, k.AccountID, k.Name, k.Hint, hash, k.CreatedAt.UnixNano())
	return err
}

const keyColumns = `k.id, k.account_id, k.name, k.hint, k.created_ns, k.last_used_ns, k.revoked_ns`

func scanKey(row interface{ Scan(...any) error }, extra ...any) (model.APIKey, error) {
	var k model.APIKey
	var created int64
	var used, revoked sql.NullInt64
	err := row.Scan(append([]any{&k.ID, &k.AccountID, &k.Name, &k.Hint, &created, &used, &revoked}, extra...)...)
	if errors.Is(err, sql.ErrNoRows) {
		return k, store.ErrNotFound
	}
	k.CreatedAt = time.Unix(0, created).UTC()
	k.LastUsed, k.RevokedAt = nsPtr(used), nsPtr(revoked)
	return k, err
}

func nsPtr(v sql.NullInt64) *time.Time {
	if !v.Valid {
		return nil
	}
	t := time.Unix(0, v.Int64).UTC()
	return &t
}

// Keys lists an account's keys, newest first.
func (db *DB) Keys(ctx context.Context, accountID int64) ([]model.APIKey, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT `+keyColumns+` FROM api_keys k
		WHERE k.account_id = ? ORDER BY k.created_ns DESC, k.id DESC`, accountID)
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
	res, err := db.write.ExecContext(ctx,
		`UPDATE api_keys SET revoked_ns = ? WHERE id = ? AND revoked_ns IS NULL`, now.UnixNano(), keyID)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return store.ErrNotFound
	}
	return nil
}

// KeyByHash finds an unrevoked key and its account by the key's hash.
func (db *DB) KeyByHash(ctx context.Context, hash []byte) (model.APIKey, []byte, model.Account, error) {
	var a model.Account
	var stored []byte
	var verified, created int64
	row := db.read.QueryRowContext(ctx, `SELECT `+keyColumns+`, k.hash, a.email, a.verified_ns, a.created_ns,
		a.daily_requests, a.minute_requests, a.daily_searches, a.concurrent_searches
		FROM api_keys k JOIN accounts a ON a.id = k.account_id
		WHERE k.hash = ? AND k.revoked_ns IS NULL`, hash)
	k, err := scanKey(row, &stored, &a.Email, &verified, &created, &a.Limits.DailyRequests,
		&a.Limits.MinuteRequests, &a.Limits.DailySearches, &a.Limits.ConcurrentSearches)
	a.ID = k.AccountID
	a.VerifiedAt, a.CreatedAt = time.Unix(0, verified).UTC(), time.Unix(0, created).UTC()
	return k, stored, a, err
}

// TouchKey records a key's last use.
func (db *DB) TouchKey(ctx context.Context, keyID string, at time.Time) error {
	_, err := db.write.ExecContext(ctx, `UPDATE api_keys SET last_used_ns = ? WHERE id = ?`, at.UnixNano(), keyID)
	return err
}
