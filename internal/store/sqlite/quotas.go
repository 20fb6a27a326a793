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
// mutex (exact, about a microsecond) and the counters are written behind, in
// one transaction every flushEvery, and on Close. A crash can lose at most
// the last flushEvery of counts; a restart loses nothing.
const flushEvery = 50 * time.Millisecond

// usageRow is an account's counters; a window whose start is not the
// current one counts as empty.
type usageRow struct {
	MinuteStart, MinuteUsed      int64
	DayStart, DayUsed            int64
	SearchDayStart, SearchesUsed int64
}

type counters struct {
	mu    sync.Mutex
	rows  map[int64]*usageRow
	dirty map[int64]bool

	stop chan struct{}
	done chan struct{}
}

func (db *DB) startCounters() {
	db.counters = &counters{
		rows: map[int64]*usageRow{}, dirty: map[int64]bool{},
		stop: make(chan struct{}), done: make(chan struct{}),
	}
	go db.flushLoop()
}

func (db *DB) flushLoop() {
	defer close(db.counters.done)
	t := time.NewTicker(flushEvery)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			if err := db.flushCounters(context.Background()); err != nil {
				db.logError("flush usage counters", err)
			}
		case <-db.counters.stop:
			return
		}
	}
}

// closeCounters stops the flusher and writes what it had not written yet.
func (db *DB) closeCounters() error {
	close(db.counters.stop)
	<-db.counters.done
	return db.flushCounters(context.Background())
}

func (db *DB) flushCounters(ctx context.Context) error {
	c := db.counters
	c.mu.Lock()
	if len(c.dirty) == 0 {
		c.mu.Unlock()
		return nil
	}
	batch := make(map[int64]usageRow, len(c.dirty))
	for id := range c.dirty {
		// A request in flight while its account was deleted may mark a
		// row that no longer exists; there is nothing left to write.
		if r := c.rows[id]; r != nil {
			batch[id] = *r
		}
	}
	clear(c.dirty)
	c.mu.Unlock()

	err := sqlstore.Wrap("write usage counters", db.writeUsage(ctx, batch))
	if err != nil {
		// Keep them dirty so the next flush retries.
		c.mu.Lock()
		for id := range batch {
			c.dirty[id] = true
		}
		c.mu.Unlock()
	}
	return err
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
// and the usage after it is returned. op names the change in errors.
func (db *DB) change(ctx context.Context, op string, accountID int64, now time.Time, fn func(r *usageRow) (denied string)) (model.Usage, error) {
	r, err := db.row(ctx, accountID)
	if err != nil {
		return model.Usage{}, sqlstore.Wrap(op, err)
	}
	defer db.counters.mu.Unlock()
	r.roll(now)
	before := *r
	denied := fn(r)
	if *r != before {
		db.counters.dirty[accountID] = true
	}
	u := r.usage(now)
	u.Denied = denied
	return u, nil
}

// TakeRequest counts one request if the account is under both limits.
func (db *DB) TakeRequest(ctx context.Context, accountID int64, l model.Limits, now time.Time) (model.Usage, error) {
	return db.change(ctx, "take request", accountID, now, func(r *usageRow) string {
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
	return db.change(ctx, "return request", accountID, now, func(r *usageRow) string {
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
	return db.change(ctx, "read usage", accountID, now, func(*usageRow) string { return "" })
}

// ReserveSearch takes one fresh search of the account's UTC day.
func (db *DB) ReserveSearch(ctx context.Context, accountID int64, dailyLimit int, now time.Time) (model.Usage, error) {
	return db.change(ctx, "reserve search", accountID, now, func(r *usageRow) string {
		if r.SearchesUsed >= int64(dailyLimit) {
			return model.LimitSearchDay
		}
		r.SearchesUsed++
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
	delete(c.dirty, id)
	c.mu.Unlock()
	return nil
}
