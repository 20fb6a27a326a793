package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"signals/internal/model"
	"signals/internal/store"
)

// accountColumns are selected in the order scanAccount reads them.
const accountColumns = `id, email, verified_ns, created_ns, daily_requests, minute_requests,
	daily_searches, concurrent_searches, role`

// joinedAccountColumns are accountColumns of the accounts table named a in
// a join.
const joinedAccountColumns = `a.id, a.email, a.verified_ns, a.created_ns, a.daily_requests,
	a.minute_requests, a.daily_searches, a.concurrent_searches, a.role`

// scanAccount reads accountColumns, then any extra columns into extra.
func scanAccount(row interface{ Scan(...any) error }, extra ...any) (model.Account, error) {
	var a model.Account
	var verified, created int64
	err := row.Scan(append([]any{integer(&a.ID), &a.Email, integer(&verified), integer(&created),
		integer(&a.Limits.DailyRequests), integer(&a.Limits.MinuteRequests),
		integer(&a.Limits.DailySearches), integer(&a.Limits.ConcurrentSearches), &a.Role}, extra...)...)
	if err != nil {
		return model.Account{}, err
	}
	a.VerifiedAt, a.CreatedAt = time.Unix(0, verified).UTC(), time.Unix(0, created).UTC()
	return a, nil
}

// CreateAccount creates a verified account with the initial limits.
func (q *Queries) CreateAccount(ctx context.Context, email string, now time.Time) (model.Account, error) {
	l := model.InitialLimits
	var a model.Account
	err := q.writeRow(ctx, func(row *sql.Row) (err error) {
		a, err = scanAccount(row)
		return err
	}, `INSERT INTO accounts (email, verified_ns,
		created_ns, daily_requests, minute_requests, daily_searches, concurrent_searches)
		VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (email) DO NOTHING RETURNING `+accountColumns,
		strings.ToLower(email), now.UnixNano(), now.UnixNano(),
		l.DailyRequests, l.MinuteRequests, l.DailySearches, l.ConcurrentSearches)
	if errors.Is(err, store.ErrNotFound) { // nothing inserted: the email is taken
		err = store.ErrExists
	}
	return a, Wrap("create account", err)
}

// AccountByEmail finds an account by its email.
func (q *Queries) AccountByEmail(ctx context.Context, email string) (model.Account, error) {
	a, err := scanAccount(q.queryRow(ctx, `SELECT `+accountColumns+` FROM accounts WHERE email = ?`,
		strings.ToLower(email)))
	return a, Wrap("account by email", err)
}

// SetLimits replaces an account's limits.
func (q *Queries) SetLimits(ctx context.Context, accountID int64, l model.Limits) error {
	err := changedRow(q.exec(ctx, `UPDATE accounts SET daily_requests = ?, minute_requests = ?,
		daily_searches = ?, concurrent_searches = ? WHERE id = ?`,
		l.DailyRequests, l.MinuteRequests, l.DailySearches, l.ConcurrentSearches, accountID))
	return Wrap("set limits", err)
}

// CreateKey stores a key description and its hash; ErrExists if the id or
// the hash is taken, ErrNotFound if the account does not exist.
func (q *Queries) CreateKey(ctx context.Context, k model.APIKey, hash []byte) error {
	_, err := q.exec(ctx, `INSERT INTO api_keys (id, account_id, name, hint, hash, created_ns)
		VALUES (?, ?, ?, ?, ?, ?)`, k.ID, k.AccountID, k.Name, k.Hint, hash, k.CreatedAt.UnixNano())
	if err != nil {
		err = q.dialect.Constraint(err)
	}
	return Wrap("create key", err)
}

// keyColumns are selected in the order keyDest lists them.
const keyColumns = `k.id, k.account_id, k.name, k.hint, k.created_ns, k.last_used_ns, k.revoked_ns`

// keyDest returns where to scan keyColumns for k, and what completes k
// once they are scanned.
func keyDest(k *model.APIKey) (dest []any, finish func()) {
	var created int64
	var used, revoked any
	return []any{&k.ID, integer(&k.AccountID), &k.Name, &k.Hint, integer(&created), &used, &revoked}, func() {
		k.CreatedAt = time.Unix(0, created).UTC()
		k.LastUsed, k.RevokedAt = optionalTime(used), optionalTime(revoked)
	}
}

// optionalTime reads a nanosecond column scanned into an any.
func optionalTime(v any) *time.Time {
	ns, ok := optionalInt(v)
	if !ok {
		return nil
	}
	t := time.Unix(0, ns).UTC()
	return &t
}

// Keys lists an account's keys, newest first.
func (q *Queries) Keys(ctx context.Context, accountID int64) ([]model.APIKey, error) {
	keys, err := readAll(ctx, q, scanInto(keyDest), `SELECT `+keyColumns+` FROM api_keys k
		WHERE k.account_id = ? ORDER BY k.created_ns DESC, k.id DESC`, accountID)
	return keys, Wrap("list keys", err)
}

// RevokeKey revokes an unrevoked key.
func (q *Queries) RevokeKey(ctx context.Context, keyID string, now time.Time) error {
	err := changedRow(q.exec(ctx, `UPDATE api_keys SET revoked_ns = ? WHERE id = ? AND revoked_ns IS NULL`,
		now.UnixNano(), keyID))
	return Wrap("revoke key", err)
}

// RenameKey renames an unrevoked key of the account. A name plays no part
// in authentication, so the credentials' generation stays.
func (q *Queries) RenameKey(ctx context.Context, accountID int64, keyID, name string) error {
	err := changedRow(q.exec(ctx, `UPDATE api_keys SET name = ?
		WHERE id = ? AND account_id = ? AND revoked_ns IS NULL`, name, keyID, accountID))
	return Wrap("rename key", err)
}

// KeyByHash finds an unrevoked key and its account by the key's hash.
func (q *Queries) KeyByHash(ctx context.Context, hash []byte) (model.APIKey, []byte, model.Account, error) {
	var k model.APIKey
	var stored []byte
	dest, finish := keyDest(&k)
	a, err := scanAccount(q.queryRow(ctx, `SELECT `+joinedAccountColumns+`, `+keyColumns+`, k.hash
		FROM api_keys k JOIN accounts a ON a.id = k.account_id
		WHERE k.hash = ? AND k.revoked_ns IS NULL`, hash), append(dest, &stored)...)
	finish()
	return k, stored, a, Wrap("key by hash", err)
}

// TouchKey records a key's last use. Replicas may report uses out of order:
// the latest one wins, and a use no later than the stored one writes
// nothing.
func (q *Queries) TouchKey(ctx context.Context, keyID string, at time.Time) error {
	_, err := q.exec(ctx, `UPDATE api_keys SET last_used_ns = ?
		WHERE id = ? AND (last_used_ns IS NULL OR last_used_ns < ?)`, at.UnixNano(), keyID, at.UnixNano())
	return Wrap("touch key", err)
}
