package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"signals/internal/store/redis/redistest"
)

// These tests run replicas on PostgreSQL with their counters in a Redis of
// the test's own (SIGNALS_REDIS_URL), and break it: a replica killed, Redis
// killed and restarted, a cluster of three masters.

var createdAccount = regexp.MustCompile(`created account (\d+)`)

// newAccount creates an account with the given minute and daily request
// limits in the database of the replicas last started, and a key of it; it
// returns the key and the account's id.
func newAccount(t *testing.T, email string, minute, daily int) (string, int64) {
	t.Helper()
	db := "--database=" + currentDB
	_, errs, code := run(t, "", "accounts", "create", "--email", email, db)
	m := createdAccount.FindStringSubmatch(errs)
	if code != 0 || m == nil {
		t.Fatalf("accounts create: %d %s", code, errs)
	}
	id, _ := strconv.ParseInt(m[1], 10, 64)
	if _, errs, code := run(t, "", "accounts", "set-limits", "--email", email, db,
		"--minute-requests", strconv.Itoa(minute), "--daily-requests", strconv.Itoa(daily)); code != 0 {
		t.Fatalf("set-limits: %d %s", code, errs)
	}
	key, errs, code := run(t, "", "keys", "create", "--email", email, db)
	if code != 0 {
		t.Fatalf("keys create: %d %s", code, errs)
	}
	return strings.TrimSpace(key), id
}

// list asks s for a one-signal page with key and returns the status, 0 when
// no answer came.
func list(s *server, key string) int {
	req, _ := http.NewRequest(http.MethodGet, s.base+"/api/v1/signals?page_size=1", nil)
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// usedToday is the account's count of the UTC day as GET /api/v1/usage
// reports it, less that request itself, or -1 when s does not answer 200.
func usedToday(t *testing.T, s *server, key string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, s.base+"/api/v1/usage", nil)
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var v struct {
		DailyRequests struct{ Used int } `json:"daily_requests"`
	}
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&v) != nil {
		return -1
	}
	return v.DailyRequests.Used - 1
}

// day is the UTC day now, the daily counts' window.
func day() time.Time { return time.Now().UTC().Truncate(24 * time.Hour) }

// A replica killed with SIGKILL in the middle of a burst loses no count:
// every request served is counted, and the only counts beyond them are of
// requests that the killed replica had counted but not yet answered, at
// most those in flight there when it died.
func TestRedisKillNineOfAReplicaLosesNoCount(t *testing.T) {
	r := redistest.Start(t, redistest.Options{})
	set := replicaSet(t, "10s", 3, "SIGNALS_REDIS_URL="+r.URL())
	key, _ := newAccount(t, "burst@example.com", 100000, 100000)
	started := day()
	const workers, total = 24, 600
	killed := set[2]
	var next, served atomic.Int32
	var dead atomic.Bool
	killNow := make(chan struct{})
	var mu sync.Mutex
	statuses := map[int]int{}
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1)); i <= total; i = int(next.Add(1)) {
				// A load balancer sends nothing more to a replica it saw die.
				s := set[i%3]
				if s == killed && dead.Load() {
					s = set[i%2]
				}
				status := list(s, key)
				mu.Lock()
				statuses[status]++
				mu.Unlock()
				if status == http.StatusOK && served.Add(1) == total/3 {
					close(killNow)
				}
			}
		})
	}
	select {
	case <-killNow:
	case <-time.After(60 * time.Second):
		t.Fatalf("%d requests served in 60 s", served.Load())
	}
	dead.Store(true)
	killed.kill(t)
	wg.Wait()
	counted := usedToday(t, set[0], key)
	if day() != started {
		t.Skip("the burst crossed midnight UTC, when the daily counts reset")
	}
	ok, lost := statuses[http.StatusOK], statuses[0]
	t.Logf("%d requests: %v (0: lost with the killed replica); %d counted", total, statuses, counted)
	if ok+lost != total {
		t.Errorf("answers other than 200 or none: %v", statuses)
	}
	if lost > workers {
		t.Errorf("%d requests lost with the killed replica; want at most the %d in flight", lost, workers)
	}
	if counted < ok {
		t.Errorf("%d counted for %d served: %d counts lost", counted, ok, ok-counted)
	}
	if counted > ok+lost {
		t.Errorf("%d counted for %d served and %d lost in flight", counted, ok, lost)
	}
}

