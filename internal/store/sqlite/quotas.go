package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"sync"
	"time"

	"signals/internal/model"
	"signals/internal/store/sqlstore"
)

// An embedded SQLite database is served by one process, so that process can
// keep the authoritative counters in memory: a request is decided under a
// mutex (exact, about a microsecond).
//
// What is on disk is a reservation ahead of them: before a request is
// answered, the counters written for its account cover it, and when they do
// not, the process writes them with room for more (reserveAhead, or 1% of
// the limit when that is more, never beyond the limit) and only then
// answers. A busy account costs one small write every reserveAhead
// requests, or every 1% of its limit. A crash (kill -9) therefore never
// loses a count: the next start reads the reservation, which may count
// requests that were never served (at most the room of one reservation),
// so that after a crash an account is, if anything, refused early, never
// served beyond its limits.
// A clean Close writes the exact counters.
const reserveAhead = 10

// usageRow is an account's counters; a window whose start is not the
// current one counts as empty.
type usageRow struct {
	MinuteStart, MinuteUsed      int64
	DayStart, DayUsed            int64
	SearchDayStart, SearchesUsed int64
}

type counters struct {
	mu   sync.Mutex
	rows map[int64]*usageRow
	// written is what the usage table holds for each account in rows.
	written map[int64]usageRow

	// reserving serialises the writes of reservations, so that a later
	// reservation is never overwritten by an earlier one.
	reserving sync.Mutex
}

func (db *DB) startCounters() {
	db.counters = &counters{rows: map[int64]*usageRow{}, written: map[int64]usageRow{}}
}

// closeCounters writes the exact counters in place of the reservations.
func (db *DB) closeCounters() error {
	c := db.counters
	c.reserving.Lock()
	defer c.reserving.Unlock()
	c.mu.Lock()
	batch := make(map[int64]usageRow, len(c.rows))
	for id, r := range c.rows {
		if c.written[id] != *r {
			batch[id] = *r
		}
	}
	c.mu.Unlock()
	if len(batch) == 0 {
		return nil
	}
	if err := db.writeUsage(context.Background(), batch); err != nil {
		return sqlstore.Wrap("write usage counters", err)
	}
	c.mu.Lock()
	for id, r := range batch {
		c.written[id] = r
	}
	c.mu.Unlock()
	return nil
}

// covers reports whether the written counters w count at least what r
// counts in each of r's windows.
func (w usageRow) covers(r usageRow) bool {
	ok := func(wStart, wUsed, start, used int64) bool { return used == 0 || wStart == start && wUsed >= used }
	return ok(w.MinuteStart, w.MinuteUsed, r.MinuteStart, r.MinuteUsed) &&
		ok(w.DayStart, w.DayUsed, r.DayStart, r.DayUsed) &&
		ok(w.SearchDayStart, w.SearchesUsed, r.SearchDayStart, r.SearchesUsed)
}

// limits are the limits a change knows of, 0 where it knows none; a
// reservation never goes beyond them.
type limits struct{ minute, day, searches int64 }

// reservation returns counters to write in place of w that cover r with
// room for reserveAhead more in each window w does not cover.
func (w usageRow) reservation(r usageRow, l limits) usageRow {
	win := func(wStart, wUsed, start, used, limit int64) (int64, int64) {
		if used == 0 || wStart == start && wUsed >= used {
			return wStart, wUsed
		}
		ahead := used + reserveAhead
		if limit > 0 {
			ahead = max(used, min(used+max(reserveAhead, limit/100), limit))
		}
		return start, ahead
	}
	var n usageRow
	n.MinuteStart, n.MinuteUsed = win(w.MinuteStart, w.MinuteUsed, r.MinuteStart, r.MinuteUsed, l.minute)
	n.DayStart, n.DayUsed = win(w.DayStart, w.DayUsed, r.DayStart, r.DayUsed, l.day)
	n.SearchDayStart, n.SearchesUsed = win(w.SearchDayStart, w.SearchesUsed, r.SearchDayStart, r.SearchesUsed, l.searches)
	return n
}

// reserve writes a reservation covering the account's counters, unless one
// written meanwhile already does.
func (db *DB) reserve(ctx context.Context, accountID int64, l limits) error {
	c := db.counters
	c.reserving.Lock()
	defer c.reserving.Unlock()
	c.mu.Lock()
	r, ok := c.rows[accountID]
	if !ok || c.written[accountID].covers(*r) {
		c.mu.Unlock()
		return nil
	}
	next := c.written[accountID].reservation(*r, l)
	c.mu.Unlock()
	// Not the request's context: a reservation half made would be retried
	// by the next request anyway, but one made is worth keeping.
	if err := db.writeUsage(context.WithoutCancel(ctx), map[int64]usageRow{accountID: next}); err != nil {
		return err
	}
	c.mu.Lock()
	if _, ok := c.rows[accountID]; ok {
		c.written[accountID] = next
	}
	c.mu.Unlock()
	return nil
}

