package app_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"signals/internal/app"
	"signals/internal/apptest"
	"signals/internal/mcp"
	"signals/internal/store/postgres/pgtest"
)

// callTool calls a tool on /mcp with an access token; it returns the status
// and the response.
func oauthCall(t *testing.T, base, token, tool string) (*http.Response, string) {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tool + `","arguments":{}}}`
	if tool == mcp.SearchTool {
		body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_signals","arguments":{"query":"robots"}}}`
	}
	if tool == "tools/list" {
		body = rpcToolsList
	}
	req, _ := http.NewRequest(http.MethodPost, base+"/mcp", strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp, string(raw)
}

func wantTool(t *testing.T, base, token, tool string, status int) *http.Response {
	t.Helper()
	resp, body := oauthCall(t, base, token, tool)
	if resp.StatusCode != status {
		t.Fatalf("%s: status %d, want %d\n%s", tool, resp.StatusCode, status, body)
	}
	if status == http.StatusOK && strings.Contains(body, `"isError":true`) {
		t.Fatalf("%s failed: %s", tool, body)
	}
	return resp
}

func oauthError(err error) string {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) {
		return re.ErrorCode
	}
	return ""
}

// TestOAuthFlowWithGoClient drives discovery-less registration, consent
// after sign-in, PKCE, tool calls, refresh rotation and replay detection
// with golang.org/x/oauth2 against the real server.
func TestOAuthFlowWithGoClient(t *testing.T) {
	t.Parallel()
	ta, clk := apptest.StartAt(t, apptest.Noon)
	ta.Put(apptest.Fixtures()...)
	ctx := context.Background()
	client := apptest.RegisterClient(t, ta.URL, "Go <Client>")
	conf := apptest.OAuthConfig(ta.URL, client, "signals:read", "signals:search")

	// Not signed in: sign in first, then come back to consent.
	b := apptest.NewBrowser(ta)
	verifier := oauth2.GenerateVerifier()
	authURL := conf.AuthCodeURL("s", oauth2.S256ChallengeOption(verifier), oauth2.SetAuthURLParam("resource", apptest.Resource))
	u, _ := url.Parse(authURL)
	resp, body := b.Get(u.RequestURI())
	apptest.WantPage(t, resp, body, http.StatusSeeOther)
	loc, _ := url.Parse(resp.Header.Get("Location"))
	if loc.Path != "/sign-in" || loc.Query().Get("next") != u.RequestURI() {
		t.Fatalf("not signed in: sent to %s", loc)
	}
	back := b.SignIn(t, "dev@example.com", loc.Query().Get("next"))
	if back != u.RequestURI() {
		t.Fatalf("after sign-in: sent to %q", back)
	}
	q := apptest.Consent(t, b, ta.URL+back, "allow")
	tok, err := conf.Exchange(ctx, q.Get("code"), oauth2.VerifierOption(verifier), oauth2.SetAuthURLParam("resource", apptest.Resource))
	if err != nil {
		t.Fatal(err)
	}
	if tok.TokenType != "Bearer" || tok.RefreshToken == "" || tok.Extra("scope") != "signals:read signals:search" {
		t.Fatalf("token %+v scope %v", tok, tok.Extra("scope"))
	}
	if got := int(time.Until(tok.Expiry).Round(time.Minute).Minutes()); got != 60 {
		t.Errorf("access token lives %d minutes, want 60", got)
	}
	for _, tool := range []string{"tools/list", mcp.ListTool, mcp.SearchTool} {
		resp := wantTool(t, ta.URL, tok.AccessToken, tool, http.StatusOK)
		if tool == mcp.ListTool && resp.Header.Get("RateLimit") == "" {
			t.Error("an OAuth tool call is not counted against the account")
		}
	}

	// The code works once; its second use revokes what the first issued.
	if _, err := conf.Exchange(ctx, q.Get("code"), oauth2.VerifierOption(verifier)); oauthError(err) != "invalid_grant" {
		t.Fatalf("second use of a code: %v", err)
	}
	wantTool(t, ta.URL, tok.AccessToken, mcp.ListTool, http.StatusUnauthorized)

	// A fresh connection; refresh rotates; the old refresh token replayed
	// ends the whole connection, newest tokens included.
	tok, _ = apptest.Authorize(t, b, conf)
	old := tok.RefreshToken
	tok.Expiry = time.Now().Add(-time.Minute)
	fresh, err := conf.TokenSource(ctx, tok).Token()
	if err != nil {
		t.Fatal(err)
	}
	if fresh.RefreshToken == old || fresh.AccessToken == tok.AccessToken {
		t.Fatal("refresh did not rotate the tokens")
	}
	wantTool(t, ta.URL, fresh.AccessToken, mcp.ListTool, http.StatusOK)
	_, err = conf.TokenSource(ctx, &oauth2.Token{RefreshToken: old, Expiry: time.Now().Add(-time.Minute)}).Token()
	if oauthError(err) != "invalid_grant" {
		t.Fatalf("replayed refresh token: %v", err)
	}
	wantTool(t, ta.URL, fresh.AccessToken, mcp.ListTool, http.StatusUnauthorized)
	fresh.Expiry = time.Now().Add(-time.Minute)
	if _, err := conf.TokenSource(ctx, fresh).Token(); oauthError(err) != "invalid_grant" {
		t.Fatalf("newest refresh token after a replay: %v", err)
	}

	// Access tokens last an hour; a connection at most 30 days from consent.
	tok, _ = apptest.Authorize(t, b, conf)
	clk.Set(apptest.Noon.Add(61 * time.Minute))
	wantTool(t, ta.URL, tok.AccessToken, mcp.ListTool, http.StatusUnauthorized)
	tok.Expiry = time.Now().Add(-time.Minute)
	for day := 1; day <= 29; day += 7 {
		clk.Set(apptest.Noon.Add(time.Duration(day) * 24 * time.Hour))
		if tok, err = conf.TokenSource(ctx, tok).Token(); err != nil {
			t.Fatalf("refresh on day %d: %v", day, err)
		}
		tok.Expiry = time.Now().Add(-time.Minute)
	}
	clk.Set(apptest.Noon.Add(30*24*time.Hour + time.Second))
	if _, err := conf.TokenSource(ctx, tok).Token(); oauthError(err) != "invalid_grant" {
		t.Fatalf("refresh after 30 days: %v", err)
	}
}

