package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"golang.org/x/oauth2"

	"signals/internal/apptest"
	"signals/internal/model"
	"signals/internal/store/postgres/pgtest"
)

// loadClient sends the requests of one kind of user of the service while
// the database drops its connections, and counts the statuses it gets.
type loadClient struct {
	ta      *apptest.App
	client  *http.Client
	cookies map[string]string
	counts  *statusCounts
}

// statusCounts counts responses by route and status; a transport error is
// status 0.
type statusCounts struct {
	mu sync.Mutex
	n  map[string]map[int]int
}

func (c *statusCounts) add(route string, status int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n[route] == nil {
		c.n[route] = map[int]int{}
	}
	c.n[route][status]++
}

// total counts the responses of every route by status.
func (c *statusCounts) total() map[int]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[int]int{}
	for _, byStatus := range c.n {
		for status, n := range byStatus {
			out[status] += n
		}
	}
	return out
}

// failures lists, route by route, the responses that are not answers: 5xx
// and transport errors.
func (c *statusCounts) failures() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for route, byStatus := range c.n {
		for status, n := range byStatus {
			if status == 0 || status >= 500 {
				out = append(out, fmt.Sprintf("%s: %d × %d", route, n, status))
			}
		}
	}
	slices.Sort(out)
	return out
}

// toolError finds the status of a failed MCP tool call.
var toolError = regexp.MustCompile(`"status":(\d+)`)