func (db *DB) writeUsage(ctx context.Context, batch map[int64]usageRow) error {
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for id, r := range batch {
		if _, err := tx.ExecContext(ctx, `INSERT INTO usage (account_id, minute_start, minute_used,
			day_start, day_used, search_day_start, searches_used) VALUES (?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (account_id) DO UPDATE SET minute_start = excluded.minute_start,
			minute_used = excluded.minute_used, day_start = excluded.day_start,
			day_used = excluded.day_used, search_day_start = excluded.search_day_start,
			searches_used = excluded.searches_used
			WHERE EXISTS (SELECT 1 FROM accounts WHERE id = excluded.account_id)`,
			id, r.MinuteStart, r.MinuteUsed, r.DayStart, r.DayUsed, r.SearchDayStart, r.SearchesUsed); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// row returns the account's counters, loading them on first use. The caller
// holds c.mu on return.
func (db *DB) row(ctx context.Context, accountID int64) (*usageRow, error) {
	c := db.counters
	c.mu.Lock()
	if r, ok := c.rows[accountID]; ok {
		return r, nil
	}
	c.mu.Unlock()
	var r usageRow
	err := db.read.QueryRowContext(ctx, `SELECT minute_start, minute_used, day_start, day_used,
		search_day_start, searches_used FROM usage WHERE account_id = ?`, accountID).
		Scan(&r.MinuteStart, &r.MinuteUsed, &r.DayStart, &r.DayUsed, &r.SearchDayStart, &r.SearchesUsed)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, err
	}
	c.mu.Lock()
	if existing, ok := c.rows[accountID]; ok {
		return existing, nil
	}
	c.rows[accountID] = &r
	c.written[accountID] = r
	return &r, nil
}

// roll empties windows that are no longer current.
func (r *usageRow) roll(now time.Time) {
	minute, day := model.MinuteOf(now).Unix(), model.DayOf(now).Unix()
	if r.MinuteStart != minute {
		r.MinuteStart, r.MinuteUsed = minute, 0
	}
	if r.DayStart != day {
		r.DayStart, r.DayUsed = day, 0
	}
	if r.SearchDayStart != day {
		r.SearchDayStart, r.SearchesUsed = day, 0
	}
}

func (r *usageRow) usage(now time.Time) model.Usage {
	return model.Usage{
		MinuteStart: model.MinuteOf(now), DayStart: model.DayOf(now),
		MinuteUsed: int(r.MinuteUsed), DayUsed: int(r.DayUsed), SearchesUsed: int(r.SearchesUsed),
	}
}

// change applies fn to the account's counters, rolled to now, under the
// lock: fn returns the limit that refused the change ("" if it counted),
// and the usage after it is returned once what is written covers it. op
// names the change in errors.
func (db *DB) change(ctx context.Context, op string, accountID int64, now time.Time, l limits, fn func(r *usageRow) (denied string)) (model.Usage, error) {
	r, err := db.row(ctx, accountID)
	if err != nil {
		return model.Usage{}, sqlstore.Wrap(op, err)
	}
	r.roll(now)
	denied := fn(r)
	u := r.usage(now)
	u.Denied = denied
	covered := db.counters.written[accountID].covers(*r)
	db.counters.mu.Unlock()
	if !covered {
		if err := db.reserve(ctx, accountID, l); err != nil {
			return model.Usage{}, sqlstore.Wrap(op, err)
		}
	}
	return u, nil
}

// TakeRequest counts one request if the account is under both limits.
func (db *DB) TakeRequest(ctx context.Context, accountID int64, l model.Limits, now time.Time) (model.Usage, error) {
	return db.change(ctx, "take request", accountID, now, limits{minute: int64(l.MinuteRequests), day: int64(l.DailyRequests)}, func(r *usageRow) string {
		switch {
		case r.DayUsed >= int64(l.DailyRequests):
			return model.LimitDay
		case r.MinuteUsed >= int64(l.MinuteRequests):
			return model.LimitMinute
		}
		r.MinuteUsed++
		r.DayUsed++
		return ""
	})
}

// ReturnRequest gives back one request counted at at, in the windows
// containing at that are still current.
func (db *DB) ReturnRequest(ctx context.Context, accountID int64, at, now time.Time) (model.Usage, error) {
	return db.change(ctx, "return request", accountID, now, limits{}, func(r *usageRow) string {
		if r.MinuteStart == model.MinuteOf(at).Unix() && r.MinuteUsed > 0 {
			r.MinuteUsed--
		}
		if r.DayStart == model.DayOf(at).Unix() && r.DayUsed > 0 {
			r.DayUsed--
		}
		return ""
	})
}

// Usage reports the account's usage without counting.
func (db *DB) Usage(ctx context.Context, accountID int64, now time.Time) (model.Usage, error) {
	return db.change(ctx, "read usage", accountID, now, limits{}, func(*usageRow) string { return "" })
}

// ReserveSearch takes one fresh search of the account's UTC day.
func (db *DB) ReserveSearch(ctx context.Context, accountID int64, dailyLimit int, now time.Time) (model.Usage, error) {
	return db.change(ctx, "reserve search", accountID, now, limits{searches: int64(dailyLimit)}, func(r *usageRow) string {
		if r.SearchesUsed >= int64(dailyLimit) {
			return model.LimitSearchDay
		}
		r.SearchesUsed++
		return ""
	})
}

// ReturnSearch gives back one fresh search reserved at at.
func (db *DB) ReturnSearch(ctx context.Context, accountID int64, at, now time.Time) (model.Usage, error) {
	return db.change(ctx, "return search", accountID, now, limits{}, func(r *usageRow) string {
		if r.SearchDayStart == model.DayOf(at).Unix() && r.SearchesUsed > 0 {
			r.SearchesUsed--
		}
		return ""
	})
}

// DeleteAccount deletes the account (the query is shared) and then forgets
// its counters, which live only in this process: SQLite may give the next
// account the same id, and it must start from zero, not from these.
func (db *DB) DeleteAccount(ctx context.Context, id int64) error {
	if err := db.Queries.DeleteAccount(ctx, id); err != nil {
		return err
	}
	c := db.counters
	c.mu.Lock()
	delete(c.rows, id)
	delete(c.written, id)
	c.mu.Unlock()
	return nil
}