func TestOAuthCodeExpiresAfterSixtySeconds(t *testing.T) {
	t.Parallel()
	ta, clk := apptest.StartAt(t, apptest.Noon)
	conf := apptest.OAuthConfig(ta.URL, apptest.RegisterClient(t, ta.URL, "Slow"))
	b := apptest.SignedIn(t, ta)
	verifier := oauth2.GenerateVerifier()
	q := apptest.Consent(t, b, conf.AuthCodeURL("s", oauth2.S256ChallengeOption(verifier), oauth2.SetAuthURLParam("resource", apptest.Resource)), "allow")
	clk.Set(apptest.Noon.Add(61 * time.Second))
	if _, err := conf.Exchange(context.Background(), q.Get("code"), oauth2.VerifierOption(verifier)); oauthError(err) != "invalid_grant" {
		t.Fatalf("expired code: %v", err)
	}
}

func TestOAuthTokenRefusals(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	client := apptest.RegisterClient(t, ta.URL, "C")
	other := apptest.RegisterClient(t, ta.URL, "Other")
	b := apptest.SignedIn(t, ta)
	newCode := func() (string, string) {
		verifier := oauth2.GenerateVerifier()
		conf := apptest.OAuthConfig(ta.URL, client)
		q := apptest.Consent(t, b, conf.AuthCodeURL("s", oauth2.S256ChallengeOption(verifier), oauth2.SetAuthURLParam("resource", apptest.Resource)), "allow")
		return q.Get("code"), verifier
	}
	for _, tc := range []struct {
		name string
		form func(code, verifier string) url.Values
		code string
	}{
		{"wrong verifier", func(c, v string) url.Values {
			return url.Values{"code_verifier": {oauth2.GenerateVerifier()}}
		}, "invalid_grant"},
		{"no verifier", func(c, v string) url.Values { return url.Values{"code_verifier": {""}} }, "invalid_request"},
		{"other redirect URI", func(c, v string) url.Values {
			return url.Values{"redirect_uri": {"http://127.0.0.1:9/other"}}
		}, "invalid_grant"},
		{"other client", func(c, v string) url.Values { return url.Values{"client_id": {other}} }, "invalid_grant"},
		{"unknown client", func(c, v string) url.Values { return url.Values{"client_id": {"client_nope"}} }, "invalid_client"},
		{"other resource", func(c, v string) url.Values {
			return url.Values{"resource": {"https://signals.example/api/v1"}}
		}, "invalid_target"},
		{"password grant", func(c, v string) url.Values { return url.Values{"grant_type": {"password"}} }, "unsupported_grant_type"},
		{"client credentials", func(c, v string) url.Values {
			return url.Values{"grant_type": {"client_credentials"}}
		}, "unsupported_grant_type"},
		{"repeated code", func(c, v string) url.Values { return url.Values{"code": {c, c}} }, "invalid_request"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, verifier := newCode()
			form := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "code_verifier": {verifier},
				"redirect_uri": {apptest.Redirect}, "client_id": {client}}
			for k, v := range tc.form(code, verifier) {
				form[k] = v
			}
			resp, err := http.PostForm(ta.URL+"/oauth/token", form)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var e struct {
				Error string `json:"error"`
				Desc  string `json:"error_description"`
			}
			json.NewDecoder(resp.Body).Decode(&e)
			want := http.StatusBadRequest
			if tc.code == "invalid_client" {
				want = http.StatusUnauthorized
			}
			if resp.StatusCode != want || e.Error != tc.code || e.Desc == "" {
				t.Errorf("status %d error %q (%s), want %d %s", resp.StatusCode, e.Error, e.Desc, want, tc.code)
			}
			if resp.Header.Get("Cache-Control") != "no-store" || resp.Header.Get("Content-Type") != "application/json" {
				t.Errorf("headers %v", resp.Header)
			}
		})
	}
}

