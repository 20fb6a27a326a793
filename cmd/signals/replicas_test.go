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
	db := pgtest.FreshSchema(t)
	currentDB = db
	env := []string{"SIGNALS_SEARCH_PROVIDER=openai", "SIGNALS_SEARCH_URL=" + embeddings(t).URL,
		"SIGNALS_SEARCH_MODEL=bag-of-words", "SIGNALS_SEARCH_TIMEOUT=" + timeout, "SIGNALS_OUTBOX=" + t.TempDir()}
	a := startServeEnv(t, db, env, "--demo")
	b := startServeEnv(t, db, env)
	b.key = a.key
	return a, b
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
	a, b := replicas(t, "10s")
	var wg sync.WaitGroup
	var mu sync.Mutex
	statuses := map[int]int{}
	for i := range 45 {
		s := a
		if i%2 == 1 {
			s = b
		}
		wg.Go(func() {
			resp, _ := call(t, s, "/api/v1/signals?page_size=1")
			mu.Lock()
			statuses[resp.StatusCode]++
			mu.Unlock()
		})
	}
	wg.Wait()
	if statuses[200] != 30 || statuses[429] != 15 {
		t.Errorf("45 simultaneous requests over two processes: %v, want 30 × 200 and 15 × 429", statuses)
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
