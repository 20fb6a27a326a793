package sqlstore

import (
	"cmp"
	"context"
	"database/sql"
	"strings"
	"time"

	"signals/internal/model"
	"signals/internal/store"
)

// PutOAuthClient stores a registered client.
func (q *Queries) PutOAuthClient(ctx context.Context, c store.OAuthClient) error {
	_, err := q.exec(ctx, `INSERT INTO oauth_clients (id, name, redirect_uris, created_ns)
		VALUES (?, ?, ?, ?)`, c.ID, c.Name, strings.Join(c.RedirectURIs, "\n"), c.CreatedAt.UnixNano())
	return Wrap("put oauth client", err)
}

// OAuthClient finds a client by id.
func (q *Queries) OAuthClient(ctx context.Context, id string) (store.OAuthClient, error) {
	c := store.OAuthClient{ID: id}
	var uris string
	var created int64
	err := q.queryRow(ctx, `SELECT name, redirect_uris, created_ns FROM oauth_clients WHERE id = ?`, id).
		Scan(&c.Name, &uris, &created)
	c.RedirectURIs, c.CreatedAt = strings.Split(uris, "\n"), time.Unix(0, created).UTC()
	return c, Wrap("oauth client", err)
}

// PutOAuthCode stores an authorization code.
func (q *Queries) PutOAuthCode(ctx context.Context, c store.OAuthCode) error {
	_, err := q.exec(ctx, `INSERT INTO oauth_codes (hash, client_id, account_id, redirect_uri,
		challenge, scopes, resource, consented_ns, expires_ns) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		c.Hash, c.ClientID, c.AccountID, c.RedirectURI, c.Challenge, strings.Join(c.Scopes, " "), c.Resource,
		c.ConsentedAt.UnixNano(), c.ExpiresAt.UnixNano())
	return Wrap("put oauth code", err)
}

// OAuthCode returns an unused, unexpired code; a used one revokes the grant
// it issued.
func (q *Queries) OAuthCode(ctx context.Context, hash []byte, now time.Time) (store.OAuthCode, error) {
	var c store.OAuthCode
	var scopes string
	var consented, expires int64
	var used sql.NullInt64
	var grant sql.NullString
	// Read on the writer: on SQLite the code was written there a moment ago.
	err := q.writeRow(ctx, func(row *sql.Row) error {
		return row.Scan(&c.Hash, &c.ClientID, &c.AccountID, &c.RedirectURI, &c.Challenge, &scopes, &c.Resource,
			&consented, &expires, &used, &grant)
	}, `SELECT hash, client_id, account_id, redirect_uri, challenge, scopes,
		resource, consented_ns, expires_ns, used_ns, grant_id FROM oauth_codes WHERE hash = ?`, hash)
	if err == nil && used.Valid {
		err = store.ErrReused
		if grant.Valid {
			err = cmp.Or(q.revokeGrant(ctx, grant.String, now), err)
		}
	}
	c.Scopes = strings.Fields(scopes)
	c.ConsentedAt, c.ExpiresAt = time.Unix(0, consented).UTC(), time.Unix(0, expires).UTC()
	if err == nil && !c.ExpiresAt.After(now) {
		err = store.ErrNotFound
	}
	if err != nil {
		return store.OAuthCode{}, Wrap("oauth code", err)
	}
	return c, nil
}

// revokeGrant marks a grant revoked; its tokens stop working at once.
func (q *Queries) revokeGrant(ctx context.Context, grantID string, now time.Time) error {
	_, err := q.exec(ctx, `UPDATE oauth_grants SET revoked_ns = ? WHERE id = ? AND revoked_ns IS NULL`,
		now.UnixNano(), grantID)
	return err
}

// putTokens inserts tokens.
func (q *Queries) putTokens(ctx context.Context, tx *sql.Tx, tokens []store.OAuthToken) error {
	for _, t := range tokens {
		if _, err := tx.ExecContext(ctx, q.bind(`INSERT INTO oauth_tokens (hash, grant_id, kind, expires_ns)
			VALUES (?, ?, ?, ?)`), t.Hash, t.GrantID, t.Kind, t.ExpiresAt.UnixNano()); err != nil {
			return err
		}
	}
	return nil
}

// useOnce uses up the one-time secret with this hash, a row of table: use
// (an UPDATE, with args) marks it used, and then fresh writes what the use
// gives, in the same transaction. When use changed no row, the secret was
// used before: the grant it belonged to is revoked instead, and the error
// is store.ErrReused. op names the operation in errors.
func (q *Queries) useOnce(ctx context.Context, op, table string, hash []byte, now time.Time, use string, args []any, fresh func(tx *sql.Tx) error) error {
	var reused bool
	err := q.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, q.bind(use), args...)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			reused = true
			_, err := tx.ExecContext(ctx, q.bind(`UPDATE oauth_grants SET revoked_ns = ? WHERE revoked_ns IS NULL
				AND id = (SELECT grant_id FROM `+table+` WHERE hash = ?)`), now.UnixNano(), hash)
			return err
		}
		reused = false
		return fresh(tx)
	})
	if err == nil && reused {
		return store.ErrReused
	}
	return Wrap(op, err)
}

// RedeemOAuthCode uses the code up and creates its grant and tokens; a
// code used before revokes the grant it issued instead.
func (q *Queries) RedeemOAuthCode(ctx context.Context, hash []byte, g store.OAuthGrant, tokens []store.OAuthToken, now time.Time) error {
	return q.useOnce(ctx, "redeem oauth code", "oauth_codes", hash, now,
		`UPDATE oauth_codes SET used_ns = ?, grant_id = ? WHERE hash = ? AND used_ns IS NULL`, []any{now.UnixNano(), g.ID, hash},
		func(tx *sql.Tx) error {
			if _, err := tx.ExecContext(ctx, q.bind(`INSERT INTO oauth_grants (id, account_id, client_id, scopes, resource,
				created_ns, expires_ns) VALUES (?, ?, ?, ?, ?, ?, ?)`), g.ID, g.AccountID, g.ClientID,
				strings.Join(g.Scopes, " "), g.Resource, g.CreatedAt.UnixNano(), g.ExpiresAt.UnixNano()); err != nil {
				return err
			}
			return q.putTokens(ctx, tx, tokens)
		})
}

// grantColumns are the columns grantDest lists, from oauth_grants g joined
// with oauth_clients c.
const grantColumns = `g.id, g.account_id, g.client_id, c.name, g.scopes, g.resource, g.created_ns, g.expires_ns, g.last_used_ns`

// grantDest returns where to scan grantColumns for g, and what completes g
// once they are scanned.
func grantDest(g *store.OAuthGrant) (dest []any, finish func()) {
	var scopes string
	var created, expires int64
	var last any
	return []any{&g.ID, &g.AccountID, &g.ClientID, &g.ClientName, &scopes, &g.Resource, &created, &expires, &last},
		func() {
			g.Scopes = strings.Fields(scopes)
			g.CreatedAt, g.ExpiresAt = time.Unix(0, created).UTC(), time.Unix(0, expires).UTC()
			g.LastUsed = optionalTime(last)
		}
}

// OAuthToken finds a live token with its grant and account.
func (q *Queries) OAuthToken(ctx context.Context, hash []byte, now time.Time) (store.OAuthToken, store.OAuthGrant, model.Account, error) {
	var t store.OAuthToken
	var g store.OAuthGrant
	var expires int64
	var used, revoked sql.NullInt64
	gdest, finish := grantDest(&g)
	a, err := scanAccount(q.queryRow(ctx, `SELECT `+joinedAccountColumns+`,
		t.hash, t.grant_id, t.kind, t.expires_ns, t.used_ns, g.revoked_ns, `+grantColumns+`
		FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id JOIN oauth_clients c ON c.id = g.client_id
		JOIN accounts a ON a.id = g.account_id WHERE t.hash = ?`, hash),
		append([]any{&t.Hash, &t.GrantID, &t.Kind, &expires, &used, &revoked}, gdest...)...)
	finish()
	t.ExpiresAt = time.Unix(0, expires).UTC()
	switch {
	case err != nil:
	case revoked.Valid || !g.ExpiresAt.After(now):
		err = store.ErrNotFound
	case used.Valid:
		err = cmp.Or(q.revokeGrant(ctx, g.ID, now), store.ErrReused)
	case !t.ExpiresAt.After(now):
		err = store.ErrNotFound
	}
	if err != nil {
		return store.OAuthToken{}, store.OAuthGrant{}, model.Account{}, Wrap("oauth token", err)
	}
	return t, g, a, nil
}

// RotateOAuthRefresh uses a refresh token up and stores its successors; a
// token used before revokes its grant instead.
func (q *Queries) RotateOAuthRefresh(ctx context.Context, hash []byte, tokens []store.OAuthToken, now time.Time) error {
	return q.useOnce(ctx, "rotate oauth refresh", "oauth_tokens", hash, now,
		`UPDATE oauth_tokens SET used_ns = ? WHERE hash = ? AND kind = 'refresh' AND used_ns IS NULL`, []any{now.UnixNano(), hash},
		func(tx *sql.Tx) error { return q.putTokens(ctx, tx, tokens) })
}

// RevokeOAuthGrant ends one of the account's live grants.
func (q *Queries) RevokeOAuthGrant(ctx context.Context, accountID int64, grantID string, now time.Time) error {
	err := q.inTx(ctx, func(tx *sql.Tx) error {
		err := changedRow(q.execOn(ctx, tx, `UPDATE oauth_grants SET revoked_ns = ?
			WHERE id = ? AND account_id = ? AND revoked_ns IS NULL`, now.UnixNano(), grantID, accountID))
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, q.bind(`DELETE FROM oauth_tokens WHERE grant_id = ?`), grantID)
		return err
	})
	return Wrap("revoke oauth grant", err)
}

// TouchOAuthGrant records when a grant was last used.
func (q *Queries) TouchOAuthGrant(ctx context.Context, grantID string, at time.Time) error {
	_, err := q.exec(ctx, `UPDATE oauth_grants SET last_used_ns = ? WHERE id = ?`, at.UnixNano(), grantID)
	return Wrap("touch oauth grant", err)
}

// OAuthGrants lists the account's live grants, newest first.
func (q *Queries) OAuthGrants(ctx context.Context, accountID int64, now time.Time) ([]store.OAuthGrant, error) {
	out, err := readAll(ctx, q, scanInto(grantDest), `SELECT `+grantColumns+`
		FROM oauth_grants g JOIN oauth_clients c ON c.id = g.client_id
		WHERE g.account_id = ? AND g.revoked_ns IS NULL AND g.expires_ns > ?
		ORDER BY g.created_ns DESC, g.id DESC`, accountID, now.UnixNano())
	return out, Wrap("oauth grants", err)
}

// SweepOAuth deletes expired codes and tokens, grants that ended before
// sweep.EndedBefore and clients left unused since sweep.UnusedBefore, in
// that order, so that a client whose grants went is deleted in the same
// sweep.
func (q *Queries) SweepOAuth(ctx context.Context, sweep store.OAuthSweep) error {
	now, ended, unused := sweep.Now.UnixNano(), sweep.EndedBefore.UnixNano(), sweep.UnusedBefore.UnixNano()
	for _, st := range []struct {
		query string
		args  []any
	}{
		// A refresh token expires with its grant, so a used one stays as
		// long as presenting it again must end a live grant.
		{`DELETE FROM oauth_tokens WHERE expires_ns <= ?
			OR grant_id IN (SELECT id FROM oauth_grants WHERE revoked_ns IS NOT NULL)`, []any{now}},
		{`DELETE FROM oauth_grants WHERE expires_ns <= ? OR revoked_ns <= ?`, []any{ended, ended}},
		// A used code stays while its grant does, so that a replay is
		// still recognised and ends the grant.
		{`DELETE FROM oauth_codes WHERE expires_ns <= ?
			AND (grant_id IS NULL OR grant_id NOT IN (SELECT id FROM oauth_grants))`, []any{now}},
		// A client with a code is in the middle of an authorization.
		{`DELETE FROM oauth_clients WHERE created_ns <= ?
			AND NOT EXISTS (SELECT 1 FROM oauth_grants g WHERE g.client_id = oauth_clients.id)
			AND NOT EXISTS (SELECT 1 FROM oauth_codes c WHERE c.client_id = oauth_clients.id)`, []any{unused}},
	} {
		if _, err := q.exec(ctx, st.query, st.args...); err != nil {
			return Wrap("sweep oauth", err)
		}
	}
	return nil
}