func TestOAuthScopes(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	b := apptest.SignedIn(t, ta)
	conf := apptest.OAuthConfig(ta.URL, apptest.RegisterClient(t, ta.URL, "Reader"), "signals:read")
	tok, _ := apptest.Authorize(t, b, conf)
	wantTool(t, ta.URL, tok.AccessToken, "tools/list", http.StatusOK)
	wantTool(t, ta.URL, tok.AccessToken, mcp.ListTool, http.StatusOK)
	if resp, body := oauthCall(t, ta.URL, tok.AccessToken, mcp.GetTool); resp.StatusCode != http.StatusOK {
		t.Errorf("get_signal with signals:read: %d %s", resp.StatusCode, body) // a tool result, not a scope refusal
	}
	resp := wantTool(t, ta.URL, tok.AccessToken, mcp.SearchTool, http.StatusForbidden)
	want := `Bearer error="insufficient_scope", scope="signals:read signals:search", resource_metadata="https://signals.example/.well-known/oauth-protected-resource/mcp"`
	if got := resp.Header.Get("WWW-Authenticate"); got != want {
		t.Errorf("WWW-Authenticate = %s\nwant %s", got, want)
	}

	// OAuth tokens are for /mcp only, never for the HTTP API; only in the header.
	// The refusal keeps its code but says where the token belongs and
	// where keys are made, in the body and in the challenge.
	r, body := ta.Get("/api/v1/signals", "Authorization", "Bearer "+tok.AccessToken)
	apptest.WantStatus(t, r, body, http.StatusUnauthorized)
	p := apptest.Decode[struct{ Code, Detail string }](t, body)
	wantDetail := "OAuth access tokens are for https://signals.example/mcp only; the HTTP API takes an API key, made at https://signals.example/account"
	if p.Code != "invalid_credentials" || p.Detail != wantDetail {
		t.Errorf("OAuth token on the API: code %q, detail %q; want invalid_credentials, %q", p.Code, p.Detail, wantDetail)
	}
	if got := r.Header.Get("WWW-Authenticate"); !strings.Contains(got, `error="invalid_token"`) || !strings.Contains(got, "/mcp only") {
		t.Errorf("WWW-Authenticate = %s; want invalid_token saying the token is for /mcp", got)
	}
	if r2, _ := ta.MCPPost(rpcListCall, "Authorization", ""); r2.StatusCode != http.StatusUnauthorized {
		t.Errorf("no header: %d", r2.StatusCode)
	}
	req, _ := http.NewRequest(http.MethodPost, ta.URL+"/mcp?access_token="+url.QueryEscape(tok.AccessToken), strings.NewReader(rpcListCall))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if r3, _ := ta.Send(req); r3.StatusCode != http.StatusUnauthorized {
		t.Errorf("token in the query: %d", r3.StatusCode)
	}
}

// A client's name is isolated on the consent page: bidi controls in it
// cannot reorder the heading around it.
func TestOAuthConsentIsolatesClientName(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	name := "\u202Eelgoog\u2066"
	client := apptest.RegisterClient(t, ta.URL, name)
	b := apptest.SignedIn(t, ta)
	q := url.Values{"response_type": {"code"}, "client_id": {client}, "redirect_uri": {apptest.Redirect},
		"code_challenge": {strings.Repeat("a", 43)}, "code_challenge_method": {"S256"}, "resource": {apptest.Resource},
		"scope": {"signals:read"}, "state": {"x"}}
	resp, body := b.Get("/oauth/authorize?" + q.Encode())
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%d\n%s", resp.StatusCode, body)
	}
	for _, want := range []string{
		"<title>Allow \u2068" + name + "\u2069? · Signals</title>",
		"<h1>Allow <bdi>" + name + "</bdi> to use Signals?</h1>",
		"<strong><bdi>" + name + "</bdi></strong> asks",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the consent page lacks %q", want)
		}
	}
}

