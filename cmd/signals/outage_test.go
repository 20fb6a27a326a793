package main

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"signals/internal/store/postgres/pgtest"
)

// PostgreSQL stops for a few seconds, twice, while serve runs on it. Each
// outage is exactly one line when it starts (with the cause the last
// attempt saw, not pgx's first TLS probe) and one when it ends;
// signals_database_up goes to 0 and back to 1; background jobs log and
// count their failures boundedly; requests are answered 503
// service_unavailable, /readyz alike, and never 500.
func TestDatabaseOutage(t *testing.T) {
	if testing.Short() {
		t.Skip("stops a PostgreSQL server of its own for seconds")
	}
	cluster := pgtest.NewCluster(t) // started
	// sslmode prefer (the default): pgx tries TLS first, which this server
	// refuses, then plain; the outage must say why plain failed.
	db := strings.Replace(cluster.URL(), "?sslmode=disable", "", 1)
	s := startServeEnv(t, db, []string{"SIGNALS_METRICS_ADDR=127.0.0.1:0", "SIGNALS_OUTBOX=" + t.TempDir()}, "--demo")
	metricsAddr := regexp.MustCompile(`addr=(\S+)`).FindStringSubmatch(s.waitLog(t, "serving metrics"))[1]
	gauge := func() string {
		resp, err := http.Get("http://" + metricsAddr + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		m := regexp.MustCompile(`(?m)^signals_database_up (\d)$`).FindStringSubmatch(string(b))
		if m == nil {
			t.Fatalf("no signals_database_up in the metrics:\n%s", b)
		}
		return m[1]
	}
	failures := func() int {
		resp, err := http.Get("http://" + metricsAddr + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		n := 0
		for _, m := range regexp.MustCompile(`(?m)^signals_background_failures_total\{op="[^"]+"\} (\d+)$`).FindAllStringSubmatch(string(b), -1) {
			v, _ := strconv.Atoi(m[1])
			n += v
		}
		return n
	}
	if g := gauge(); g != "1" {
		t.Fatalf("signals_database_up = %s before the outage", g)
	}
	statuses := map[int]int{}
	get := func(path string) {
		req, _ := http.NewRequest(http.MethodGet, s.base+path, nil)
		req.Header.Set("Authorization", "Bearer "+s.key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		statuses[resp.StatusCode]++
		if resp.StatusCode == http.StatusServiceUnavailable && !strings.Contains(string(b), `"code":"service_unavailable"`) {
			t.Errorf("%s during the outage: %s", path, b)
		}
	}
	for outage := 1; outage <= 2; outage++ {
		cluster.Stop()
		sawDown := false
		for end := time.Now().Add(4 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
			get("/api/v1/signals")
			get("/readyz")
			if !sawDown && gauge() == "0" {
				sawDown = true
			}
		}
		if !sawDown {
			t.Errorf("outage %d: signals_database_up never went to 0", outage)
		}
		cluster.Start()
		s.waitLogCount(t, "msg=\"database back\"", outage)
		if g := gauge(); g != "1" {
			t.Errorf("outage %d: signals_database_up = %s once the database is back", outage, g)
		}
		get("/api/v1/signals")
	}
	if statuses[http.StatusInternalServerError] > 0 || statuses[http.StatusServiceUnavailable] == 0 || statuses[http.StatusOK] == 0 {
		t.Errorf("statuses %v: want 503 during the outages, 200 after, no 500", statuses)
	}
	down, back := s.logsWith("level=ERROR msg=\"database unreachable\""), s.logsWith("msg=\"database back\"")
	if len(down) != 2 || len(back) != 2 {
		t.Errorf("%d unreachable and %d back lines, want 2 of each (one per outage):\n%s", len(down), len(back),
			strings.Join(append(down, back...), "\n"))
	}
	for _, l := range down {
		if strings.Contains(l, "tls error") || !strings.Contains(l, "cause=") {
			t.Errorf("the outage's cause is not the last attempt's: %s", l)
		}
	}
	for _, l := range back {
		if !strings.Contains(l, "outage=") {
			t.Errorf("the back line does not say how long: %s", l)
		}
	}
	// Six jobs, each logging at most once per outage; each counting a
	// failure per run, and none runs more often than every 2s.
	if jobs := s.logsWith("background job failed"); len(jobs) > 2*6 {
		t.Errorf("%d background failure lines for 2 outages:\n%s", len(jobs), strings.Join(jobs, "\n"))
	}
	if n := failures(); n > 2*6*3 {
		t.Errorf("%d background failures counted over two outages of 4s", n)
	}
	if os.Getenv("CI") == "" {
		t.Logf("statuses %v, %d background failures\n%s", statuses, failures(), strings.Join(append(append(down, back...), s.logsWith("background job failed")...), "\n"))
	}
}

// SIGTERM drains the requests in flight and says so: one line when the
// shutdown starts and one when it is done, with the count.
func TestShutdownSaysWhatItDrained(t *testing.T) {
	s := startServe(t, filepath.Join(t.TempDir(), "signals.db"))
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	s.waitLog(t, `msg="shutting down" in_flight=`)
	if line := s.waitLog(t, "msg=stopped drained="); !strings.Contains(line, "duration=") {
		t.Errorf("%s", line)
	}
}
