package storetest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"signals/internal/model"
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
	c := &oauthClients{st: st, acct: acct}
	for _, tc := range c.sweepCases() {
		t.Run(tc.name, func(t *testing.T) { c.checkSweep(t, tc) })
	}
	// The live grant of a swept client still works.
	if _, _, _, err := st.OAuthToken(ctx, c.liveRefresh, now); err != nil {
		t.Errorf("the live grant's refresh token after sweeps: %v", err)
	}
}

// oauthClients registers the clients of testOAuthSweep for one account,
// numbering their codes, grants and tokens.
type oauthClients struct {
	st          store.Store
	acct        model.Account
	n           int
	liveRefresh []byte // the refresh token of the live grant
}

// oauthSweepCase is a client registered at a time, what happens to it
// before the sweep, and whether the sweep keeps it.
type oauthSweepCase struct {
	name       string
	registered time.Time
	setup      func(t *testing.T, c string)
	kept       bool
}

// sweepCases are the clients each sweep is run after.
func (o *oauthClients) sweepCases() []oauthSweepCase {
	now := base
	day := 24 * time.Hour
	return []oauthSweepCase{
		{"never authorized, registered 23 hours ago", now.Add(-23 * time.Hour), nil, true},
		{"never authorized, registered 25 hours ago", now.Add(-25 * time.Hour), nil, false},
		{"authorizing: its code is unused and unexpired", now.Add(-25 * time.Hour), o.pendingCode, true},
		{"connected", now.Add(-40 * day), func(t *testing.T, c string) { o.grant(t, c, now.Add(-day)) }, true},
		{"its grant expired 29 days ago", now.Add(-80 * day), func(t *testing.T, c string) { o.grant(t, c, now.Add(-59*day)) }, true},
		{"its grant expired 31 days ago", now.Add(-80 * day), func(t *testing.T, c string) { o.grant(t, c, now.Add(-61*day)) }, false},
		{"its grant was revoked 29 days ago", now.Add(-40 * day), func(t *testing.T, c string) {
			o.revokedGrant(t, c, now.Add(-35*day), now.Add(-29*day))
		}, true},
		{"its grant was revoked 31 days ago", now.Add(-40 * day), func(t *testing.T, c string) {
			o.revokedGrant(t, c, now.Add(-35*day), now.Add(-31*day))
		}, false},
		{"one grant ended long ago, one is live", now.Add(-80 * day), func(t *testing.T, c string) {
			o.grant(t, c, now.Add(-70*day))
			_, o.liveRefresh = o.grant(t, c, now.Add(-2*day))
		}, true},
	}
}

// checkSweep registers tc's client, sets it up, sweeps, and checks that the
// client was kept or deleted.
func (o *oauthClients) checkSweep(t *testing.T, tc oauthSweepCase) {
	ctx := context.Background()
	now := base
	day := 24 * time.Hour
	o.n++
	id := fmt.Sprint("client", o.n)
	if err := o.st.PutOAuthClient(ctx, store.OAuthClient{ID: id, Name: tc.name,
		RedirectURIs: []string{"https://app.example/cb"}, CreatedAt: tc.registered}); err != nil {
		t.Fatal(err)
	}
	if tc.setup != nil {
		tc.setup(t, id)
	}
	if err := o.st.SweepOAuth(ctx, store.OAuthSweep{Now: now, EndedBefore: now.Add(-30 * day),
		UnusedBefore: now.Add(-day)}); err != nil {
		t.Fatal(err)
	}
	_, err := o.st.OAuthClient(ctx, id)
	switch {
	case tc.kept && err != nil:
		t.Errorf("deleted: %v", err)
	case !tc.kept && !errors.Is(err, store.ErrNotFound):
		t.Errorf("kept (err %v)", err)
	}
}

// pendingCode leaves client c in the middle of an authorization: its code
// is unused and unexpired.
func (o *oauthClients) pendingCode(t *testing.T, c string) {
	now := base
	if err := o.st.PutOAuthCode(context.Background(), store.OAuthCode{Hash: hashOf("pending"), ClientID: c, AccountID: o.acct.ID,
		RedirectURI: "https://app.example/cb", Challenge: "x", Scopes: []string{"signals:read"},
		Resource: "https://signals.example/mcp", ConsentedAt: now.Add(-10 * time.Second),
		ExpiresAt: now.Add(50 * time.Second)}); err != nil {
		t.Fatal(err)
	}
}

// grant connects client c from consent for its 30 days, with an access and
// a refresh token, and returns the grant's id and refresh token.
func (o *oauthClients) grant(t *testing.T, c string, consent time.Time) (string, []byte) {
	t.Helper()
	ctx := context.Background()
	day := 24 * time.Hour
	o.n++
	n := o.n
	code := hashOf(fmt.Sprint("code", n))
	if err := o.st.PutOAuthCode(ctx, store.OAuthCode{Hash: code, ClientID: c, AccountID: o.acct.ID,
		RedirectURI: "https://app.example/cb", Challenge: "x", Scopes: []string{"signals:read"},
		Resource: "https://signals.example/mcp", ConsentedAt: consent, ExpiresAt: consent.Add(time.Minute)}); err != nil {
		t.Fatal(err)
	}
	g := store.OAuthGrant{ID: fmt.Sprint("grant", n), AccountID: o.acct.ID, ClientID: c, Scopes: []string{"signals:read"},
		Resource: "https://signals.example/mcp", CreatedAt: consent, ExpiresAt: consent.Add(30 * day)}
	refresh := hashOf(fmt.Sprint("refresh", n))
	if err := o.st.RedeemOAuthCode(ctx, code, g, []store.OAuthToken{
		{Hash: hashOf(fmt.Sprint("access", n)), GrantID: g.ID, Kind: store.AccessToken, ExpiresAt: consent.Add(time.Hour)},
		{Hash: refresh, GrantID: g.ID, Kind: store.RefreshToken, ExpiresAt: g.ExpiresAt},
	}, consent); err != nil {
		t.Fatal(err)
	}
	return g.ID, refresh
}

// revokedGrant connects client c from consent and revokes the grant at
// revoked.
func (o *oauthClients) revokedGrant(t *testing.T, c string, consent, revoked time.Time) {
	id, _ := o.grant(t, c, consent)
	if err := o.st.RevokeOAuthGrant(context.Background(), o.acct.ID, id, revoked); err != nil {
		t.Fatal(err)
	}
}