func TestOAuthAuthorizeRefusals(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	client := apptest.RegisterClient(t, ta.URL, "C")
	b := apptest.SignedIn(t, ta)
	challenge := strings.Repeat("a", 43)
	good := url.Values{"response_type": {"code"}, "client_id": {client}, "redirect_uri": {apptest.Redirect},
		"code_challenge": {challenge}, "code_challenge_method": {"S256"}, "resource": {apptest.Resource},
		"scope": {"signals:read"}, "state": {"x"}}
	for _, tc := range []struct {
		name  string
		param string
		value []string
	}{
		{"unknown client", "client_id", []string{"client_unknown"}},
		{"redirect not registered", "redirect_uri", []string{"https://evil.example/callback"}},
		{"redirect prefix", "redirect_uri", []string{apptest.Redirect + "/more"}},
		{"no challenge", "code_challenge", nil},
		{"no method", "code_challenge_method", nil},
		{"plain", "code_challenge_method", []string{"plain"}},
		{"no resource", "resource", nil},
		{"other resource", "resource", []string{"https://signals.example/api/v1"}},
		{"unknown scope", "scope", []string{"signals:read admin"}},
		{"token response", "response_type", []string{"token"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := url.Values{}
			for k, v := range good {
				q[k] = v
			}
			if tc.value == nil {
				q.Del(tc.param)
			} else {
				q[tc.param] = tc.value
			}
			resp, body := b.Get("/oauth/authorize?" + q.Encode())
			apptest.WantPage(t, resp, body, http.StatusBadRequest)
			if resp.Header.Get("Location") != "" {
				t.Errorf("redirects to %s", resp.Header.Get("Location"))
			}
			// A wrong value is an invalid parameter, as on every refusal
			// of this page; only an absent one is missing.
			if tc.param == "resource" && tc.value != nil &&
				(!strings.Contains(body, "code <code>invalid_parameter</code>") || strings.Contains(body, "missing_parameter")) {
				t.Errorf("a wrong resource is not called invalid_parameter:\n%s", body)
			}
		})
	}
	// Deny goes back with access_denied and the state.
	conf := apptest.OAuthConfig(ta.URL, client)
	q := apptest.Consent(t, b, conf.AuthCodeURL("keep", oauth2.S256ChallengeOption(oauth2.GenerateVerifier()), oauth2.SetAuthURLParam("resource", apptest.Resource)), "deny")
	if q.Get("error") != "access_denied" || q.Get("state") != "keep" || q.Has("code") {
		t.Errorf("deny: %v", q)
	}
	// The consent form is refused cross-site.
	resp, _ := b.Post("/oauth/authorize", url.Values{"decision": {"allow"}}, "Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site")
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("cross-site consent: %d", resp.StatusCode)
	}
}

func TestOAuthRegistrationRefusals(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	// uri is a loopback redirect URI of exactly n bytes.
	uri := func(i, n int) string {
		u := fmt.Sprintf("http://127.0.0.1:9/cb/%d/", i)
		return u + strings.Repeat("a", n-len(u))
	}
	uris := func(count, n int) string {
		var out []string
		for i := range count {
			out = append(out, uri(i, n))
		}
		b, _ := json.Marshal(out)
		return string(b)
	}
	for _, tc := range []struct {
		name, body string
		status     int
		code       string
	}{
		{"no redirect", `{"client_name":"x"}`, 400, "invalid_redirect_uri"},
		{"http elsewhere", `{"redirect_uris":["http://example.com/cb"]}`, 400, "invalid_redirect_uri"},
		{"fragment", `{"redirect_uris":["https://example.com/cb#x"]}`, 400, "invalid_redirect_uri"},
		{"relative", `{"redirect_uris":["/cb"]}`, 400, "invalid_redirect_uri"},
		{"javascript", `{"redirect_uris":["javascript:alert(1)"]}`, 400, "invalid_redirect_uri"},
		{"secret", `{"redirect_uris":["https://example.com/cb"],"token_endpoint_auth_method":"client_secret_basic"}`, 400, "invalid_client_metadata"},
		{"implicit", `{"redirect_uris":["https://example.com/cb"],"grant_types":["implicit"]}`, 400, "invalid_client_metadata"},
		{"not json", `redirect_uris=x`, 400, "invalid_client_metadata"},
		{"at the bounds", `{"client_name":"` + strings.Repeat("é", 100) + `","redirect_uris":` + uris(5, 512) + `}`, 201, ""},
		{"six redirect URIs", `{"redirect_uris":` + uris(6, 40) + `}`, 400, "invalid_client_metadata"},
		{"a redirect URI of 513 characters", `{"redirect_uris":` + uris(1, 513) + `}`, 400, "invalid_client_metadata"},
		{"a redirect URI of 512 characters in more bytes", `{"redirect_uris":["https://example.com/` + strings.Repeat("é", 492) + `"]}`, 201, ""},
		{"a name of 101 characters", `{"client_name":"` + strings.Repeat("é", 101) + `","redirect_uris":["https://example.com/cb"]}`, 400, "invalid_client_metadata"},
		{"grant types repeated", `{"redirect_uris":["https://example.com/cb"],"grant_types":["refresh_token","refresh_token","refresh_token"]}`, 400, "invalid_client_metadata"},
		{"response types repeated", `{"redirect_uris":["https://example.com/cb"],"response_types":["code","code"]}`, 400, "invalid_client_metadata"},
		{"a long scope", `{"redirect_uris":["https://example.com/cb"],"scope":"` + strings.Repeat("signals:read ", 40) + `"}`, 400, "invalid_client_metadata"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := http.Post(ta.URL+"/oauth/register", "application/json", strings.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var e struct {
				Error       string `json:"error"`
				Description string `json:"error_description"`
			}
			json.NewDecoder(resp.Body).Decode(&e)
			if resp.StatusCode != tc.status || e.Error != tc.code {
				t.Errorf("status %d error %q, want %d %q", resp.StatusCode, e.Error, tc.status, tc.code)
			}
			if tc.code != "" && e.Description == "" {
				t.Errorf("%s without error_description", e.Error)
			}
		})
	}
}

