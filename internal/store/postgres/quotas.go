package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"signals/internal/model"
	"signals/internal/store"
	"signals/internal/store/sqlstore"
)

// takeRequestSQL decides and counts one request in a single statement, so
// that processes sharing the database are exact together: the upsert locks
// the account's usage row, rolls its windows forward to the current ones
// ($2 minute, $3 day, Unix seconds), counts the request if the day ($4) and
// minute ($5) limits allow it, and returns the counters with the decision.
// A refused request changes no counter. A window never moves backwards, so a
// replica whose clock lags a little counts into the newer window rather than
// resetting it.
const takeRequestSQL = `
INSERT INTO usage AS u (account_id, minute_start, minute_used, day_start, day_used,
	search_day_start, searches_used, last_denied)
VALUES ($1, $2::bigint, CASE WHEN $4::bigint > 0 AND $5::bigint > 0 THEN 1 ELSE 0 END,
	$3::bigint, CASE WHEN $4 > 0 AND $5 > 0 THEN 1 ELSE 0 END, $3, 0,
	CASE WHEN $4 <= 0 THEN 'day' WHEN $5 <= 0 THEN 'minute' ELSE '' END)
ON CONFLICT (account_id) DO UPDATE SET
	(minute_start, minute_used, day_start, day_used, search_day_start, searches_used, last_denied) =
	(SELECT greatest(u.minute_start, $2), m + ok, greatest(u.day_start, $3), d + ok,
		greatest(u.search_day_start, $3), s,
		CASE WHEN d >= $4 THEN 'day' WHEN m >= $5 THEN 'minute' ELSE '' END
	 FROM (SELECT m, d, s, CASE WHEN d < $4 AND m < $5 THEN 1 ELSE 0 END AS ok
		FROM (SELECT
			CASE WHEN u.minute_start >= $2 THEN u.minute_used ELSE 0 END AS m,
			CASE WHEN u.day_start >= $3 THEN u.day_used ELSE 0 END AS d,
			CASE WHEN u.search_day_start >= $3 THEN u.searches_used ELSE 0 END AS s
		) AS current) AS decided)
RETURNING minute_used, day_used, searches_used, last_denied`

// TakeRequest counts one request if the account is under both limits.
func (db *DB) TakeRequest(ctx context.Context, accountID int64, l model.Limits, now time.Time) (model.Usage, error) {
	return db.take(ctx, "take request", takeRequestSQL, accountID, now, l.DailyRequests, l.MinuteRequests)
}

// take runs query, a statement that counts if limits allow it and returns
// the counters with the limit that refused it, with the account, the
// starts of now's minute and day windows, then limits.
func (db *DB) take(ctx context.Context, op, query string, accountID int64, now time.Time, limits ...any) (model.Usage, error) {
	u := model.Usage{MinuteStart: model.MinuteOf(now), DayStart: model.DayOf(now)}
	err := db.count(ctx, query, append([]any{accountID, u.MinuteStart.Unix(), u.DayStart.Unix()}, limits...),
		&u.MinuteUsed, &u.DayUsed, &u.SearchesUsed, &u.Denied)
	if hasCode(err, codeForeignKeyViolation) {
		err = store.ErrNotFound
	}
	if err != nil {
		return model.Usage{}, sqlstore.Wrap(op, err)
	}
	return u, nil
}

// giveBackSQL gives back one request counted in the minute ($2) and day
// ($3) windows, and one search reserved in the day $4, in each of them that
// is still the row's current one (a NULL window gives nothing back), and
// returns the usage in the windows of now ($5 minute, $6 day).
const giveBackSQL = `
UPDATE usage SET
	minute_used = CASE WHEN minute_start = $2 AND minute_used > 0 THEN minute_used - 1 ELSE minute_used END,
	day_used = CASE WHEN day_start = $3 AND day_used > 0 THEN day_used - 1 ELSE day_used END,
	searches_used = CASE WHEN search_day_start = $4 AND searches_used > 0 THEN searches_used - 1 ELSE searches_used END
WHERE account_id = $1
RETURNING CASE WHEN minute_start >= $5 THEN minute_used ELSE 0 END,
	CASE WHEN day_start >= $6 THEN day_used ELSE 0 END,
	CASE WHEN search_day_start >= $6 THEN searches_used ELSE 0 END`

// ReturnRequest gives back one request counted at at, in the windows
// containing at that are still current.
func (db *DB) ReturnRequest(ctx context.Context, accountID int64, at, now time.Time) (model.Usage, error) {
	return db.giveBack(ctx, "return request", now, accountID, model.MinuteOf(at).Unix(), model.DayOf(at).Unix(), nil)
}

