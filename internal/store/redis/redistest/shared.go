package redistest

import (
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"
)

// URL returns the redis:// URL of a database of the test's own: on the
// server named by SIGNALS_TEST_REDIS when it is set, a database number no
// other test of the run uses (emptied when the test ends), or else a server
// started for the test. For tests that need a Redis but no control of it.
func URL(t testing.TB) string {
	t.Helper()
	shared := os.Getenv(EnvURL)
	if shared == "" {
		return Start(t, Options{}).URL()
	}
	u, err := url.Parse(shared)
	if err != nil || u.Scheme != "redis" || u.Host == "" {
		t.Fatalf("%s=%q: want redis://host:port", EnvURL, shared)
	}
	addr := u.Host
	// Database 0 holds the run's counter of databases handed out; tests
	// of several packages, run at once, share it.
	count, err := Command(addr, "CONFIG", "GET", "databases")
	if err != nil {
		t.Fatalf("%s: %v", EnvURL, err)
	}
	databases, _ := strconv.Atoi(count[strings.LastIndexByte(count, '\n')+1:])
	if databases < 2 {
		t.Fatalf("%s: the server has %d databases; want several", EnvURL, databases)
	}
	n, err := Command(addr, "INCR", "redistest:databases")
	if err != nil {
		t.Fatalf("%s: %v", EnvURL, err)
	}
	taken, _ := strconv.Atoi(n)
	db := strconv.Itoa(1 + (taken-1)%(databases-1))
	flush := func() {
		if _, err := commands(addr, []string{"SELECT", db}, []string{"FLUSHDB"}); err != nil {
			t.Errorf("%s: empty database %s: %v", EnvURL, db, err)
		}
	}
	flush() // a database handed out again, after the counter wrapped
	t.Cleanup(flush)
	u.Path = "/" + db
	return u.String()
}