// registerFrom sends a valid registration to h as if from the client
// address addr.
func registerFrom(h http.Handler, addr string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, "/oauth/register",
		strings.NewReader(`{"client_name":"C","redirect_uris":["`+apptest.Redirect+`"]}`))
	req.Header.Set("Content-Type", "application/json")
	req.RemoteAddr = addr
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// TestOAuthRegistrationThrottle: one client address registers at most 20
// clients an hour; then a 429 with Retry-After and an OAuth error, while
// other addresses, and the same one in the next hour, still register.
func TestOAuthRegistrationThrottle(t *testing.T) {
	t.Parallel()
	hour := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	clk := apptest.NewClock(hour.Add(10 * time.Minute))
	ta := apptest.Start(t, app.WithClock(clk.Now))
	h := ta.Handler()
	for i := range 20 {
		if rec := registerFrom(h, "192.0.2.1:4000"); rec.Code != http.StatusCreated {
			t.Fatalf("registration %d: %d %s", i+1, rec.Code, rec.Body)
		}
	}
	for _, tc := range []struct {
		name, addr string
		at         time.Time
		status     int
		retryAfter string
	}{
		{"the 21st", "192.0.2.1:4000", hour.Add(30 * time.Minute), 429, "1800"},
		{"from another port", "192.0.2.1:4001", hour.Add(59*time.Minute + 59*time.Second), 429, "1"},
		{"from another address", "192.0.2.2:4000", hour.Add(30 * time.Minute), 201, ""},
		{"in the next hour", "192.0.2.1:4000", hour.Add(time.Hour), 201, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clk.Set(tc.at)
			rec := registerFrom(h, tc.addr)
			if rec.Code != tc.status || rec.Header().Get("Retry-After") != tc.retryAfter {
				t.Fatalf("%d Retry-After %q, want %d %q: %s", rec.Code, rec.Header().Get("Retry-After"),
					tc.status, tc.retryAfter, rec.Body)
			}
			if tc.status != 429 {
				return
			}
			e := apptest.Decode[struct {
				Error       string `json:"error"`
				Description string `json:"error_description"`
				Seconds     int    `json:"retry_after_seconds"`
			}](t, rec.Body.Bytes())
			if e.Error != "too_many_requests" || e.Description == "" || strconv.Itoa(e.Seconds) != tc.retryAfter ||
				rec.Header().Get("Content-Type") != "application/json" || rec.Header().Get("Cache-Control") != "no-store" {
				t.Errorf("429 answer %s with headers %v", rec.Body, rec.Header())
			}
		})
	}
}

// TestOAuthRegistrationThrottleAcrossReplicas: the count is the store's, so
// two replicas together register no more than one would.
func TestOAuthRegistrationThrottleAcrossReplicas(t *testing.T) {
	t.Parallel()
	clk := apptest.NewClock(time.Date(2026, 11, 21, 12, 10, 0, 0, time.UTC))
	db, outbox := pgtest.FreshSchema(t), t.TempDir()
	one, two := replicaServer(t, db, outbox, app.WithClock(clk.Now)), replicaServer(t, db, outbox, app.WithClock(clk.Now))
	for i := range 20 {
		h := []http.Handler{one.Handler(), two.Handler()}[i%2]
		if rec := registerFrom(h, "192.0.2.1:4000"); rec.Code != http.StatusCreated {
			t.Fatalf("registration %d: %d %s", i+1, rec.Code, rec.Body)
		}
	}
	for name, h := range map[string]http.Handler{"one": one.Handler(), "two": two.Handler()} {
		if rec := registerFrom(h, "192.0.2.1:4000"); rec.Code != http.StatusTooManyRequests {
			t.Errorf("replica %s after 20: %d %s", name, rec.Code, rec.Body)
		}
	}
}

