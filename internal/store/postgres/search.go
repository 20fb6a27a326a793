package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"signals/internal/model"
	"signals/internal/store"
)

// collect reads rows of signalColumns.
func collect(rows pgx.Rows) ([]model.Signal, error) {
	defer rows.Close()
	var out []model.Signal
	for rows.Next() {
		s, err := scanSignal(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// Candidates returns the newest public signals within f with their vectors
// under vectorModel (nil when missing or computed for an older text).
func (db *DB) Candidates(ctx context.Context, f model.Filter, vectorModel string, textChars, limit int) ([]store.Candidate, error) {
	a := args{textChars, vectorModel}
	where := filterSQL(f, &a)
	rows, err := db.pool.Query(ctx, `SELECT `+signalColumns+`, v.vector FROM signals
		LEFT JOIN signal_vectors v ON v.signal_id = signals.id AND v.model = $2 AND v.revision = signals.revision
		WHERE `+where+` ORDER BY published_ns DESC, id DESC LIMIT `+a.add(limit), a...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.Candidate
	for rows.Next() {
		var vector []float32
		s, err := scanSignal(rows, &vector)
		if err != nil {
			return nil, err
		}
		out = append(out, store.Candidate{Signal: s, Vector: vector})
	}
	return out, rows.Err()
}

// SignalsByID returns the public signals among ids.
func (db *DB) SignalsByID(ctx context.Context, ids []string, textChars int) ([]model.Signal, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	rows, err := db.pool.Query(ctx, `SELECT `+signalColumns+` FROM signals
		WHERE `+publicOnly+` AND id = ANY($2::text[])`, textChars, ids)
	if err != nil {
		return nil, err
	}
	return collect(rows)
}

// SignalsNeedingVectors returns public signals without a current vector.
func (db *DB) SignalsNeedingVectors(ctx context.Context, vectorModel string, textChars, limit int, cursor *store.Cursor) ([]model.Signal, error) {
	after, args := "", []any{textChars, vectorModel, limit}
	if cursor != nil {
		after = ` AND (published_ns, id) < ($4, $5)`
		args = append(args, cursor.PublishedNS, cursor.ID)
	}
	rows, err := db.pool.Query(ctx, `SELECT `+signalColumns+` FROM signals
		WHERE `+publicOnly+` AND NOT EXISTS (SELECT FROM signal_vectors v
			WHERE v.signal_id = signals.id AND v.model = $2 AND v.revision = signals.revision)`+after+`
		ORDER BY published_ns DESC, id DESC LIMIT $3`, args...)
	if err != nil {
		return nil, err
	}
	return collect(rows)
}

// PutVectors stores vectors for the signals' current revisions; ids no
// longer stored are skipped.
func (db *DB) PutVectors(ctx context.Context, vectorModel string, vectors map[string][]float32) error {
	if len(vectors) == 0 {
		return nil
	}
	var b pgx.Batch
	for id, v := range vectors {
		b.Queue(`INSERT INTO signal_vectors (signal_id, model, revision, vector)
			SELECT id, $1, revision, $3 FROM signals WHERE id = $2
			ON CONFLICT (signal_id, model) DO UPDATE SET revision = excluded.revision, vector = excluded.vector`,
			vectorModel, id, v)
	}
	return pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		return tx.SendBatch(ctx, &b).Close()
	})
}

// CachedSearch returns an unexpired cached result.
func (db *DB) CachedSearch(ctx context.Context, key string, now time.Time) (store.CachedSearch, bool, error) {
	var r store.CachedSearch
	var body string
	err := db.pool.QueryRow(ctx, `SELECT result FROM search_cache WHERE key = $1 AND expires_ns > $2`,
		key, now.UnixNano()).Scan(&body)
	if errors.Is(err, pgx.ErrNoRows) {
		return r, false, nil
	}
	if err != nil {
		return r, false, err
	}
	if err := json.Unmarshal([]byte(body), &r); err != nil {
		return r, false, err
	}
	return r, true, nil
}

// PutCachedSearch stores a result and drops expired ones.
func (db *DB) PutCachedSearch(ctx context.Context, key string, r store.CachedSearch) error {
	body, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM search_cache WHERE expires_ns <= $1`, r.SearchedAt.UnixNano()); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO search_cache (key, result, expires_ns) VALUES ($1, $2, $3)
			ON CONFLICT (key) DO UPDATE SET result = excluded.result, expires_ns = excluded.expires_ns`,
			key, string(body), r.ExpiresAt.UnixNano())
		return err
	})
}

// reserveSearchSQL takes one fresh search of the UTC day ($3) if fewer than
// $4 were taken, in one locked upsert of the usage row like takeRequestSQL,
// and returns the usage in the current windows ($2 minute, $3 day).
const reserveSearchSQL = `
INSERT INTO usage AS u (account_id, minute_start, minute_used, day_start, day_used,
	search_day_start, searches_used, last_denied)
VALUES ($1, $2::bigint, 0, $3::bigint, 0, $3, CASE WHEN $4::bigint > 0 THEN 1 ELSE 0 END,
	CASE WHEN $4 > 0 THEN '' ELSE 'search_day' END)
ON CONFLICT (account_id) DO UPDATE SET
	(search_day_start, searches_used, last_denied) =
	(SELECT greatest(u.search_day_start, $3), CASE WHEN s < $4 THEN s + 1 ELSE s END,
		CASE WHEN s < $4 THEN '' ELSE 'search_day' END
	 FROM (SELECT CASE WHEN u.search_day_start >= $3 THEN u.searches_used ELSE 0 END AS s) AS current)
RETURNING CASE WHEN minute_start >= $2 THEN minute_used ELSE 0 END,
	CASE WHEN day_start >= $3 THEN day_used ELSE 0 END, searches_used, last_denied`

// ReserveSearch takes one fresh search of the account's UTC day.
func (db *DB) ReserveSearch(ctx context.Context, accountID int64, dailyLimit int, now time.Time) (model.Usage, error) {
	u := model.Usage{MinuteStart: model.MinuteOf(now), DayStart: model.DayOf(now)}
	var denied string
	err := db.pool.QueryRow(ctx, reserveSearchSQL, accountID, u.MinuteStart.Unix(), u.DayStart.Unix(), dailyLimit).
		Scan(&u.MinuteUsed, &u.DayUsed, &u.SearchesUsed, &denied)
	if hasCode(err, codeForeignKeyViolation) {
		return model.Usage{}, store.ErrNotFound
	}
	if denied != "" {
		u.Denied = model.LimitSearchDay
	}
	return u, err
}

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
	id := newToken()
	var ok bool
	err := db.pool.QueryRow(ctx, acquireSlotSQL, accountID, now.UnixNano(), id, now.Add(lease).UnixNano(), max).Scan(&ok)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, false, nil
	case hasCode(err, codeForeignKeyViolation):
		return nil, false, store.ErrNotFound
	case err != nil:
		return nil, false, err
	}
	return db.releaser(ctx, `UPDATE search_slots SET leases = leases - $2::text WHERE account_id = $1`, accountID, id), true, nil
}