// giveBack runs giveBackSQL with args, the account and the windows to give
// back in, and returns the usage in the windows of now.
func (db *DB) giveBack(ctx context.Context, op string, now time.Time, args ...any) (model.Usage, error) {
	u := model.Usage{MinuteStart: model.MinuteOf(now), DayStart: model.DayOf(now)}
	args = append(args, u.MinuteStart.Unix(), u.DayStart.Unix())
	err := db.count(ctx, giveBackSQL, args, &u.MinuteUsed, &u.DayUsed, &u.SearchesUsed)
	if errors.Is(err, pgx.ErrNoRows) {
		return u, nil
	}
	if err != nil {
		return model.Usage{}, sqlstore.Wrap(op, err)
	}
	return u, nil
}

// Usage reports the account's usage without counting.
func (db *DB) Usage(ctx context.Context, accountID int64, now time.Time) (model.Usage, error) {
	u := model.Usage{MinuteStart: model.MinuteOf(now), DayStart: model.DayOf(now)}
	err := db.retry(ctx, func() error {
		return db.pool.QueryRow(ctx, `SELECT
		CASE WHEN minute_start >= $2 THEN minute_used ELSE 0 END,
		CASE WHEN day_start >= $3 THEN day_used ELSE 0 END,
		CASE WHEN search_day_start >= $3 THEN searches_used ELSE 0 END
		FROM usage WHERE account_id = $1`, accountID, u.MinuteStart.Unix(), u.DayStart.Unix()).
			Scan(&u.MinuteUsed, &u.DayUsed, &u.SearchesUsed)
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return u, nil
	}
	if err != nil {
		return model.Usage{}, sqlstore.Wrap("read usage", err)
	}
	return u, nil
}

// reserveSearchSQL takes one fresh search of the UTC day ($3) if fewer than
// $4 were taken, in one locked upsert of the usage row like takeRequestSQL,
// and returns the usage in the current windows ($2 minute, $3 day) with
// the limit that refused it (model.LimitSearchDay), if one did.
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
	return db.take(ctx, "reserve search", reserveSearchSQL, accountID, now, dailyLimit)
}

// ReturnSearch gives back one fresh search reserved at at.
func (db *DB) ReturnSearch(ctx context.Context, accountID int64, at, now time.Time) (model.Usage, error) {
	return db.giveBack(ctx, "return search", now, accountID, nil, nil, model.DayOf(at).Unix())
}

// count runs query, one statement that counts in a usage row and returns
// the row, and reads that row into dest: one statement, one round trip, on
// the counting pool, whose sessions commit with synchronous_commit = off.
// The commit returns before its WAL record reaches the disk; the WAL
// writer flushes it within 3 × wal_writer_delay (600 ms by default), so a
// crash of the database server (not of a replica) forgets at most the
// counts committed in that time before it.
//
// When the connection fails, the count runs again only where it surely did
// not commit: nothing was sent, or the server answered with an error (a
// statement that failed, or a session it ended before the statement ran);
// otherwise the failure is a *sqlstore.CommitError, which the caller turns
// into a 503.
func (db *DB) count(ctx context.Context, query string, args []any, dest ...any) error {
	return db.retry(ctx, func() error {
		err := db.counts.QueryRow(ctx, query, args...).Scan(dest...)
		var pgErr *pgconn.PgError
		if err != nil && !pgconn.SafeToRetry(err) && !errors.As(err, &pgErr) && !errors.Is(err, pgx.ErrNoRows) {
			return &sqlstore.CommitError{Err: err}
		}
		return err
	})
}

// TouchKey records a key's last use as sqlstore does (the latest use wins),
// on the counting pool: a last-used time is bookkeeping like a count, which
// a crash of the database server may forget the last moments of, and it
// moves no generation, so it leaves those held in memory valid. Running it
// twice writes the same, so it always runs again on a dropped connection.
func (db *DB) TouchKey(ctx context.Context, keyID string, at time.Time) error {
	err := db.retry(ctx, func() error {
		_, err := db.counts.Exec(ctx, `UPDATE api_keys SET last_used_ns = $1
			WHERE id = $2 AND (last_used_ns IS NULL OR last_used_ns < $1)`, at.UnixNano(), keyID)
		return err
	})
	return sqlstore.Wrap("touch key", err)
}

// TouchKeys records many keys' last uses in one statement, as TouchKey
// does each (the latest use wins).
func (db *DB) TouchKeys(ctx context.Context, uses map[string]time.Time) error {
	ids := make([]string, 0, len(uses))
	ats := make([]int64, 0, len(uses))
	for id, at := range uses {
		ids = append(ids, id)
		ats = append(ats, at.UnixNano())
	}
	err := db.retry(ctx, func() error {
		_, err := db.counts.Exec(ctx, `UPDATE api_keys AS k SET last_used_ns = u.at
			FROM unnest($1::text[], $2::bigint[]) AS u(id, at)
			WHERE k.id = u.id AND (k.last_used_ns IS NULL OR k.last_used_ns < u.at)`, ids, ats)
		return err
	})
	return sqlstore.Wrap("touch keys", err)
}
