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

// window is one counter of an account: the start of its window (Unix
// seconds) and the count in it.
type window struct{ start, used int64 }

// usageRow is an account's counters; a window whose start is not the
// current one counts as empty.
type usageRow struct{ minute, day, searches window }

type counters struct {
	mu       sync.Mutex
	accounts map[int64]*account

	// writing serialises the writes of the usage table, so that a later
	// reservation is never overwritten by an earlier one.
	writing sync.Mutex
}

// account is an account's counters, now and as the usage table holds them.
type account struct{ now, written usageRow }

// closeCounters writes the exact counters in place of the reservations.
func (db *DB) closeCounters() error {
	err := db.writeUsage(context.Background(), func(accounts map[int64]*account) map[int64]usageRow {
		batch := map[int64]usageRow{}
		for id, a := range accounts {
			if a.written != a.now {
				batch[id] = a.now
			}
		}
		return batch
	})
	return sqlstore.Wrap("write usage counters", err)
}

// covers reports whether the written counter w counts at least what r
// counts in r's window.
func (w window) covers(r window) bool { return r.used == 0 || w.start == r.start && w.used >= r.used }

// covers reports whether the written counters w cover each of r's.
func (w usageRow) covers(r usageRow) bool {
	return w.minute.covers(r.minute) && w.day.covers(r.day) && w.searches.covers(r.searches)
}

// limits are the limits a change knows of, 0 where it knows none; a
// reservation never goes beyond them.
type limits struct{ minute, day, searches int64 }

// reservation returns the counter to write in place of w that covers r,
// with room for reserveAhead more (or 1% of limit) if w does not cover it.
func (w window) reservation(r window, limit int64) window {
	if w.covers(r) {
		return w
	}
	ahead := r.used + reserveAhead
	if limit > 0 {
		ahead = max(r.used, min(r.used+max(reserveAhead, limit/100), limit))
	}
	return window{r.start, ahead}
}

// reservation returns counters to write in place of w that cover r.
func (w usageRow) reservation(r usageRow, l limits) usageRow {
	return usageRow{w.minute.reservation(r.minute, l.minute), w.day.reservation(r.day, l.day),
		w.searches.reservation(r.searches, l.searches)}
}

// reserve writes a reservation covering the account's counters, unless one
// written meanwhile already does.
func (db *DB) reserve(ctx context.Context, accountID int64, l limits) error {
	// Not the request's context: a reservation half made would be retried
	// by the next request anyway, but one made is worth keeping.
	return db.writeUsage(context.WithoutCancel(ctx), func(accounts map[int64]*account) map[int64]usageRow {
		a, ok := accounts[accountID]
		if !ok || a.written.covers(a.now) {
			return nil
		}
		return map[int64]usageRow{accountID: a.written.reservation(a.now, l)}
	})
}

// writeUsage writes the counters that pick chooses among the accounts
// counted (it runs under c.mu), one write of the usage table at a time,
// and records them as written for the accounts still counted.
func (db *DB) writeUsage(ctx context.Context, pick func(map[int64]*account) map[int64]usageRow) error {
	c := &db.counters
	c.writing.Lock()
	defer c.writing.Unlock()
	c.mu.Lock()
	batch := pick(c.accounts)
	c.mu.Unlock()
	if len(batch) == 0 {
		return nil
	}
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
			id, r.minute.start, r.minute.used, r.day.start, r.day.used, r.searches.start, r.searches.used); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for id, r := range batch {
		if a, ok := c.accounts[id]; ok {
			a.written = r
		}
	}
	return nil
}

// row returns the account's counters, loading them on first use. The caller
// holds c.mu on return.
func (db *DB) row(ctx context.Context, accountID int64) (*account, error) {
	c := &db.counters
	c.mu.Lock()
	if a, ok := c.accounts[accountID]; ok {
		return a, nil
	}
	c.mu.Unlock()
	var r usageRow
	err := db.read.QueryRowContext(ctx, `SELECT minute_start, minute_used, day_start, day_used,
		search_day_start, searches_used FROM usage WHERE account_id = ?`, accountID).
		Scan(&r.minute.start, &r.minute.used, &r.day.start, &r.day.used, &r.searches.start, &r.searches.used)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, err
	}
	c.mu.Lock()
	if _, ok := c.accounts[accountID]; !ok {
		c.accounts[accountID] = &account{now: r, written: r}
	}
	return c.accounts[accountID], nil
}

// roll empties the window if start begins a new one.
func (w *window) roll(start int64) {
	if w.start != start {
		*w = window{start: start}
	}
}

// giveBack counts one fewer in the window, if it is the one that began at
// start and counts any.
func (w *window) giveBack(start int64) {
	if w.start == start && w.used > 0 {
		w.used--
	}
}

// change applies fn to the account's counters, rolled to now, under the
// lock: fn returns the limit that refused the change ("" if it counted),
// and the usage after it is returned once what is written covers it. op
// names the change in errors.
func (db *DB) change(ctx context.Context, op string, accountID int64, now time.Time, l limits, fn func(r *usageRow) (denied string)) (model.Usage, error) {
	a, err := db.row(ctx, accountID)
	if err != nil {
		return model.Usage{}, sqlstore.Wrap(op, err)
	}
	r := &a.now
	minute, day := model.MinuteOf(now), model.DayOf(now)
	r.minute.roll(minute.Unix())
	r.day.roll(day.Unix())
	r.searches.roll(day.Unix())
	denied := fn(r)
	u := model.Usage{MinuteStart: minute, DayStart: day, Denied: denied,
		MinuteUsed: int(r.minute.used), DayUsed: int(r.day.used), SearchesUsed: int(r.searches.used)}
	covered := a.written.covers(a.now)
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
		case r.day.used >= int64(l.DailyRequests):
			return model.LimitDay
		case r.minute.used >= int64(l.MinuteRequests):
			return model.LimitMinute
		}
		r.minute.used++
		r.day.used++
		return ""
	})
}

// ReturnRequest gives back one request counted at at, in the windows
// containing at that are still current.
func (db *DB) ReturnRequest(ctx context.Context, accountID int64, at, now time.Time) (model.Usage, error) {
	return db.change(ctx, "return request", accountID, now, limits{}, func(r *usageRow) string {
		r.minute.giveBack(model.MinuteOf(at).Unix())
		r.day.giveBack(model.DayOf(at).Unix())
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
		if r.searches.used >= int64(dailyLimit) {
			return model.LimitSearchDay
		}
		r.searches.used++
		return ""
	})
}

// ReturnSearch gives back one fresh search reserved at at.
func (db *DB) ReturnSearch(ctx context.Context, accountID int64, at, now time.Time) (model.Usage, error) {
	return db.change(ctx, "return search", accountID, now, limits{}, func(r *usageRow) string {
		r.searches.giveBack(model.DayOf(at).Unix())
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
	c := &db.counters
	c.mu.Lock()
	delete(c.accounts, id)
	c.mu.Unlock()
	return nil
}
