package sqlstore

import (
	"context"
	"database/sql"
	"strings"
	"time"

	"signals/internal/model"
	"signals/internal/store"
)

// interestColumns are the columns of email_interests, named i, that
// interestsRow reads.
const interestColumns = `i.tags, i.countries, i.frequency, i.since_ns`

// interestsRow scans interestColumns: the lists of keys are stored
// comma-separated.
type interestsRow struct {
	tags, countries, frequency string
	since                      int64
}

func (r *interestsRow) dest() []any {
	return []any{&r.tags, &r.countries, &r.frequency, integer(&r.since)}
}

func (r *interestsRow) interests() model.Interests {
	return model.Interests{Tags: splitKeys(r.tags), Countries: splitKeys(r.countries),
		Frequency: r.frequency, Since: time.Unix(0, r.since).UTC()}
}

// splitKeys reads a stored comma-separated list of keys.
func splitKeys(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// Interests returns the account's email interests.
func (q *Queries) Interests(ctx context.Context, accountID int64) (model.Interests, error) {
	var r interestsRow
	err := q.queryRow(ctx, `SELECT `+interestColumns+` FROM email_interests i WHERE i.account_id = ?`,
		accountID).Scan(r.dest()...)
	if err != nil {
		return model.Interests{}, Wrap("interests", err)
	}
	return r.interests(), nil
}

// PutInterests replaces the account's interests.
func (q *Queries) PutInterests(ctx context.Context, accountID int64, in model.Interests) error {
	_, err := q.exec(ctx, `INSERT INTO email_interests (account_id, tags, countries, frequency, since_ns)
		VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (account_id) DO UPDATE SET tags = excluded.tags, countries = excluded.countries,
			frequency = excluded.frequency, since_ns = excluded.since_ns`,
		accountID, strings.Join(in.Tags, ","), strings.Join(in.Countries, ","), in.Frequency, in.Since.UnixNano())
	return Wrap("put interests", err)
}

// DeleteInterests removes the account's interests.
func (q *Queries) DeleteInterests(ctx context.Context, accountID int64) error {
	_, err := q.exec(ctx, `DELETE FROM email_interests WHERE account_id = ?`, accountID)
	return Wrap("delete interests", err)
}

// DigestsDue returns accounts of this frequency without a finished digest
// for period.
func (q *Queries) DigestsDue(ctx context.Context, frequency, period string, start time.Time, limit int) ([]store.DigestTarget, error) {
	out, err := readAll(ctx, q, func(rows *sql.Rows) (store.DigestTarget, error) {
		var r interestsRow
		a, err := scanAccount(rows, r.dest()...)
		if err != nil {
			return store.DigestTarget{}, err
		}
		return store.DigestTarget{Account: a, Interests: r.interests()}, nil
	}, `SELECT `+joinedAccountColumns+`, `+interestColumns+`
		FROM email_interests i JOIN accounts a ON a.id = i.account_id
		WHERE i.frequency = ? AND i.since_ns < ? AND NOT EXISTS (SELECT 1 FROM digest_runs r
			WHERE r.account_id = i.account_id AND r.period = ? AND r.done_ns IS NOT NULL)
		ORDER BY a.id LIMIT ?`, frequency, start.UnixNano(), period, limit)
	return out, Wrap("digests due", err)
}

// ClaimDigest takes the account's digest of period unless it is done or
// held under an unexpired lease. It is one upsert, so of processes claiming
// together exactly one succeeds: PostgreSQL locks the row for it, and
// SQLite runs one write at a time.
func (q *Queries) ClaimDigest(ctx context.Context, accountID int64, period string, claim []byte, now time.Time, lease time.Duration) (bool, error) {
	n, err := q.exec(ctx, `INSERT INTO digest_runs (account_id, period, claim, lease_ns) VALUES (?, ?, ?, ?)
		ON CONFLICT (account_id, period) DO UPDATE SET claim = excluded.claim, lease_ns = excluded.lease_ns
		WHERE digest_runs.done_ns IS NULL AND digest_runs.lease_ns <= ?`,
		accountID, period, claim, now.Add(lease).UnixNano(), now.UnixNano())
	if err != nil {
		return false, Wrap("claim digest", err)
	}
	return n == 1, nil
}

// FinishDigest marks the claimed digest done and moves the interests on to
// until, never back.
func (q *Queries) FinishDigest(ctx context.Context, accountID int64, period string, claim []byte, until, now time.Time) error {
	err := q.inTx(ctx, func(tx *sql.Tx) error {
		err := changedRow(q.execOn(ctx, tx, `UPDATE digest_runs SET done_ns = ?
			WHERE account_id = ? AND period = ? AND claim = ? AND done_ns IS NULL`,
			now.UnixNano(), accountID, period, claim))
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, q.bind(`UPDATE email_interests SET since_ns = ?
			WHERE account_id = ? AND since_ns < ?`), until.UnixNano(), accountID, until.UnixNano())
		return err
	})
	return Wrap("finish digest", err)
}

// PutUnsubscribe stores the hash of a digest's unsubscribe token.
func (q *Queries) PutUnsubscribe(ctx context.Context, hash []byte, accountID int64, now time.Time) error {
	_, err := q.exec(ctx, `INSERT INTO unsubscribe_tokens (hash, account_id, created_ns) VALUES (?, ?, ?)`,
		hash, accountID, now.UnixNano())
	return Wrap("put unsubscribe token", err)
}

// AccountByUnsubscribe finds the account of an unsubscribe token.
func (q *Queries) AccountByUnsubscribe(ctx context.Context, hash []byte) (int64, []byte, error) {
	var id int64
	var stored []byte
	err := q.queryRow(ctx, `SELECT account_id, hash FROM unsubscribe_tokens WHERE hash = ?`, hash).
		Scan(integer(&id), &stored)
	if err != nil {
		return 0, nil, Wrap("account by unsubscribe token", err)
	}
	return id, stored, nil
}
