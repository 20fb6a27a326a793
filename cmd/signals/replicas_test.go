package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"signals/internal/search/searchtest"
	"signals/internal/store/postgres/pgtest"
)

// embeddings stands in for a hosted OpenAI-compatible embeddings API (a paid
// outside service): vectors are hashed bags of words, queries containing
// "zzslow" take a second, and queries containing "zzhang" never finish.
func embeddings(t *testing.T) *httptest.Server {
	hanging = make(chan struct{}, 16)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Input []string `json:"input"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		type item struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		var out struct {
			Data []item `json:"data"`
		}
		for i, text := range req.Input {
			switch {
			case strings.Contains(text, "zzhang"):
				hanging <- struct{}{}
				<-r.Context().Done()
				return
			case strings.Contains(text, "zzslow"):
				time.Sleep(time.Second)
			}
			out.Data = append(out.Data, item{i, searchtest.BagOfWords(text)})
		}
		json.NewEncoder(w).Encode(out)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// hanging receives a value whenever a "zzhang" query reaches the embeddings
// server: the search holding it has its account's slot.
var hanging chan struct{}

// currentDB is the database of the replicas last started.
var currentDB string

func post(t *testing.T, s *server, path, body string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, s.base+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+s.key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var v map[string]any
	json.Unmarshal(b, &v)
	return resp.StatusCode, v
}

// replicas starts two serve processes on one fresh PostgreSQL schema, the
// first loading the demo data, both with the given search timeout.
func replicas(t *testing.T, timeout string) (*server, *server) {
	s := replicaSet(t, timeout, 2)
	return s[0], s[1]
}

// replicaSet starts n serve processes on one fresh PostgreSQL schema, the
// first loading the demo data, all with the given search timeout and the
// demo key, and with the environment variables of extra.
func replicaSet(t *testing.T, timeout string, n int, extra ...string) []*server {
	db := pgtest.FreshSchema(t)
	currentDB = db
	env := []string{"SIGNALS_SEARCH_PROVIDER=openai", "SIGNALS_SEARCH_URL=" + embeddings(t).URL,
		"SIGNALS_SEARCH_MODEL=bag-of-words", "SIGNALS_SEARCH_TIMEOUT=" + timeout, "SIGNALS_OUTBOX=" + t.TempDir()}
	env = append(env, extra...)
	set := []*server{startServeEnv(t, db, env, "--demo")}
	for range n - 1 {
		s := startServeEnv(t, db, env)
		s.key = set[0].key
		set = append(set, s)
	}
	return set
}

// raiseLimits lifts the demo account's request limits, for tests that poll.
func raiseLimits(t *testing.T) {
	t.Helper()
	_, errs, code := run(t, "", "accounts", "set-limits", "--email", "demo@example.com",
		"--minute-requests", "100000", "--daily-requests", "100000", "--database="+currentDB)
	if code != 0 {
		t.Fatalf("set-limits: %s", errs)
	}
}

func TestReplicasShareRequestLimits(t *testing.T) {
	set := replicaSet(t, "10s", 3)
	var wg sync.WaitGroup
	var mu sync.Mutex
	statuses := map[int]int{}
	for i := range 45 {
		s := set[i%3]
		wg.Go(func() {
			resp, _ := call(t, s, "/api/v1/signals?page_size=1")
			mu.Lock()
			statuses[resp.StatusCode]++
			mu.Unlock()
		})
	}
	wg.Wait()
	if statuses[200] != 30 || statuses[429] != 15 {
		t.Errorf("45 simultaneous requests over three processes: %v, want 30 × 200 and 15 × 429", statuses)
	}
}

func TestReplicasShareSearches(t *testing.T) {
	a, b := replicas(t, "10s")
	// One fresh search per account at a time, whichever process runs it.
	type answer struct {
		status int
		body   map[string]any
	}
	answers := make(chan answer, 2)
	for i, s := range []*server{a, b} {
		go func() {
			status, body := post(t, s, "/api/v1/signals/search", `{"query":"zzslow robots `+string(rune('a'+i))+`"}`)
			answers <- answer{status, body}
		}()
	}
	got := map[int]int{}
	for range 2 {
		ans := <-answers
		got[ans.status]++
		if ans.status == 429 && ans.body["code"] != "search_in_progress" {
			t.Errorf("429 with code %v", ans.body["code"])
		}
	}
	if got[200] != 1 || got[429] != 1 {
		t.Errorf("two simultaneous searches of one account on two processes: %v, want one 200 and one 429", got)
	}
	// A result found by one process is a cache hit in the other.
	status, first := post(t, a, "/api/v1/signals/search", `{"query":"humanoid robot funding"}`)
	if status != 200 || first["cache_hit"] != false {
		t.Fatalf("fresh search: %d %v", status, first)
	}
	status, second := post(t, b, "/api/v1/signals/search", `{"query":"humanoid robot funding"}`)
	if status != 200 || second["cache_hit"] != true || second["searches_remaining"] != first["searches_remaining"] {
		t.Errorf("the same search on the other process: %d hit=%v remaining=%v (first remaining %v)",
			status, second["cache_hit"], second["searches_remaining"], first["searches_remaining"])
	}
}

// A process killed in the middle of a search leaves the account's search
// slot held until the lease ends: the search timeout plus 5 seconds.
func TestKilledProcessFreesTheSearchSlot(t *testing.T) {
	a, b := replicas(t, "2s")
	raiseLimits(t)
	started := time.Now()
	go func() {
		// This request dies with its process; its error is expected.
		req, _ := http.NewRequest(http.MethodPost, a.base+"/api/v1/signals/search", strings.NewReader(`{"query":"zzhang forever"}`))
		req.Header.Set("Authorization", "Bearer "+a.key)
		req.Header.Set("Content-Type", "application/json")
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	select {
	case <-hanging:
	case <-time.After(10 * time.Second):
		t.Fatal("the search on a never reached the model")
	}
	if status, body := post(t, b, "/api/v1/signals/search", `{"query":"agents"}`); status != 429 || body["code"] != "search_in_progress" {
		t.Fatalf("while a searches, b answered %d %v; want 429 search_in_progress", status, body)
	}
	a.kill(t)
	killed := time.Now()
	for {
		status, body := post(t, b, "/api/v1/signals/search", `{"query":"agents"}`)
		if status == 200 {
			break
		}
		if status != 429 || body["code"] != "search_in_progress" {
			t.Fatalf("while the dead process's lease runs: %d %v", status, body)
		}
		if time.Since(started) > 2*time.Second+5*time.Second+3*time.Second {
			t.Fatalf("the slot is still held %s after the kill", time.Since(killed).Round(time.Millisecond))
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("slot free again %s after the kill (%s after the search started)",
		time.Since(killed).Round(time.Millisecond), time.Since(started).Round(time.Millisecond))
}

// One of three replicas killed with SIGKILL in the middle of a burst: the
// account is never served beyond its minute or daily limit, and the counts
// of the killed replica stay counted, so that the two left serve exactly
// what remains.
func TestKillNineOfAReplicaKeepsLimits(t *testing.T) {
	set := replicaSet(t, "10s", 3)
	for _, limit := range []string{"minute", "day"} {
		if time.Now().UTC().Second() > 40 {
			time.Sleep(time.Duration(61-time.Now().UTC().Second()) * time.Second)
		}
		minute := time.Now().UTC().Truncate(time.Minute)
		email := limit + "-limited@example.com"
		limits := []string{"--minute-requests", "30", "--daily-requests", "1000"}
		if limit == "day" {
			limits = []string{"--minute-requests", "1000", "--daily-requests", "30"}
		}
		db := "--database=" + currentDB
		for _, args := range [][]string{{"accounts", "create", "--email", email, db},
			append([]string{"accounts", "set-limits", "--email", email, db}, limits...)} {
			if _, errs, code := run(t, "", args...); code != 0 {
				t.Fatalf("%v: %d %s", args, code, errs)
			}
		}
		out, errs, code := run(t, "", "keys", "create", "--email", email, db)
		if code != 0 {
			t.Fatalf("keys create: %d %s", code, errs)
		}
		key := strings.TrimSpace(out)

		// burst sends n requests at once, spread over servers, and counts
		// the answers by status (0: no answer).
		burst := func(servers []*server, n int, during func()) map[int]int {
			var mu sync.Mutex
			got := map[int]int{}
			var wg sync.WaitGroup
			for i := range n {
				s := servers[i%len(servers)]
				wg.Go(func() {
					req, _ := http.NewRequest(http.MethodGet, s.base+"/api/v1/signals?page_size=1", nil)
					req.Header.Set("Authorization", "Bearer "+key)
					status := 0
					if resp, err := http.DefaultClient.Do(req); err == nil {
						io.Copy(io.Discard, resp.Body)
						resp.Body.Close()
						status = resp.StatusCode
					}
					mu.Lock()
					got[status]++
					mu.Unlock()
				})
			}
			if during != nil {
				during()
			}
			wg.Wait()
			return got
		}
		killed := set[len(set)-1]
		first := burst(set, 45, func() {
			// Early in the burst for the first account, later for the
			// second, when the replica has answered some.
			if limit == "minute" {
				time.Sleep(5 * time.Millisecond)
			} else {
				time.Sleep(40 * time.Millisecond)
			}
			killed.kill(t)
		})
		killed.cmd.Wait()
		second := burst(set[:len(set)-1], 45, nil)
		if time.Now().UTC().Truncate(time.Minute) != minute && limit == "minute" {
			t.Logf("%s-limited account: crossed a minute; not counted", limit)
		} else if served := first[200] + second[200]; served > 30 || second[429] == 0 {
			t.Errorf("%s-limited account: during the kill %v, then %v: %d served; want at most 30, and the limit reached",
				limit, first, second, served)
		}
		t.Logf("%s-limited account: during the kill %v, then %v", limit, first, second)
		// The next account has three replicas again.
		set[len(set)-1] = startServeEnv(t, currentDB, []string{"SIGNALS_OUTBOX=" + t.TempDir()})
		set[len(set)-1].key = set[0].key
	}
}

// A key revoked by the keys command, another process, is refused by every
// replica: each keeps the credentials' generation in memory and learns of
// the change when the database announces it, at the latest by its check
// every second.
func TestRevocationReachesEveryReplica(t *testing.T) {
	set := replicaSet(t, "10s", 2)
	db := "--database=" + currentDB
	if _, errs, code := run(t, "", "accounts", "create", "--email", "revoke@example.com", db); code != 0 {
		t.Fatalf("accounts create: %d %s", code, errs)
	}
	out, errs, code := run(t, "", "keys", "create", "--email", "revoke@example.com", "--name", "gone", db)
	if code != 0 {
		t.Fatalf("keys create: %d %s", code, errs)
	}
	key := strings.TrimSpace(out)
	status := func(s *server) int {
		req, _ := http.NewRequest(http.MethodGet, s.base+"/api/v1/signals?page_size=1", nil)
		req.Header.Set("Authorization", "Bearer "+key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	for _, s := range set {
		if got := status(s); got != 200 { // the key is now cached in each
			t.Fatalf("before the revocation: %d", got)
		}
	}
	listed, _, _ := run(t, "", "keys", "list", "--email", "revoke@example.com", db)
	keyID := strings.Fields(strings.Split(listed, "\n")[1])[0]
	if _, errs, code := run(t, "", "keys", "revoke", keyID, db); code != 0 {
		t.Fatalf("revoke: %d %s", code, errs)
	}
	revoked := time.Now()
	for i, s := range set {
		served := 0
		for {
			got := status(s)
			if got == 401 {
				break
			}
			if got != 200 {
				t.Fatalf("replica %d after the revocation: %d", i, got)
			}
			served++
			if time.Since(revoked) > 3*time.Second {
				t.Fatalf("replica %d still serves the revoked key %s after the revocation", i, time.Since(revoked))
			}
			time.Sleep(10 * time.Millisecond)
		}
		t.Logf("replica %d: refused the revoked key %s after the command returned, having served it %d more times",
			i, time.Since(revoked).Round(time.Millisecond), served)
		if got := status(s); got != 401 {
			t.Errorf("replica %d served the revoked key again: %d", i, got)
		}
	}
}
