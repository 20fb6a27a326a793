package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"signals/internal/model"
	"signals/internal/store"
)

// PutSignInLink stores a one-time sign-in link.
func (q *Queries) PutSignInLink(ctx context.Context, l store.SignInLink) error {
	_, err := q.exec(ctx, `INSERT INTO sign_in_links (hash, email, next, expires_ns) VALUES (?, ?, ?, ?)`,
		l.Hash, l.Email, l.Next, l.ExpiresAt.UnixNano())
	return Wrap("put sign-in link", err)
}

// TakeSignInLink deletes the link and returns it if it had not expired. The
// delete is one statement, so of processes taking one link at once, one
// gets it.
func (q *Queries) TakeSignInLink(ctx context.Context, hash []byte, now time.Time) (store.SignInLink, error) {
	var l store.SignInLink
	var expires int64
	err := q.writeRow(ctx, func(row *sql.Row) error {
		return row.Scan(&l.Hash, &l.Email, &l.Next, integer(&expires))
	}, `DELETE FROM sign_in_links WHERE hash = ? RETURNING hash, email, next, expires_ns`, hash)
	l.ExpiresAt = time.Unix(0, expires).UTC()
	if err == nil && !l.ExpiresAt.After(now) {
		err = store.ErrNotFound
	}
	if err != nil {
		return store.SignInLink{}, Wrap("take sign-in link", err)
	}
	return l, nil
}

// SignInLink reads an unexpired link without using it up, for the page
// that asks to confirm it.
func (q *Queries) SignInLink(ctx context.Context, hash []byte, now time.Time) (store.SignInLink, error) {
	var l store.SignInLink
	var expires int64
	err := q.queryRow(ctx, `SELECT hash, email, next, expires_ns FROM sign_in_links WHERE hash = ? AND expires_ns > ?`,
		hash, now.UnixNano()).Scan(&l.Hash, &l.Email, &l.Next, integer(&expires))
	if err != nil {
		return store.SignInLink{}, Wrap("read sign-in link", err)
	}
	l.ExpiresAt = time.Unix(0, expires).UTC()
	return l, nil
}

// CreateSession stores a session.
func (q *Queries) CreateSession(ctx context.Context, s store.Session) error {
	_, err := q.exec(ctx, `INSERT INTO sessions (hash, account_id, created_ns, expires_ns) VALUES (?, ?, ?, ?)`,
		s.Hash, s.AccountID, s.CreatedAt.UnixNano(), s.ExpiresAt.UnixNano())
	return Wrap("create session", err)
}

// SessionByHash finds an unexpired session and its account.
func (q *Queries) SessionByHash(ctx context.Context, hash []byte, now time.Time) (store.Session, model.Account, error) {
	var s store.Session
	var created, expires int64
	a, err := scanAccount(q.queryRow(ctx, `SELECT `+joinedAccountColumns+`, s.hash, s.created_ns, s.expires_ns
		FROM sessions s JOIN accounts a ON a.id = s.account_id
		WHERE s.hash = ? AND s.expires_ns > ?`, hash, now.UnixNano()),
		&s.Hash, integer(&created), integer(&expires))
	s.AccountID = a.ID
	s.CreatedAt, s.ExpiresAt = time.Unix(0, created).UTC(), time.Unix(0, expires).UTC()
	return s, a, Wrap("session by hash", err)
}

// RenewSession moves a session's expiry.
func (q *Queries) RenewSession(ctx context.Context, hash []byte, expires time.Time) error {
	_, err := q.exec(ctx, `UPDATE sessions SET expires_ns = ? WHERE hash = ?`, expires.UnixNano(), hash)
	return Wrap("renew session", err)
}

// DeleteSession ends a session.
func (q *Queries) DeleteSession(ctx context.Context, hash []byte) error {
	_, err := q.exec(ctx, `DELETE FROM sessions WHERE hash = ?`, hash)
	return Wrap("delete session", err)
}

// Throttle counts one event in the window if it is under the limit. It is
// one upsert, exact under concurrency on both engines: PostgreSQL locks the
// window's row for it, and SQLite runs one write at a time.
func (q *Queries) Throttle(ctx context.Context, key []byte, start, end time.Time, limit int) (bool, error) {
	var n int
	err := q.writeRow(ctx, func(row *sql.Row) error { return row.Scan(integer(&n)) },
		`INSERT INTO sign_in_throttle (key, start_ns, end_ns, n) VALUES (?, ?, ?, 1)
		ON CONFLICT (key, start_ns) DO UPDATE SET n = sign_in_throttle.n + 1 WHERE sign_in_throttle.n < ?
		RETURNING n`, key, start.UnixNano(), end.UnixNano(), limit)
	if errors.Is(err, store.ErrNotFound) { // the window is full: nothing updated
		return false, nil
	}
	if err != nil {
		return false, Wrap("throttle", err)
	}
	return n <= limit, nil
}

// SweepSessions deletes the sign-in links, sessions and throttle windows
// that expired before now.
func (q *Queries) SweepSessions(ctx context.Context, now time.Time) error {
	for _, query := range []string{
		`DELETE FROM sign_in_links WHERE expires_ns <= ?`,
		`DELETE FROM sessions WHERE expires_ns <= ?`,
		`DELETE FROM sign_in_throttle WHERE end_ns <= ?`,
	} {
		if _, err := q.exec(ctx, query, now.UnixNano()); err != nil {
			return Wrap("sweep sessions", err)
		}
	}
	return nil
}