// send sends one request, counted under route, and returns its status and
// body (status 0 when it could not be sent or read).
func (lc *loadClient) send(route, method, path string, body io.Reader, header ...string) (int, string, http.Header) {
	req, err := http.NewRequest(method, lc.ta.URL+path, body)
	if err != nil {
		lc.counts.add(route, 0)
		return 0, err.Error(), nil
	}
	for name, value := range lc.cookies {
		req.AddCookie(&http.Cookie{Name: name, Value: value})
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := lc.client.Do(req)
	if err != nil {
		lc.counts.add(route, 0)
		return 0, err.Error(), nil
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		lc.counts.add(route, 0)
		return 0, err.Error(), nil
	}
	status := resp.StatusCode
	if m := toolError.FindStringSubmatch(string(raw)); m != nil && strings.Contains(string(raw), `"isError":true`) {
		// A failed tool call is a 200 carrying the failure's status.
		route += " (tool error)"
		status, _ = strconv.Atoi(m[1])
	}
	lc.counts.add(route, status)
	return status, string(raw), resp.Header
}

func (lc *loadClient) withKey(route, method, path, body string, header ...string) int {
	status, _, _ := lc.send(route, method, path, strings.NewReader(body), append([]string{"Authorization", "Bearer " + lc.ta.Key}, header...)...)
	return status
}

func (lc *loadClient) form(route, path string, form url.Values, header ...string) (int, string, http.Header) {
	return lc.send(route, http.MethodPost, path, strings.NewReader(form.Encode()),
		append([]string{"Content-Type", "application/x-www-form-urlencoded"}, header...)...)
}

// oauthFlow registers a client, consents as the signed-in person,
// exchanges the code and refreshes the token twice.
func (lc *loadClient) oauthFlow(i int) {
	reg, _ := json.Marshal(map[string]any{"client_name": fmt.Sprintf("load %d", i), "redirect_uris": []string{apptest.Redirect},
		"token_endpoint_auth_method": "none", "grant_types": []string{"authorization_code", "refresh_token"}})
	status, body, _ := lc.send("POST /oauth/register", http.MethodPost, "/oauth/register", strings.NewReader(string(reg)),
		"Content-Type", "application/json")
	var client struct {
		ClientID string `json:"client_id"`
	}
	if status != http.StatusCreated || json.Unmarshal([]byte(body), &client) != nil {
		return
	}
	verifier := oauth2.GenerateVerifier()
	auth := url.Values{"response_type": {"code"}, "client_id": {client.ClientID}, "redirect_uri": {apptest.Redirect},
		"scope": {"signals:read signals:search"}, "state": {"s"}, "resource": {apptest.Resource},
		"code_challenge": {oauth2.S256ChallengeFromVerifier(verifier)}, "code_challenge_method": {"S256"}}
	status, body, _ = lc.send("GET /oauth/authorize", http.MethodGet, "/oauth/authorize?"+auth.Encode(), nil)
	if status != http.StatusOK {
		return
	}
	consent := url.Values{"decision": {"allow"}}
	for _, m := range apptest.HiddenField.FindAllStringSubmatch(body, -1) {
		consent.Set(m[1], html.UnescapeString(m[2]))
	}
	status, _, header := lc.form("POST /oauth/authorize", "/oauth/authorize", consent, "Origin", "https://signals.example")
	if status != http.StatusFound {
		return
	}
	loc, err := url.Parse(header.Get("Location"))
	if err != nil || loc.Query().Get("code") == "" {
		return
	}
	status, body, _ = lc.form("POST /oauth/token", "/oauth/token", url.Values{"grant_type": {"authorization_code"},
		"code": {loc.Query().Get("code")}, "redirect_uri": {apptest.Redirect}, "client_id": {client.ClientID},
		"code_verifier": {verifier}, "resource": {apptest.Resource}})
	for range 2 {
		var tok struct {
			AccessToken  string `json:"access_token"`
			RefreshToken string `json:"refresh_token"`
		}
		if status != http.StatusOK || json.Unmarshal([]byte(body), &tok) != nil {
			return
		}
		lc.send("POST /mcp (OAuth)", http.MethodPost, "/mcp", strings.NewReader(rpcListCall),
			"Authorization", "Bearer "+tok.AccessToken, "Content-Type", "application/json",
			"Accept", "application/json, text/event-stream")
		status, body, _ = lc.form("POST /oauth/token", "/oauth/token", url.Values{"grant_type": {"refresh_token"},
			"refresh_token": {tok.RefreshToken}, "client_id": {client.ClientID}})
	}
}

// TestDroppedConnectionsUnderMixedLoad terminates the service's PostgreSQL
// sessions every few hundred milliseconds while clients use every part of
// the service at once (the API, MCP, pages, sign-in, account forms, OAuth,
// search): every statement runs once more on a new connection when its
// connection drops, so no request fails while the database is up.
func TestDroppedConnectionsUnderMixedLoad(t *testing.T) {
	if os.Getenv("SIGNALS_TEST_BACKEND") != "postgres" {
		t.Skip("PostgreSQL only: SIGNALS_TEST_BACKEND=postgres and SIGNALS_TEST_POSTGRES")
	}
	const (
		duration     = 6 * time.Second
		terminateGap = 250 * time.Millisecond
		maxRounds    = 400 // per client kind: bounds the test on a fast machine
	)
	ctx := context.Background()
	name := pgtest.RandomName("signals_load_")
	cfg := apptest.Config(t)
	own := cfg.Database // the test's own sessions, which are not terminated
	cfg.Database = pgtest.WithParam(own, "application_name", name)
	var logs bytes.Buffer // slog's handler writes one record at a time
	ta := apptest.StartWith(t, cfg, slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelWarn})))
	limits := model.Limits{DailyRequests: 1_000_000, MinuteRequests: 1_000_000, DailySearches: 1_000_000, ConcurrentSearches: 1}
	if err := ta.Store().SetLimits(ctx, 1, limits); err != nil {
		t.Fatal(err)
	}
	ta.Put(apptest.Fixtures()...)
	session := apptest.SignedIn(t, ta).Cookies

	admin, err := pgx.Connect(ctx, own)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close(context.Background()) })

	counts := &statusCounts{n: map[string]map[int]int{}}
	newClient := func() *loadClient {
		return &loadClient{ta: ta, counts: counts, cookies: maps.Clone(session), client: &http.Client{
			Timeout:       10 * time.Second,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		}}
	}
	kinds := []struct {
		name  string
		round func(lc *loadClient, i int)
	}{
		{"api", func(lc *loadClient, i int) {
			for _, path := range []string{"/api/v1/signals", "/api/v1/signals/mb-1", "/api/v1/usage", "/api/v1/signals?q=robot"} {
				lc.withKey("GET "+strings.SplitN(path, "?", 2)[0], http.MethodGet, path, "")
			}
		}},
		{"mcp", func(lc *loadClient, i int) {
			lc.withKey("POST /mcp", http.MethodPost, "/mcp", rpcListCall,
				"Content-Type", "application/json", "Accept", "application/json, text/event-stream")
		}},
		{"pages", func(lc *loadClient, i int) {
			for _, path := range []string{"/", "/account", "/sign-in"} {
				lc.send("GET "+path, http.MethodGet, path, nil)
			}
		}},
		{"sign-in", func(lc *loadClient, i int) {
			lc.cookies = map[string]string{}
			lc.form("POST /sign-in", "/sign-in", url.Values{"email": {fmt.Sprintf("load%d@example.com", i)}})
		}},
		{"account forms", func(lc *loadClient, i int) {
			if i%4 == 3 {
				lc.form("POST /account/interests/stop", "/account/interests/stop", url.Values{})
				return
			}
			tags := []string{"job", "funding", "events"}[i%4]
			lc.form("POST /account/interests", "/account/interests", url.Values{"tags": {tags}, "frequency": {"daily"}})
		}},
		{"oauth", func(lc *loadClient, i int) { lc.oauthFlow(i) }},
		{"search", func(lc *loadClient, i int) {
			// A new query each time: a fresh search, not the cache.
			lc.withKey("POST /api/v1/signals/search", http.MethodPost, "/api/v1/signals/search",
				fmt.Sprintf(`{"query":"robotics funding round %d"}`, i), "Content-Type", "application/json")
		}},
	}

	// Every kind of client once before: each path has connections open.
	for _, k := range kinds {
		k.round(newClient(), 0)
	}
	deadline := time.Now().Add(duration)
	var wg sync.WaitGroup
	for _, k := range kinds {
		wg.Go(func() {
			lc := newClient()
			for i := 1; i <= maxRounds && time.Now().Before(deadline); i++ {
				k.round(lc, i)
			}
		})
	}
	terminated, rounds := 0, 0
	for time.Now().Before(deadline) {
		time.Sleep(terminateGap)
		var n int
		if err := admin.QueryRow(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
			WHERE application_name = $1`, name).Scan(&n); err != nil {
			t.Fatal(err)
		}
		terminated += n
		rounds++
	}
	wg.Wait()

	t.Logf("%d sessions terminated in %d rounds; statuses %v", terminated, rounds, counts.total())
	for _, route := range slices.Sorted(maps.Keys(counts.n)) {
		t.Logf("  %s: %v", route, counts.n[route])
	}
	if terminated == 0 {
		t.Fatal("no session of the service was terminated")
	}
	if failed := counts.failures(); len(failed) > 0 {
		t.Errorf("requests failed while the database was up:\n%s\nlog:\n%s", strings.Join(failed, "\n"), logs.String())
	}
}
