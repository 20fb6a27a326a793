package redis_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/redis/rueidis"

	"signals/internal/model"
	"signals/internal/store"
	"signals/internal/store/postgres"
	"signals/internal/store/postgres/pgtest"
	"signals/internal/store/redis"
	"signals/internal/store/redis/redistest"
	"signals/internal/store/storetest"
)

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
	url := redistest.URL(t)
	storetest.Run(t, func(t *testing.T) store.Store { return open(t, url) })
}

// The counts live in Redis under the account's hash tag, expire after
// their day, and none reaches the database.
func TestCountsLiveInRedis(t *testing.T) {
	t.Parallel()
	url := redistest.URL(t)
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
	opts, _ := rueidis.ParseURL(url)
	opts.DisableCache = true
	c, err := rueidis.NewClient(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	key := prefix + "{a" + strconv.FormatInt(a.ID, 10) + "}"
	secs, err := c.Do(ctx, c.B().Ttl().Key(key).Build()).AsInt64()
	ttl := time.Duration(secs) * time.Second
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
	url := redistest.URL(t)
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
	srv := redistest.Start(t, redistest.Options{})
	st := open(t, srv.URL())
	ctx := context.Background()
	a, err := st.CreateAccount(ctx, "down@example.com", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.TakeRequest(ctx, a.ID, model.InitialLimits, time.Now()); err != nil {
		t.Fatal(err)
	}
	srv.Stop()
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
	srv.Restart()
	var u model.Usage
	for start := time.Now(); ; time.Sleep(50 * time.Millisecond) {
		if u, err = st.TakeRequest(ctx, a.ID, model.InitialLimits, time.Now()); err == nil {
			break
		}
		if time.Since(start) > 5*time.Second {
			t.Fatalf("Redis is back, counting still fails: %v", err)
		}
	}
	if u.MinuteUsed != 2 {
		t.Errorf("after the restart: %+v; want 2 counted (the one before, kept on a clean stop, and this one; none while it was down)", u)
	}
}

// A cluster named by all its masters, or by one of them (the client
// discovers the others), counts exactly, each account's keys on one
// master and the accounts spread over all of them.
func TestCluster(t *testing.T) {
	t.Parallel()
	pgtest.ServerURL(t)
	c := redistest.StartCluster(t, 3)
	for _, url := range []string{c.URL(), c.Masters[1].URL()} {
		st := open(t, url)
		ctx := context.Background()
		now := time.Now()
		for i := range 6 {
			a, err := st.CreateAccount(ctx, "c"+strconv.Itoa(i)+"@example.com", now)
			if err != nil {
				t.Fatal(err)
			}
			denied := storetest.Decisions(t, []store.Store{st}, 45, func(st store.Store) (model.Usage, error) {
				return st.TakeRequest(ctx, a.ID, model.InitialLimits, now)
			})
			if denied[""] != 30 || denied[model.LimitMinute] != 15 {
				t.Errorf("%s, account %d: %v, want 30 counted and 15 denied", url, a.ID, denied)
			}
			if _, ok, err := st.AcquireSearchSlot(ctx, a.ID, 1, now, time.Minute); !ok || err != nil {
				t.Errorf("%s, account %d: search slot: %v %v", url, a.ID, ok, err)
			}
		}
	}
	used := 0
	for _, m := range c.Masters {
		if n, err := m.Do("DBSIZE"); err == nil && n != "0" {
			used++
		}
	}
	if used < 2 {
		t.Errorf("the accounts' keys are on %d of 3 masters; want them spread", used)
	}
}
