package postgres

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"signals/internal/model"
	"signals/internal/store"
	"signals/internal/store/postgres/pgtest"
	"signals/internal/store/sqlstore"
)

// droppedStore is a store whose sessions the test can terminate, as an
// administrator or a restarting server would.
type droppedStore struct {
	*DB
	admin *pgx.Conn
	name  string
	acct  model.Account
}

func openDropped(t *testing.T) *droppedStore {
	t.Helper()
	ctx := context.Background()
	own := pgtest.FreshSchema(t)
	name := pgtest.RandomName("signals_dropped_")
	db := open(t, pgtest.WithParam(own, "application_name", name))
	admin, err := pgx.Connect(ctx, own)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close(context.Background()) })
	acct, err := db.CreateAccount(ctx, "drop@example.com", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return &droppedStore{DB: db, admin: admin, name: name, acct: acct}
}

// terminate ends every session of the store; it reports how many.
func (s *droppedStore) terminate(t *testing.T) int {
	t.Helper()
	var n int
	if err := s.admin.QueryRow(context.Background(), `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE application_name = $1`, s.name).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestEveryStatementSurvivesADroppedConnection terminates the store's
// sessions before each kind of statement (reads, single writes,
// transactions, quota and lease upserts): each runs once more on a new
// connection, and a write is applied once, not twice.
func TestEveryStatementSurvivesADroppedConnection(t *testing.T) {
	t.Parallel()
	pgtest.ServerURL(t)
	ctx := context.Background()
	now := time.Now()
	code := store.OAuthCode{Hash: []byte("code-hash"), ClientID: "client-1", RedirectURI: "http://127.0.0.1/cb",
		Challenge: "challenge", Scopes: []string{"signals:read"}, Resource: "https://signals.example/mcp",
		ConsentedAt: now, ExpiresAt: now.Add(time.Minute)}
	grant := store.OAuthGrant{ID: "grant-1", ClientID: "client-1", Scopes: code.Scopes, Resource: code.Resource,
		CreatedAt: now, ExpiresAt: now.Add(24 * time.Hour)}
	refresh := store.OAuthToken{Hash: []byte("refresh-1"), GrantID: "grant-1", Kind: "refresh", ExpiresAt: now.Add(time.Hour)}
	withClient := func(t *testing.T, s *droppedStore) {
		t.Helper()
		if err := s.PutOAuthClient(ctx, store.OAuthClient{ID: "client-1", Name: "c", RedirectURIs: []string{code.RedirectURI}, CreatedAt: now}); err != nil {
			t.Fatal(err)
		}
	}
	withCode := func(t *testing.T, s *droppedStore) {
		t.Helper()
		withClient(t, s)
		c := code
		c.AccountID = s.acct.ID
		if err := s.PutOAuthCode(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	withGrant := func(t *testing.T, s *droppedStore) {
		t.Helper()
		withCode(t, s)
		g := grant
		g.AccountID = s.acct.ID
		if err := s.RedeemOAuthCode(ctx, code.Hash, g, []store.OAuthToken{refresh}, now); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name    string
		prepare func(t *testing.T, s *droppedStore)
		run     func(s *droppedStore) error
		// check runs on a live connection: what run wrote, it wrote once.
		check func(t *testing.T, s *droppedStore)
	}{
		{name: "put oauth client",
			run: func(s *droppedStore) error {
				return s.PutOAuthClient(ctx, store.OAuthClient{ID: "client-1", Name: "c", RedirectURIs: []string{"http://x/cb"}, CreatedAt: now})
			},
			check: func(t *testing.T, s *droppedStore) {
				if _, err := s.OAuthClient(ctx, "client-1"); err != nil {
					t.Errorf("the client is not stored: %v", err)
				}
			}},
		{name: "read oauth client", prepare: withClient,
			run: func(s *droppedStore) error { _, err := s.OAuthClient(ctx, "client-1"); return err }},
		{name: "read oauth code", prepare: withCode,
			run: func(s *droppedStore) error { _, err := s.OAuthCode(ctx, code.Hash, now); return err }},
		{name: "redeem oauth code", prepare: withCode,
			run: func(s *droppedStore) error {
				g := grant
				g.AccountID = s.acct.ID
				return s.RedeemOAuthCode(ctx, code.Hash, g, []store.OAuthToken{refresh}, now)
			},
			check: func(t *testing.T, s *droppedStore) {
				// Redeemed once: the grant lives (a second redemption
				// would have revoked it).
				if _, _, _, err := s.OAuthToken(ctx, refresh.Hash, now); err != nil {
					t.Errorf("the grant's refresh token: %v", err)
				}
			}},
		{name: "rotate oauth refresh", prepare: withGrant,
			run: func(s *droppedStore) error {
				return s.RotateOAuthRefresh(ctx, refresh.Hash, []store.OAuthToken{{Hash: []byte("refresh-2"), GrantID: grant.ID,
					Kind: "refresh", ExpiresAt: now.Add(time.Hour)}}, now)
			},
			check: func(t *testing.T, s *droppedStore) {
				if _, _, _, err := s.OAuthToken(ctx, []byte("refresh-2"), now); err != nil {
					t.Errorf("the successor token (a second rotation revokes the grant): %v", err)
				}
			}},
		{name: "oauth token", prepare: withGrant,
			run: func(s *droppedStore) error { _, _, _, err := s.OAuthToken(ctx, refresh.Hash, now); return err }},
		{name: "oauth grants", prepare: withGrant,
			run: func(s *droppedStore) error { _, err := s.OAuthGrants(ctx, s.acct.ID, now); return err }},
		{name: "revoke oauth grant", prepare: withGrant,
			run: func(s *droppedStore) error { return s.RevokeOAuthGrant(ctx, s.acct.ID, grant.ID, now) }},
		{name: "sign-in throttle",
			run: func(s *droppedStore) error {
				_, err := s.Throttle(ctx, []byte("k"), now, now.Add(time.Hour), 2)
				return err
			},
			check: func(t *testing.T, s *droppedStore) {
				// Counted once: one more fits under the limit of 2.
				if ok, err := s.Throttle(ctx, []byte("k"), now, now.Add(time.Hour), 2); !ok || err != nil {
					t.Errorf("second event: %v, %v; the first was counted twice", ok, err)
				}
			}},
		{name: "take sign-in link",
			prepare: func(t *testing.T, s *droppedStore) {
				if err := s.PutSignInLink(ctx, store.SignInLink{Hash: []byte("link"), Email: "drop@example.com", ExpiresAt: now.Add(time.Hour)}); err != nil {
					t.Fatal(err)
				}
			},
			run: func(s *droppedStore) error { _, err := s.TakeSignInLink(ctx, []byte("link"), now); return err }},
		{name: "put interests",
			run: func(s *droppedStore) error {
				return s.PutInterests(ctx, s.acct.ID, model.Interests{Tags: []string{"job"}, Frequency: "daily", Since: now})
			}},
		{name: "session by hash",
			run: func(s *droppedStore) error {
				_, _, err := s.SessionByHash(ctx, []byte("none"), now)
				if errors.Is(err, store.ErrNotFound) {
					return nil
				}
				return err
			}},
		{name: "list signals",
			run: func(s *droppedStore) error {
				_, _, err := s.ListSignals(ctx, model.ListQuery{PageSize: 10, Page: 1})
				return err
			}},
		{name: "take request",
			run: func(s *droppedStore) error {
				_, err := s.TakeRequest(ctx, s.acct.ID, model.InitialLimits, now)
				return err
			},
			check: func(t *testing.T, s *droppedStore) {
				if u, err := s.Usage(ctx, s.acct.ID, now); err != nil || u.MinuteUsed != 1 {
					t.Errorf("usage %+v, %v; want one request counted", u, err)
				}
			}},
		{name: "reserve search",
			run: func(s *droppedStore) error {
				_, err := s.ReserveSearch(ctx, s.acct.ID, 10, now)
				return err
			},
			check: func(t *testing.T, s *droppedStore) {
				if u, err := s.Usage(ctx, s.acct.ID, now); err != nil || u.SearchesUsed != 1 {
					t.Errorf("usage %+v, %v; want one search reserved", u, err)
				}
			}},
		{name: "acquire search slot",
			run: func(s *droppedStore) error {
				_, ok, err := s.AcquireSearchSlot(ctx, s.acct.ID, 1, now, time.Minute)
				if err == nil && !ok {
					return errors.New("no slot")
				}
				return err
			}},
		{name: "claim search",
			run: func(s *droppedStore) error {
				_, ok, err := s.ClaimSearch(ctx, "key", now, time.Minute)
				if err == nil && !ok {
					return errors.New("not claimed")
				}
				return err
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := openDropped(t)
			if tt.prepare != nil {
				tt.prepare(t, s)
			}
			if n := s.terminate(t); n == 0 {
				t.Fatal("no session of the store to terminate")
			}
			if err := tt.run(s); err != nil {
				t.Fatalf("after the connections dropped: %v", err)
			}
			if tt.check != nil {
				tt.check(t, s)
			}
		})
	}
}

// TestMayHaveCommitted: only a COMMIT that got no answer is left
// unretried; a statement before it, or a COMMIT the server refused,
// applied nothing.
func TestMayHaveCommitted(t *testing.T) {
	terminated := &pgconn.PgError{Severity: "FATAL", Code: "57P01"}
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"statement on a terminated session", fmt.Errorf("store: x: %w", terminated), false},
		{"connection lost before commit", fmt.Errorf("store: x: %w", io.ErrUnexpectedEOF), false},
		{"commit answered by a termination", fmt.Errorf("store: x: %w", &sqlstore.CommitError{Err: terminated}), false},
		{"commit without an answer", fmt.Errorf("store: x: %w", &sqlstore.CommitError{Err: io.ErrUnexpectedEOF}), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := mayHaveCommitted(tt.err); got != tt.want {
				t.Errorf("mayHaveCommitted(%v) = %v, want %v", tt.err, got, tt.want)
			}
		})
	}
}
