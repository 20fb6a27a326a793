package main

import (
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// A server killed with SIGKILL right after a burst of requests, then
// restarted in the same UTC minute, never serves an account beyond its
// minute or daily limit: every count it answered was on disk first.
func TestKillNineKeepsQuotas(t *testing.T) {
	db := filepath.Join(t.TempDir(), "crash.db")
	dbFlag := "--database=" + db
	good := `{"id":"x1","tag":"job","source":"microblog","language":"en","country":"canada","author_name":"Ada","source_url":"https://example.org/1","text":"Hiring","published_at":"2026-10-01T00:00:00Z","published_at_precision":"day","observed_at":null,"status":"public"}`
	if _, errs, code := run(t, good+"\n", "import", "-", dbFlag); code != 0 {
		t.Fatalf("import exit %d: %s", code, errs)
	}
	const trials = 4
	type account struct {
		key   string
		limit string // the limit under test: minute or day
	}
	var accounts []account
	for i := range trials * 2 {
		email := strings.Repeat("a", i+1) + "@example.com"
		if _, errs, code := run(t, "", "accounts", "create", "--email", email, dbFlag); code != 0 {
			t.Fatalf("accounts create: %d %s", code, errs)
		}
		limits := []string{"--minute-requests", "30", "--daily-requests", "1000"}
		a := account{limit: "minute"}
		if i%2 == 1 {
			limits = []string{"--minute-requests", "1000", "--daily-requests", "30"}
			a.limit = "day"
		}
		if out, errs, code := run(t, "", append([]string{"accounts", "set-limits", "--email", email, dbFlag}, limits...)...); code != 0 {
			t.Fatalf("set-limits: %d %s %s", code, out, errs)
		}
		key, errs, code := run(t, "", "keys", "create", "--email", email, dbFlag)
		if code != 0 {
			t.Fatalf("keys create: %d %s", code, errs)
		}
		a.key = strings.TrimSpace(key)
		accounts = append(accounts, a)
	}

	// burst sends n requests at once and returns how many were served.
	burst := func(s *server, key string, n int) int {
		var served atomic.Int32
		var wg sync.WaitGroup
		for range n {
			wg.Go(func() {
				req, _ := http.NewRequest(http.MethodGet, s.base+"/api/v1/signals?page_size=1", nil)
				req.Header.Set("Authorization", "Bearer "+key)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					return // the server was killed under it
				}
				resp.Body.Close()
				if resp.StatusCode == http.StatusOK {
					served.Add(1)
				}
			})
		}
		wg.Wait()
		return int(served.Load())
	}

	for i := 0; i < trials; i++ {
		// The two bursts must fall in one UTC minute.
		if time.Now().UTC().Second() > 35 {
			time.Sleep(time.Duration(61-time.Now().UTC().Second()) * time.Second)
		}
		minute := time.Now().UTC().Truncate(time.Minute)
		s := startServe(t, db)
		served := 0
		for _, a := range accounts[2*i : 2*i+2] {
			served = burst(s, a.key, 45)
			if served != 30 {
				t.Fatalf("%s-limited account: %d of 45 served before the crash, want 30", a.limit, served)
			}
		}
		s.kill(t)
		s.cmd.Wait()
		s = startServe(t, db)
		for _, a := range accounts[2*i : 2*i+2] {
			again := burst(s, a.key, 45)
			if time.Now().UTC().Truncate(time.Minute) != minute {
				t.Logf("trial %d crossed a minute; not counted", i)
				continue
			}
			if again != 0 {
				t.Errorf("trial %d: %s-limited account served %d more after kill -9, beyond its limit of 30", i, a.limit, again)
			}
		}
		s.kill(t) // the next trial starts a server of its own
		s.cmd.Wait()
	}
}
