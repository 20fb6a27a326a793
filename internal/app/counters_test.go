package app_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"signals/internal/app"
	"signals/internal/apptest"
	"signals/internal/auth"
	"signals/internal/model"
	"signals/internal/store/postgres/pgtest"
	"signals/internal/store/redis/redistest"
	"signals/internal/store/storetest"
)

// redisConfig is a test configuration on a fresh PostgreSQL schema with
// its counters in the Redis at redisURL.
func redisConfig(t *testing.T, redisURL string) app.Config {
	t.Helper()
	cfg := apptest.Config(t)
	cfg.Database = pgtest.FreshSchema(t)
	cfg.RedisURL = redisURL
	return cfg
}

// replicas starts n apps on cfg, as n processes sharing the database and
// Redis, with one account and its key.
func replicas(t *testing.T, cfg app.Config, n int, opts ...app.Option) (servers []*httptest.Server, apps []*app.App, key string) {
	t.Helper()
	ctx := context.Background()
	for range n {
		a, err := app.New(ctx, cfg, apptest.Discard(), opts...)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { a.Close() })
		srv := httptest.NewServer(a.Handler())
		t.Cleanup(srv.Close)
		servers, apps = append(servers, srv), append(apps, a)
	}
	acct, err := apps[0].Store().CreateAccount(ctx, "replicas@example.com", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	key, _, err = auth.Issue(ctx, apps[0].Store(), acct.ID, "test", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return servers, apps, key
}

func getWith(t *testing.T, srv *httptest.Server, path, key string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, body
}

// Three replicas sharing one Redis keep an account's minute limit exactly.
func TestRedisReplicasShareTheLimits(t *testing.T) {
	t.Parallel()
	pgtest.ServerURL(t)
	clk := apptest.NewClock(apptest.Noon)
	servers, apps, key := replicas(t, redisConfig(t, redistest.URL(t)), 3, app.WithClock(clk.Now))
	var wg sync.WaitGroup
	var mu sync.Mutex
	statuses := map[int]int{}
	for i := range 45 {
		wg.Go(func() {
			resp, _ := getWith(t, servers[i%3], "/api/v1/signals", key)
			mu.Lock()
			statuses[resp.StatusCode]++
			mu.Unlock()
		})
	}
	wg.Wait()
	if statuses[200] != 30 || statuses[429] != 15 {
		t.Fatalf("45 simultaneous requests over 3 replicas: %v, want 30 × 200 and 15 × 429", statuses)
	}
	for i, a := range apps {
		if u, err := a.Store().Usage(context.Background(), 1, clk.Now()); err != nil || u.MinuteUsed != 30 || u.DayUsed != 30 {
			t.Errorf("replica %d reads %+v, %v; want 30 used", i, u, err)
		}
	}
}

// While Redis cannot be reached, requests are refused 503
// service_unavailable within a second, and none is served uncounted; once
// it is back, the same process serves again.
func TestRedisUnreachableIs503(t *testing.T) {
	t.Parallel()
	pgtest.ServerURL(t)
	srv := redistest.Start(t, redistest.Options{})
	servers, apps, key := replicas(t, redisConfig(t, srv.URL()), 1)
	if resp, body := getWith(t, servers[0], "/api/v1/signals", key); resp.StatusCode != 200 {
		t.Fatalf("with Redis up: %d %s", resp.StatusCode, body)
	}
	srv.Stop()
	for range 5 {
		start := time.Now()
		resp, body := getWith(t, servers[0], "/api/v1/signals", key)
		took := time.Since(start)
		var p struct{ Code string }
		json.Unmarshal(body, &p)
		if resp.StatusCode != 503 || p.Code != "service_unavailable" || took > time.Second {
			t.Fatalf("with Redis down: %d %s after %v; want 503 service_unavailable within 1s", resp.StatusCode, body, took)
		}
	}
	if resp, _ := getWith(t, servers[0], "/readyz", ""); resp.StatusCode != 503 {
		t.Errorf("/readyz with Redis down: %d, want 503", resp.StatusCode)
	}
	srv.Restart()
	served := 1
	for start := time.Now(); ; time.Sleep(50 * time.Millisecond) {
		resp, body := getWith(t, servers[0], "/api/v1/signals", key)
		if resp.StatusCode == 200 {
			served++
			break
		}
		if resp.StatusCode != 503 || time.Since(start) > 5*time.Second {
			t.Fatalf("Redis is back: %d %s", resp.StatusCode, body)
		}
	}
	if u, err := apps[0].Store().Usage(context.Background(), 1, time.Now()); err != nil || u.DayUsed != served {
		t.Errorf("usage = %+v, %v; want the %d requests served counted, and no other", u, err, served)
	}
}

// A listed request on PostgreSQL with Redis commits nothing in the
// database once the caches are warm: the counts are Redis's, the keys'
// last uses and the usage history are written in batches.
func TestListedRequestMakesNoCommit(t *testing.T) {
	t.Parallel()
	// It counts on PostgreSQL and Redis whatever the backend, in a database
	// of its own, and waits half a minute for the statistics: it runs in
	// the default run only, not again in each backend's.
	if os.Getenv("SIGNALS_TEST_BACKEND") != "" {
		t.Skip("runs once, without SIGNALS_TEST_BACKEND")
	}
	cfg := apptest.Config(t)
	// A database of the test's own: the statistics count per database.
	cfg.Database, cfg.RedisURL = pgtest.FreshDatabase(t), redistest.URL(t)
	servers, apps, key := replicas(t, cfg, 1)
	storetest.Put(t, apps[0].Store(), storetest.Sig("a", 1), storetest.Sig("b", 2))
	if err := apps[0].Store().SetLimits(context.Background(), 1, model.Limits{DailyRequests: 10000, MinuteRequests: 10000,
		DailySearches: 10, ConcurrentSearches: 1}); err != nil {
		t.Fatal(err)
	}
	for range 5 { // warm the caches
		getWith(t, servers[0], "/api/v1/signals", key)
	}
	// A backend reports its counts when idle, within 10 s; the listener
	// for generations reads them every second, requests or not: the
	// commits of an idle window as long are subtracted.
	commits := func() (int64, time.Time) {
		time.Sleep(11 * time.Second)
		conn, err := pgx.Connect(context.Background(), cfg.Database)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(context.Background())
		var n int64
		if err := conn.QueryRow(context.Background(),
			`SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n, time.Now()
	}
	before, start := commits()
	const n = 500
	for range n {
		if resp, body := getWith(t, servers[0], "/api/v1/signals", key); resp.StatusCode != 200 {
			t.Fatalf("%d %s", resp.StatusCode, body)
		}
	}
	after, end := commits()
	idle, idleEnd := commits()
	background := float64(idle-after) / idleEnd.Sub(end).Seconds() * end.Sub(start).Seconds()
	perRequest := (float64(after-before) - background) / n
	t.Logf("%d commits in %s with %d listed requests, %d in %s idle: %.3f per request",
		after-before, end.Sub(start).Round(time.Millisecond), n, idle-after, idleEnd.Sub(end).Round(time.Millisecond), perRequest)
	if perRequest >= 0.05 {
		t.Errorf("%.3f commits per listed request; want under 0.05", perRequest)
	}
	if u, err := apps[0].Store().Usage(context.Background(), 1, time.Now()); err != nil || u.DayUsed != n+5 {
		t.Errorf("usage = %+v, %v; want every request counted", u, err)
	}
}

// A Redis outage, with no request at all, is two lines: one when the ping
// first fails and one when Redis answers again, with how long it was out;
// signals_redis_up says the same.
func TestRedisOutageIsTwoLines(t *testing.T) {
	t.Parallel()
	pgtest.ServerURL(t)
	srv := redistest.Start(t, redistest.Options{})
	var logs syncBuffer
	ctx := context.Background()
	a, err := app.New(ctx, redisConfig(t, srv.URL()), slog.New(slog.NewTextHandler(&logs, nil)), withMetrics())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	serveCtx, stop := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- a.Serve(serveCtx, ln) }()
	defer func() { stop(); <-served }()
	wait := func(text string) {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); !strings.Contains(logs.String(), text); time.Sleep(50 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("no %q in the log:\n%s", text, logs.String())
			}
		}
	}
	wait("msg=serving")
	srv.Stop()
	wait(`msg="redis unreachable"`)
	if got := scrape(t, a); !strings.Contains(got, "\nsignals_redis_up 0\n") {
		t.Errorf("signals_redis_up during the outage:\n%s", got)
	}
	srv.Restart()
	wait(`msg="redis back"`)
	if got := scrape(t, a); !strings.Contains(got, "\nsignals_redis_up 1\n") {
		t.Errorf("signals_redis_up after the outage:\n%s", got)
	}
	if n, m := strings.Count(logs.String(), `msg="redis unreachable"`), strings.Count(logs.String(), `msg="redis back"`); n != 1 || m != 1 {
		t.Errorf("%d unreachable and %d back lines, want one of each:\n%s", n, m, logs.String())
	}
	if strings.Contains(logs.String(), `msg="database unreachable"`) {
		t.Errorf("a Redis outage is logged as the database's:\n%s", logs.String())
	}
}