// Redis killed with SIGKILL (appendonly yes, appendfsync everysec) and
// started again forgets at most the counts of the last second before the
// kill, never an older one; meanwhile requests are answered 503, never
// served uncounted, and service resumes without restarting the replicas.
func TestRedisKillNineForgetsAtMostTheLastSecond(t *testing.T) {
	r := redistest.Start(t, redistest.Options{AppendFsync: "everysec"})
	set := replicaSet(t, "10s", 2, "SIGNALS_REDIS_URL="+r.URL())
	key, _ := newAccount(t, "aof@example.com", 100000, 100000)
	started := day()
	var mu sync.Mutex
	var servedAt []time.Time
	statuses := map[int]int{}
	var slowest503 time.Duration
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				asked := time.Now()
				status := list(set[w%2], key)
				mu.Lock()
				statuses[status]++
				if status == http.StatusOK {
					servedAt = append(servedAt, time.Now())
				} else if status == http.StatusServiceUnavailable {
					slowest503 = max(slowest503, time.Since(asked))
				}
				mu.Unlock()
			}
		})
	}
	time.Sleep(2500 * time.Millisecond)
	killedAt := time.Now()
	r.Kill()
	time.Sleep(500 * time.Millisecond)
	close(stop)
	wg.Wait()
	r.Restart()
	counted := -1
	for deadline := time.Now().Add(10 * time.Second); counted < 0; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no usage answered within 10 s of Redis's restart")
		}
		counted = usedToday(t, set[0], key)
	}
	if day() != started {
		t.Skip("the test crossed midnight UTC, when the daily counts reset")
	}
	ok, unavailable := len(servedAt), statuses[http.StatusServiceUnavailable]
	recent := 0 // served in the last second before the kill, or after it
	for _, at := range servedAt {
		if at.After(killedAt.Add(-time.Second)) {
			recent++
		}
	}
	t.Logf("%v; %d counted after the restart, %d served in the second before the kill; slowest 503 %s",
		statuses, counted, recent, slowest503.Round(time.Millisecond))
	for status := range statuses {
		if status != http.StatusOK && status != http.StatusServiceUnavailable || unavailable == 0 {
			t.Errorf("answers %v; want 200, then 503 while Redis is down, nothing else", statuses)
			break
		}
	}
	if forgotten := ok - counted; forgotten > recent {
		t.Errorf("%d counts forgotten by the restart, more than the %d of the last second", forgotten, recent)
	}
	// A script may have counted a request whose answer Redis's death
	// turned into a 503.
	if counted > ok+unavailable {
		t.Errorf("%d counted for %d served and %d refused", counted, ok, unavailable)
	}
	// Both replicas count again, without a restart.
	for _, s := range set {
		if status := list(s, key); status != http.StatusOK {
			t.Errorf("after Redis's restart, %s answers %d", s.base, status)
		}
	}
}

// A cluster of three masters keeps the limits exact across three replicas,
// with the accounts' counters spread over the masters by their hash tags:
// 45 simultaneous requests of an account with a limit of 30, a minute's or
// a day's, give exactly 30 × 200 and 15 × 429, for every account at once;
// and an account runs one fresh search at a time.
func TestRedisClusterKeepsLimitsExact(t *testing.T) {
	c := redistest.StartCluster(t, 3)
	set := replicaSet(t, "10s", 3, "SIGNALS_REDIS_URL="+c.URL())
	type account struct {
		key, limit string
		tag        string // the hash tag of its counters' keys
	}
	var accounts []account
	// Accounts until their hash tags fall on all three masters.
	masters := map[*redistest.Server]bool{}
	for i := 0; len(accounts) < 6 || len(masters) < 3; i++ {
		if i == 30 {
			t.Fatalf("30 accounts on %d of 3 masters", len(masters))
		}
		a := account{limit: "minute"}
		minute, daily := 30, 1000
		if i%2 == 1 {
			a.limit, minute, daily = "day", 1000, 30
		}
		var id int64
		a.key, id = newAccount(t, fmt.Sprintf("shard%d@example.com", i), minute, daily)
		a.tag = "{a" + strconv.FormatInt(id, 10) + "}"
		masters[c.MasterOf(t, a.tag)] = true
		accounts = append(accounts, a)
	}
	if time.Now().UTC().Second() > 40 {
		time.Sleep(time.Duration(61-time.Now().UTC().Second()) * time.Second)
	}
	minute := time.Now().UTC().Truncate(time.Minute)
	got := make([]map[int]int, len(accounts))
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i, a := range accounts {
		got[i] = map[int]int{}
		for j := range 45 {
			wg.Go(func() {
				status := list(set[j%3], a.key)
				mu.Lock()
				got[i][status]++
				mu.Unlock()
			})
		}
	}
	wg.Wait()
	if time.Now().UTC().Truncate(time.Minute) != minute {
		t.Fatal("the burst crossed a minute") // under 20 s: a stalled machine
	}
	for i, a := range accounts {
		if got[i][200] != 30 || got[i][429] != 15 {
			t.Errorf("%s-limited account %s: %v, want 30 × 200 and 15 × 429", a.limit, a.tag, got[i])
		}
	}
	// Every master holds counters, and every account's are where its
	// hash tag says.
	for _, m := range c.Masters {
		keys, err := m.Do("KEYS", "*")
		if err != nil {
			t.Fatal(err)
		}
		if keys == "" {
			t.Errorf("master %s holds no counters", m.Addr())
		}
		for _, a := range accounts {
			if held := strings.Contains(keys, a.tag); held != (c.MasterOf(t, a.tag) == m) {
				t.Errorf("account %s: on master %s %v, by its hash slot %v", a.tag, m.Addr(), held, !held)
			}
		}
	}
	// One fresh search per account at a time, whichever replica runs it.
	statuses := make(chan int, 2)
	for i, s := range set[:2] {
		go func() {
			status, _ := post(t, s, "/api/v1/signals/search", `{"query":"zzslow robots `+string(rune('a'+i))+`"}`)
			statuses <- status
		}()
	}
	if a, b := <-statuses, <-statuses; a+b != 200+429 {
		t.Errorf("two simultaneous searches of one account on two replicas: %d and %d, want 200 and 429", a, b)
	}
}
