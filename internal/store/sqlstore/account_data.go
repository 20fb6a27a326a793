package sqlstore

import (
	"cmp"
	"context"
	"database/sql"
	"slices"
	"time"

	"signals/internal/store"
)

// AddDailyUsage adds counts to accounts' days, in one transaction; counts of
// accounts deleted meanwhile are dropped. The rows are written in the order
// of their keys, so that processes adding theirs beside each other lock
// them in one order and never deadlock.
func (q *Queries) AddDailyUsage(ctx context.Context, add []store.DayUsage) error {
	if len(add) == 0 {
		return nil
	}
	add = slices.SortedFunc(slices.Values(add), func(x, y store.DayUsage) int {
		return cmp.Or(cmp.Compare(x.AccountID, y.AccountID), x.Day.Compare(y.Day))
	})
	args := make([][]any, len(add))
	for i, d := range add {
		args[i] = []any{d.Day.Unix(), d.Requests, d.Searches, d.AccountID}
	}
	return Wrap("add daily usage", q.execEach(ctx, `INSERT INTO daily_usage (account_id, day, requests, searches)
		SELECT id, ?, ?, ? FROM accounts WHERE id = ?
		ON CONFLICT (account_id, day) DO UPDATE SET requests = daily_usage.requests + excluded.requests,
			searches = daily_usage.searches + excluded.searches`, args))
}

// DailyUsage returns the account's recorded days in [from, to).
func (q *Queries) DailyUsage(ctx context.Context, accountID int64, from, to time.Time) ([]store.DayUsage, error) {
	out, err := readAll(ctx, q, func(rows *sql.Rows) (store.DayUsage, error) {
		d := store.DayUsage{AccountID: accountID}
		var day int64
		err := rows.Scan(integer(&day), integer(&d.Requests), integer(&d.Searches))
		d.Day = time.Unix(day, 0).UTC()
		return d, err
	}, `SELECT day, requests, searches FROM daily_usage
		WHERE account_id = ? AND day >= ? AND day < ? ORDER BY day`, accountID, from.Unix(), to.Unix())
	return out, Wrap("daily usage", err)
}

// DeleteAccount removes the account with everything it owns (the schema
// cascades) and the sign-in links sent to its email, in one transaction.
func (q *Queries) DeleteAccount(ctx context.Context, id int64) error {
	err := q.inTx(ctx, func(tx *sql.Tx) error {
		var email string
		err := tx.QueryRowContext(ctx, q.bind(`DELETE FROM accounts WHERE id = ? RETURNING email`), id).Scan(&email)
		if err != nil {
			return notFound(err)
		}
		_, err = tx.ExecContext(ctx, q.bind(`DELETE FROM sign_in_links WHERE email = ?`), email)
		return err
	})
	return Wrap("delete account", err)
}