// TestOAuthUnusedClientsAreDeleted: the sweep deletes a client that never
// completed an authorization a day after it registered, and a connected
// client 30 days after its connection ended; until then the client may
// authorize again.
func TestOAuthUnusedClientsAreDeleted(t *testing.T) {
	t.Parallel()
	clk := apptest.NewClock(apptest.Noon)
	ta := apptest.Start(t, app.WithClock(clk.Now))
	b := apptest.SignedIn(t, ta)
	unused := apptest.RegisterClient(t, ta.URL, "Never authorized")
	connected := apptest.RegisterClient(t, ta.URL, "Connected")
	apptest.Authorize(t, b, apptest.OAuthConfig(ta.URL, connected))
	day := 24 * time.Hour
	for _, tc := range []struct {
		name                      string
		after                     time.Duration
		unusedKept, connectedKept bool
	}{
		{"23 hours after registering", 23 * time.Hour, true, true},
		{"25 hours after registering", 25 * time.Hour, false, true},
		{"29 days after the connection expired", 59 * day, false, true},
		{"31 days after the connection expired", 61 * day, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clk.Set(apptest.Noon.Add(tc.after))
			ta.Sweep(context.Background())
			for id, want := range map[string]bool{unused: tc.unusedKept, connected: tc.connectedKept} {
				_, err := ta.Store().OAuthClient(context.Background(), id)
				if kept := err == nil; kept != want {
					t.Errorf("client %s kept = %v (err %v), want %v", id, kept, err, want)
				}
			}
		})
	}
}

func TestOAuthConnectionsInTheAccount(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	b := apptest.SignedIn(t, ta)
	conf := apptest.OAuthConfig(ta.URL, apptest.RegisterClient(t, ta.URL, `<script>alert("x")</script>`))
	tok, _ := apptest.Authorize(t, b, conf)
	wantTool(t, ta.URL, tok.AccessToken, mcp.ListTool, http.StatusOK)
	page := b.MustGet(t, "/account")
	if strings.Contains(page, `<script>alert`) || !strings.Contains(page, `&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;`) {
		t.Fatalf("client name not shown escaped:\n%s", page)
	}
	id := regexp.MustCompile(`/account/connections/([a-z0-9_]+)/disconnect`).FindStringSubmatch(page)
	if id == nil {
		t.Fatalf("no Disconnect in\n%s", page)
	}
	resp, body := b.Post("/account/connections/"+id[1]+"/disconnect", url.Values{}, "Origin", "https://signals.example")
	apptest.WantPage(t, resp, body, http.StatusSeeOther)
	wantTool(t, ta.URL, tok.AccessToken, mcp.ListTool, http.StatusUnauthorized)
	tok.Expiry = time.Now().Add(-time.Minute)
	if _, err := conf.TokenSource(context.Background(), tok).Token(); oauthError(err) != "invalid_grant" {
		t.Fatalf("refresh after Disconnect: %v", err)
	}

	// RFC 7009 revocation of the refresh token ends the connection too.
	tok, _ = apptest.Authorize(t, b, conf)
	resp2, err := http.PostForm(ta.URL+"/oauth/revoke", url.Values{"token": {tok.RefreshToken}, "client_id": {conf.ClientID}})
	if err != nil || resp2.StatusCode != http.StatusOK {
		t.Fatalf("revoke: %v %v", err, resp2.Status)
	}
	wantTool(t, ta.URL, tok.AccessToken, mcp.ListTool, http.StatusUnauthorized)
	if r, _ := http.PostForm(ta.URL+"/oauth/revoke", url.Values{"token": {"sigoa_unknown"}}); r.StatusCode != http.StatusOK {
		t.Errorf("revoking an unknown token: %d", r.StatusCode)
	}

	// Deleting the account ends every grant.
	tok, _ = apptest.Authorize(t, b, conf)
	resp, body = b.Post("/account/delete", url.Values{"confirm": {"dev@example.com"}}, "Origin", "https://signals.example")
	if resp.StatusCode >= 400 {
		t.Fatalf("delete: %d %s", resp.StatusCode, body)
	}
	wantTool(t, ta.URL, tok.AccessToken, mcp.ListTool, http.StatusUnauthorized)
}

