package app_test

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"signals/internal/apptest"
	"signals/internal/failure"
	"signals/internal/model"
	"signals/internal/problem"
	"signals/internal/store/postgres/pgtest"
)

// TestDroppedDatabaseConnections terminates the service's PostgreSQL
// sessions between rounds of requests: a read or a count on a dropped
// connection is retried once on a new one, so no request fails; a count
// that fails for another reason is a 500 that still names the account's
// minute cap; and a database that stays unreachable is 503
// service_unavailable with Retry-After (temporarily_unavailable on OAuth),
// never 500.
func TestDroppedDatabaseConnections(t *testing.T) {
	if os.Getenv("SIGNALS_TEST_BACKEND") != "postgres" {
		t.Skip("PostgreSQL only: SIGNALS_TEST_BACKEND=postgres")
	}
	ctx := context.Background()
	name := pgtest.RandomName("signals_drop_")
	cfg := apptest.Config(t)
	// A database of its own: the test makes it refuse connections.
	own := pgtest.FreshDatabase(t) // the test's own sessions, which are not terminated
	cfg.Database = pgtest.WithParam(own, "application_name", name)
	ta := apptest.StartWith(t, cfg, apptest.Discard())
	limits := model.Limits{DailyRequests: 1000, MinuteRequests: 40, DailySearches: 10, ConcurrentSearches: 1}
	if err := ta.Store().SetLimits(ctx, 1, limits); err != nil {
		t.Fatal(err)
	}
	ta.Put(apptest.Fixtures()...)

	admin, err := pgx.Connect(ctx, own)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close(context.Background()) })
	terminate := func() int {
		t.Helper()
		var n int
		if err := admin.QueryRow(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
			WHERE application_name = $1`, name).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	round := func() map[int]int {
		t.Helper()
		var wg sync.WaitGroup
		var mu sync.Mutex
		statuses := map[int]int{}
		for _, path := range []string{"/api/v1/signals", "/api/v1/signals/mb-1", "/api/v1/usage", "/api/v1/signals?q=robot"} {
			wg.Go(func() {
				resp, _ := ta.Get(path)
				mu.Lock()
				statuses[resp.StatusCode]++
				mu.Unlock()
			})
		}
		wg.Wait()
		return statuses
	}

	round() // every path has connections open
	for i := range 5 {
		if n := terminate(); n == 0 {
			t.Fatalf("round %d: no session of the service to terminate", i)
		}
		if got := round(); got[http.StatusOK] != 4 {
			t.Fatalf("round %d after terminating the sessions: statuses %v, want 4 × 200", i, got)
		}
	}

	// A count that fails (its table is gone) is a 500 naming the
	// account's minute cap, not the initial one.
	pgtest.Exec(t, own, `ALTER TABLE usage RENAME TO usage_away`)
	resp, body := ta.Get("/api/v1/signals")
	pgtest.Exec(t, own, `ALTER TABLE usage_away RENAME TO usage`)
	apptest.WantStatus(t, resp, body, http.StatusInternalServerError)
	if got := resp.Header.Get("RateLimit-Policy"); got != `"minute";q=40;w=60` {
		t.Errorf("RateLimit-Policy on a 500 = %q, want the account's q=40", got)
	}

	// The database refuses new sessions and the open ones end.
	u, err := url.Parse(own)
	if err != nil {
		t.Fatal(err)
	}
	database := pgx.Identifier{strings.TrimPrefix(u.Path, "/")}.Sanitize()
	u.Path = "/postgres" // a database cannot refuse sessions from a session of its own
	server, err := pgx.Connect(ctx, u.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { server.Close(context.Background()) })
	if _, err := server.Exec(ctx, `ALTER DATABASE `+database+` WITH ALLOW_CONNECTIONS false`); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { server.Exec(context.Background(), `ALTER DATABASE `+database+` WITH ALLOW_CONNECTIONS true`) })
	terminate()
	for _, path := range []string{"/api/v1/signals", "/api/v1/usage", "/mcp"} {
		var resp *http.Response
		var body []byte
		if path == "/mcp" {
			resp, body = ta.MCPPost(rpcListCall)
		} else {
			resp, body = ta.Get(path)
		}
		apptest.WantStatus(t, resp, body, http.StatusServiceUnavailable)
		p := apptest.Decode[problem.Problem](t, body)
		if p.Code != failure.CodeServiceUnavailable || resp.Header.Get("Retry-After") == "" || p.RetryAfterSeconds == nil {
			t.Errorf("%s with the database unreachable: %s Retry-After=%q", path, body, resp.Header.Get("Retry-After"))
		}
	}
	// OAuth answers in its own medium: temporarily_unavailable, 503.
	reg := `{"client_name":"c","redirect_uris":["` + apptest.Redirect + `"],"token_endpoint_auth_method":"none"}`
	resp, body = ta.Send(mustRequest(t, http.MethodPost, ta.URL+"/oauth/register", reg), "Content-Type", "application/json")
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), `"error":"temporarily_unavailable"`) ||
		resp.Header.Get("Retry-After") == "" {
		t.Errorf("/oauth/register with the database unreachable: %d %s Retry-After=%q", resp.StatusCode, body, resp.Header.Get("Retry-After"))
	}
	if _, err := server.Exec(ctx, `ALTER DATABASE `+database+` WITH ALLOW_CONNECTIONS true`); err != nil {
		t.Fatal(err)
	}
	resp, body = ta.Get("/api/v1/signals")
	apptest.WantStatus(t, resp, body, http.StatusOK)
}

func mustRequest(t *testing.T, method, url, body string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return req
}
