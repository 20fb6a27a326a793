package redis_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	goredis "github.com/redis/go-redis/v9"

	"signals/internal/model"
	"signals/internal/store"
	"signals/internal/store/postgres"
	"signals/internal/store/postgres/pgtest"
	"signals/internal/store/redis"
	"signals/internal/store/storetest"
)

// serverURL returns the URL of a Redis for the tests: SIGNALS_TEST_REDIS
// when set, else a redis-server of the test's own on a unix socket; it
// skips the test when there is neither.
func serverURL(t *testing.T) string {
	t.Helper()
	if u := os.Getenv("SIGNALS_TEST_REDIS"); u != "" {
		return u
	}
	dir, err := os.MkdirTemp("", "redis")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "redis.sock")
	stop := startServer(t, sock)
	t.Cleanup(stop)
	return "unix://" + sock
}

// startServer starts a redis-server of the test's own listening on the
// unix socket sock, and returns what stops it; it skips the test when
// redis-server is not installed.
func startServer(t *testing.T, sock string) (stop func()) {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Skip("SIGNALS_TEST_REDIS is not set and redis-server is not installed; Redis tests skipped")
	}
	cmd := exec.Command(bin, "--port", "0", "--unixsocket", sock, "--save", "", "--appendonly", "no",
		"--dir", filepath.Dir(sock))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := goredis.NewClient(&goredis.Options{Network: "unix", Addr: sock})
	defer c.Close()
	for start := time.Now(); c.Ping(context.Background()).Err() != nil; {
		if time.Since(start) > 5*time.Second {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatal("redis-server did not start")
		}
		time.Sleep(20 * time.Millisecond)
	}
	var once sync.Once
	return func() { once.Do(func() { cmd.Process.Kill(); cmd.Wait() }) }
}

// open returns a fresh PostgreSQL store with its counters in the Redis at
// url, under a prefix of the test's own.
func open(t *testing.T, url string) *redis.Store {
	t.Helper()
	ctx := context.Background()
	pg, err := postgres.Open(ctx, pgtest.FreshSchema(t))
	if err != nil {
		t.Fatal(err)
	}
	st, err := redis.Open(ctx, url, pg, pgtest.RandomName("signals_test:"))
	if err != nil {
		pg.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func TestStore(t *testing.T) {
	t.Parallel()
	pgtest.ServerURL(t)
	url := serverURL(t)
	storetest.Run(t, func(t *testing.T) store.Store { return open(t, url) })
}

// The counts live in Redis under the account's hash tag, expire after
// their day, and none reaches the database.
func TestCountsLiveInRedis(t *testing.T) {
	t.Parallel()
	url := serverURL(t)
	ctx := context.Background()
	pgURL := pgtest.FreshSchema(t)
	pg, err := postgres.Open(ctx, pgURL)
	if err != nil {
		t.Fatal(err)
	}
	prefix := pgtest.RandomName("signals_test:")
	st, err := redis.Open(ctx, url, pg, prefix)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	a, err := st.CreateAccount(ctx, "r@example.com", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if u, err := st.TakeRequest(ctx, a.ID, model.InitialLimits, now); err != nil || u.MinuteUsed != 1 {
		t.Fatalf("take: %+v, %v", u, err)
	}
	opts, _ := goredis.ParseURL(url)
	c := goredis.NewClient(opts)
	defer c.Close()
	key := prefix + "{a" + strconv.FormatInt(a.ID, 10) + "}"
	ttl, err := c.TTL(ctx, key).Result()
	if err != nil || ttl <= 0 || ttl > 25*time.Hour+time.Minute {
		t.Errorf("TTL of %s = %v, %v; want the rest of the day and an hour", key, ttl, err)
	}
	var rows int
	conn, err := pgx.Connect(ctx, pgURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM usage`).Scan(&rows); err != nil || rows != 0 {
		t.Errorf("usage rows in PostgreSQL = %d, %v; want none", rows, err)
	}
}

// Three processes sharing one Redis (and one database) count exactly
// together.
func TestExactAcrossProcesses(t *testing.T) {
	t.Parallel()
	url := serverURL(t)
	ctx := context.Background()
	pgURL := pgtest.FreshSchema(t)
	prefix := pgtest.RandomName("signals_test:")
	var stores []store.Store
	for range 3 {
		pg, err := postgres.Open(ctx, pgURL)
		if err != nil {
			t.Fatal(err)
		}
		st, err := redis.Open(ctx, url, pg, prefix)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		stores = append(stores, st)
	}
	a, err := stores[0].CreateAccount(ctx, "x@example.com", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	denied := storetest.Decisions(t, stores, 45, func(st store.Store) (model.Usage, error) {
		return st.TakeRequest(ctx, a.ID, model.InitialLimits, now)
	})
	if denied[""] != 30 || denied[model.LimitMinute] != 15 {
		t.Errorf("45 simultaneous requests over 3 processes: %v, want 30 counted and 15 denied", denied)
	}
}

func TestCheckURL(t *testing.T) {
	for _, u := range []string{
		"redis://localhost:6379", "rediss://user:pw@redis.example.com:6380/2", "unix:///run/redis.sock",
		"redis://a:7000,redis://b:7001,redis://c:7002", "redis://a:7000?addr=b:7001&addr=c:7002",
	} {
		if err := redis.CheckURL(u); err != nil {
			t.Errorf("CheckURL(%q) = %v, want nil", u, err)
		}
	}
	for _, u := range []string{"", "localhost:6379", "http://localhost:6379", "redis://a:7000,http://b:7001",
		"redis://localhost:6379/x", "redis://a:7000,unix:///run/redis.sock"} {
		if err := redis.CheckURL(u); err == nil {
			t.Errorf("CheckURL(%q) = nil, want an error", u)
		}
	}
}

// While Redis cannot be reached, counting fails within a second with an
// error that Unreachable recognizes, and counts nothing; when Redis is
// back, counting resumes on the same store.
func TestUnreachable(t *testing.T) {
	t.Parallel()
	pgtest.ServerURL(t)
	dir, err := os.MkdirTemp("", "redis")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	sock := filepath.Join(dir, "redis.sock")
	stop := startServer(t, sock)
	st := open(t, "unix://"+sock)
	ctx := context.Background()
	a, err := st.CreateAccount(ctx, "down@example.com", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.TakeRequest(ctx, a.ID, model.InitialLimits, time.Now()); err != nil {
		t.Fatal(err)
	}
	stop()
	for range 3 {
		start := time.Now()
		_, err := st.TakeRequest(ctx, a.ID, model.InitialLimits, time.Now())
		if took := time.Since(start); err == nil || !redis.Unreachable(err) || took > time.Second {
			t.Fatalf("with Redis stopped: %v after %v; want an unreachable error within 1s", err, took)
		}
	}
	if err := st.Ping(ctx); err == nil {
		t.Error("Ping succeeded with Redis stopped")
	}
	defer startServer(t, sock)()
	var u model.Usage
	for start := time.Now(); ; time.Sleep(50 * time.Millisecond) {
		if u, err = st.TakeRequest(ctx, a.ID, model.InitialLimits, time.Now()); err == nil {
			break
		}
		if time.Since(start) > 5*time.Second {
			t.Fatalf("Redis is back, counting still fails: %v", err)
		}
	}
	if u.MinuteUsed != 1 {
		t.Errorf("after the restart: %+v; want 1 counted (the server kept nothing, and failures counted nothing)", u)
	}
}
