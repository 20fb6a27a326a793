package storetest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"signals/internal/store"
)

// runOAuth is the suite of OAuth clients, codes, grants and tokens.
func runOAuth(t *testing.T, open Opener) {
	t.Run("OAuthSweepDeletesUnusedClients", func(t *testing.T) { testOAuthSweep(t, open(t)) })
}

// testOAuthSweep: a sweep deletes clients that never completed an
// authorization once registered before UnusedBefore, and grants that
// ended before EndedBefore, and then their clients; it keeps clients in
// the middle of an authorization and clients with a live or recently ended
// grant.
func testOAuthSweep(t *testing.T, st store.Store) {
	ctx := context.Background()
	now := base
	day := 24 * time.Hour
	acct, err := st.CreateAccount(ctx, "ada@example.com", now.Add(-100*day))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	// grant connects client c from consent for its 30 days, with an access
	// and a refresh token, and returns the grant's id and refresh token.
	grant := func(t *testing.T, c string, consent time.Time) (string, []byte) {
		t.Helper()
		n++
		code := hashOf(fmt.Sprint("code", n))
		if err := st.PutOAuthCode(ctx, store.OAuthCode{Hash: code, ClientID: c, AccountID: acct.ID,
			RedirectURI: "https://app.example/cb", Challenge: "x", Scopes: []string{"signals:read"},
			Resource: "https://signals.example/mcp", ConsentedAt: consent, ExpiresAt: consent.Add(time.Minute)}); err != nil {
			t.Fatal(err)
		}
		g := store.OAuthGrant{ID: fmt.Sprint("grant", n), AccountID: acct.ID, ClientID: c, Scopes: []string{"signals:read"},
			Resource: "https://signals.example/mcp", CreatedAt: consent, ExpiresAt: consent.Add(30 * day)}
		refresh := hashOf(fmt.Sprint("refresh", n))
		if err := st.RedeemOAuthCode(ctx, code, g, []store.OAuthToken{
			{Hash: hashOf(fmt.Sprint("access", n)), GrantID: g.ID, Kind: store.AccessToken, ExpiresAt: consent.Add(time.Hour)},
			{Hash: refresh, GrantID: g.ID, Kind: store.RefreshToken, ExpiresAt: g.ExpiresAt},
		}, consent); err != nil {
			t.Fatal(err)
		}
		return g.ID, refresh
	}
	var liveRefresh []byte
	for _, tc := range []struct {
		name       string
		registered time.Time
		setup      func(t *testing.T, c string)
		kept       bool
	}{
		{"never authorized, registered 23 hours ago", now.Add(-23 * time.Hour), nil, true},
		{"never authorized, registered 25 hours ago", now.Add(-25 * time.Hour), nil, false},
		{"authorizing: its code is unused and unexpired", now.Add(-25 * time.Hour), func(t *testing.T, c string) {
			if err := st.PutOAuthCode(ctx, store.OAuthCode{Hash: hashOf("pending"), ClientID: c, AccountID: acct.ID,
				RedirectURI: "https://app.example/cb", Challenge: "x", Scopes: []string{"signals:read"},
				Resource: "https://signals.example/mcp", ConsentedAt: now.Add(-10 * time.Second),
				ExpiresAt: now.Add(50 * time.Second)}); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"connected", now.Add(-40 * day), func(t *testing.T, c string) { grant(t, c, now.Add(-day)) }, true},
		{"its grant expired 29 days ago", now.Add(-80 * day), func(t *testing.T, c string) { grant(t, c, now.Add(-59*day)) }, true},
		{"its grant expired 31 days ago", now.Add(-80 * day), func(t *testing.T, c string) { grant(t, c, now.Add(-61*day)) }, false},
		{"its grant was revoked 29 days ago", now.Add(-40 * day), func(t *testing.T, c string) {
			id, _ := grant(t, c, now.Add(-35*day))
			if err := st.RevokeOAuthGrant(ctx, acct.ID, id, now.Add(-29*day)); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"its grant was revoked 31 days ago", now.Add(-40 * day), func(t *testing.T, c string) {
			id, _ := grant(t, c, now.Add(-35*day))
			if err := st.RevokeOAuthGrant(ctx, acct.ID, id, now.Add(-31*day)); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"one grant ended long ago, one is live", now.Add(-80 * day), func(t *testing.T, c string) {
			grant(t, c, now.Add(-70*day))
			_, liveRefresh = grant(t, c, now.Add(-2*day))
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n++
			id := fmt.Sprint("client", n)
			if err := st.PutOAuthClient(ctx, store.OAuthClient{ID: id, Name: tc.name,
				RedirectURIs: []string{"https://app.example/cb"}, CreatedAt: tc.registered}); err != nil {
				t.Fatal(err)
			}
			if tc.setup != nil {
				tc.setup(t, id)
			}
			if err := st.SweepOAuth(ctx, store.OAuthSweep{Now: now, EndedBefore: now.Add(-30 * day),
				UnusedBefore: now.Add(-day)}); err != nil {
				t.Fatal(err)
			}
			_, err := st.OAuthClient(ctx, id)
			switch {
			case tc.kept && err != nil:
				t.Errorf("deleted: %v", err)
			case !tc.kept && !errors.Is(err, store.ErrNotFound):
				t.Errorf("kept (err %v)", err)
			}
		})
	}
	// The live grant of a swept client still works.
	if _, _, _, err := st.OAuthToken(ctx, liveRefresh, now); err != nil {
		t.Errorf("the live grant's refresh token after sweeps: %v", err)
	}
}