// TestOAuthRefreshReplayAcrossReplicas runs two services on one PostgreSQL
// database: a refresh token used on one and replayed on the other ends the
// connection.
func TestOAuthRefreshReplayAcrossReplicas(t *testing.T) {
	t.Parallel()
	db, outbox := pgtest.FreshSchema(t), t.TempDir()
	one, two := replicaServer(t, db, outbox), replicaServer(t, db, outbox)
	b := apptest.NewBrowser(one)
	b.SignIn(t, "dev@example.com", "")
	conf := apptest.OAuthConfig(one.URL, apptest.RegisterClient(t, one.URL, "Replicated"))
	tok, _ := apptest.Authorize(t, b, conf)
	wantTool(t, two.URL, tok.AccessToken, mcp.ListTool, http.StatusOK)
	old := tok.RefreshToken
	tok.Expiry = time.Now().Add(-time.Minute)
	fresh, err := conf.TokenSource(context.Background(), tok).Token()
	if err != nil {
		t.Fatal(err)
	}
	confTwo := apptest.OAuthConfig(two.URL, conf.ClientID)
	_, err = confTwo.TokenSource(context.Background(), &oauth2.Token{RefreshToken: old, Expiry: time.Now().Add(-time.Minute)}).Token()
	if oauthError(err) != "invalid_grant" {
		t.Fatalf("replay on the other replica: %v", err)
	}
	wantTool(t, one.URL, fresh.AccessToken, mcp.ListTool, http.StatusUnauthorized)
	wantTool(t, two.URL, fresh.AccessToken, mcp.ListTool, http.StatusUnauthorized)
}

// replicaServer starts one more service on database, without an account;
// all share one outbox.
func replicaServer(t *testing.T, db, outbox string, opts ...app.Option) *apptest.App {
	t.Helper()
	cfg := app.Config{BaseURL: apptest.BaseURL, Database: db, Mail: app.MailConfig{Outbox: outbox, DigestHour: 7}}
	return apptest.Serve(t, cfg, apptest.Discard(), opts...)
}

// TestOAuthMetadata checks the two metadata documents field by field
// against RFC 8414 §2 and §3 and RFC 9728 §2 and §3, and that the 401 of
// /mcp leads to them.
func TestOAuthMetadata(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	resp, body := ta.MCPPost(rpcListCall, "Authorization", "")
	apptest.WantStatus(t, resp, body, http.StatusUnauthorized)
	challenge := resp.Header.Get("WWW-Authenticate")
	m := regexp.MustCompile(`resource_metadata="([^"]+)"`).FindStringSubmatch(challenge)
	if m == nil {
		t.Fatalf("401 challenge %q names no resource_metadata", challenge)
	}
	prmURL, _ := url.Parse(m[1])
	// RFC 9728 §3.1: the well-known path is inserted before the resource's path.
	if prmURL.Path != "/.well-known/oauth-protected-resource/mcp" {
		t.Fatalf("resource_metadata %s", m[1])
	}
	resp, body = ta.Get(prmURL.Path, "Authorization", "")
	apptest.WantStatus(t, resp, body, http.StatusOK)
	var prm map[string]any
	json.Unmarshal(body, &prm)
	for _, tc := range []struct {
		field string
		want  any
	}{
		{"resource", apptest.Resource}, // §2 REQUIRED; §3.3 identical to the resource asked about
		{"authorization_servers", []any{"https://signals.example"}},
		{"scopes_supported", []any{"signals:read", "signals:search"}},
		{"bearer_methods_supported", []any{"header"}}, // never the query or a form body
		{"resource_documentation", "https://signals.example/developers/mcp"},
	} {
		if got := prm[tc.field]; !jsonEqual(got, tc.want) {
			t.Errorf("protected resource %s = %v, want %v", tc.field, got, tc.want)
		}
	}

	issuer := prm["authorization_servers"].([]any)[0].(string)
	// RFC 8414 §3.1: /.well-known/oauth-authorization-server + the issuer's path (none).
	resp, body = ta.Get("/.well-known/oauth-authorization-server", "Authorization", "")
	apptest.WantStatus(t, resp, body, http.StatusOK)
	if resp.Header.Get("Content-Type") != "application/json" {
		t.Errorf("Content-Type %q", resp.Header.Get("Content-Type"))
	}
	var as map[string]any
	json.Unmarshal(body, &as)
	for _, tc := range []struct {
		field string
		want  any
	}{
		{"issuer", issuer}, // §2 REQUIRED, §3.3 identical to the issuer it was fetched for
		{"authorization_endpoint", issuer + "/oauth/authorize"},
		{"token_endpoint", issuer + "/oauth/token"},
		{"registration_endpoint", issuer + "/oauth/register"},
		{"revocation_endpoint", issuer + "/oauth/revoke"},
		{"scopes_supported", []any{"signals:read", "signals:search"}},
		{"response_types_supported", []any{"code"}}, // REQUIRED
		{"response_modes_supported", []any{"query"}},
		{"grant_types_supported", []any{"authorization_code", "refresh_token"}},
		{"token_endpoint_auth_methods_supported", []any{"none"}},
		{"revocation_endpoint_auth_methods_supported", []any{"none"}},
		{"code_challenge_methods_supported", []any{"S256"}},
		{"service_documentation", issuer + "/developers/mcp"},
		{"authorization_response_iss_parameter_supported", true},
		{"client_id_metadata_document_supported", false},
	} {
		if got := as[tc.field]; !jsonEqual(got, tc.want) {
			t.Errorf("authorization server %s = %v, want %v", tc.field, got, tc.want)
		}
	}
	// §2: the issuer is an https URL without query or fragment.
	if u, err := url.Parse(issuer); err != nil || u.Scheme != "https" || u.RawQuery != "" || u.Fragment != "" {
		t.Errorf("issuer %q", issuer)
	}
	for field := range as {
		if strings.HasPrefix(field, "jwks") || field == "userinfo_endpoint" || field == "id_token_signing_alg_values_supported" {
			t.Errorf("OpenID Connect field %s advertised", field)
		}
	}
}

func jsonEqual(got, want any) bool {
	a, _ := json.Marshal(got)
	b, _ := json.Marshal(want)
	return string(a) == string(b)
}

// The consent page names the account that would be connected, and signing
// out from it leads back to the same request once signed in again.
func TestOAuthConsentNamesTheAccount(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	client := apptest.RegisterClient(t, ta.URL, "Claude")
	b := apptest.SignedIn(t, ta)
	q := url.Values{"response_type": {"code"}, "client_id": {client}, "redirect_uri": {apptest.Redirect},
		"code_challenge": {strings.Repeat("a", 43)}, "code_challenge_method": {"S256"}, "resource": {apptest.Resource},
		"scope": {"signals:read"}, "state": {"x"}}
	authorize := "/oauth/authorize?" + q.Encode()
	resp, body := b.Get(authorize)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%d\n%s", resp.StatusCode, body)
	}
	for _, want := range []string{
		"Signed in as <strong><bdi>dev@example.com</bdi></strong>.",
		`<form class="switch-account" method="post" action="/sign-out"><input type="hidden" name="next" value="` + html.EscapeString(authorize) + `">`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the consent page lacks %q\n%s", want, body)
		}
	}
	resp, body = b.Post("/sign-out", url.Values{"next": {authorize}})
	if want := "/sign-in?notice=signed-out&next=" + url.QueryEscape(authorize); resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != want {
		t.Fatalf("sign-out: %d to %q, want 303 to %q\n%s", resp.StatusCode, resp.Header.Get("Location"), want, body)
	}
	resp, _ = b.Post("/sign-out", url.Values{"next": {"https://evil.example/"}})
	if resp.Header.Get("Location") != "/sign-in?notice=signed-out" {
		t.Errorf("sign-out follows a foreign next to %q", resp.Header.Get("Location"))
	}
}

// Sent to sign in by an app, a person reads which app asks, isolated so
// that its name cannot turn the sentence around.
func TestOAuthSignInNamesTheApp(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	name := "\u202Eelgoog\u2066 & co"
	client := apptest.RegisterClient(t, ta.URL, name)
	b := apptest.NewBrowser(ta)
	q := url.Values{"response_type": {"code"}, "client_id": {client}, "redirect_uri": {apptest.Redirect},
		"code_challenge": {strings.Repeat("a", 43)}, "code_challenge_method": {"S256"}, "resource": {apptest.Resource},
		"scope": {"signals:read"}, "state": {"x"}}
	resp, body := b.Get("/oauth/authorize?" + q.Encode())
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("%d\n%s", resp.StatusCode, body)
	}
	_, body = b.Get(resp.Header.Get("Location"))
	if want := "<strong><bdi>" + html.EscapeString(name) + "</bdi></strong> asks to use Signals"; !strings.Contains(body, want) {
		t.Errorf("the sign-in page lacks %q\n%s", want, body)
	}
	q.Set("redirect_uri", "https://elsewhere.example/cb")
	for _, next := range []string{"/account", "/oauth/authorize?" + q.Encode(), "/oauth/authorize?client_id=nobody"} {
		if _, body := b.Get("/sign-in?next=" + url.QueryEscape(next)); strings.Contains(body, "asks to use Signals") {
			t.Errorf("next %s: the sign-in page names an app", next)
		}
	}
}
