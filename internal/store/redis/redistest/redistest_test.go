package redistest

import (
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

func mustDo(t *testing.T, s *Server, args ...string) string {
	t.Helper()
	reply, err := s.Do(args...)
	if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return reply
}

// A write older than the fsync second survives SIGKILL; everything
// survives a shutdown; the server comes back on its port.
func TestKillRestartKeepsTheAppendOnlyFile(t *testing.T) {
	s := Start(t, Options{})
	if got := mustDo(t, s, "CONFIG", "GET", "appendfsync"); got != "appendfsync\neverysec" {
		t.Fatalf("appendfsync: %q", got)
	}
	addr := s.Addr()
	mustDo(t, s, "SET", "old", "1")
	time.Sleep(1500 * time.Millisecond) // the append-only file's fsync runs every second
	s.Kill()
	if _, err := Command(addr, "PING"); err == nil {
		t.Fatal("the killed server still answers")
	}
	s.Restart()
	if s.Addr() != addr {
		t.Fatalf("restarted on %s, was %s", s.Addr(), addr)
	}
	if got := mustDo(t, s, "GET", "old"); got != "1" {
		t.Fatalf("a write 1.5 s before the kill: %q after the restart, want 1", got)
	}
	mustDo(t, s, "SET", "new", "2")
	s.Stop()
	s.Restart()
	if got := mustDo(t, s, "GET", "new"); got != "2" {
		t.Fatalf("a write just before the shutdown: %q after the restart, want 2", got)
	}
}

func TestCommandReplies(t *testing.T) {
	s := Start(t, Options{AppendFsync: "always"})
	if got := mustDo(t, s, "CONFIG", "GET", "appendfsync"); got != "appendfsync\nalways" {
		t.Fatalf("appendfsync: %q", got)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"INCRBY", "n", "5"}, "5"},
		{[]string{"GET", "missing"}, ""},
		{[]string{"RPUSH", "l", "a", "b c"}, "2"},
		{[]string{"LRANGE", "l", "0", "-1"}, "a\nb c"},
	} {
		if got := mustDo(t, s, c.args...); got != c.want {
			t.Errorf("%v = %q, want %q", c.args, got, c.want)
		}
	}
	if _, err := s.Do("NOSUCHCOMMAND"); err == nil || !strings.Contains(err.Error(), "unknown command") {
		t.Errorf("an unknown command: %v", err)
	}
}

// Keys of different hash tags land on every master, and a master refuses a
// key of another's slot.
func TestClusterSpreadsHashTags(t *testing.T) {
	c := StartCluster(t, 3)
	if urls := strings.Split(c.URL(), ","); len(urls) != 3 || urls[2] != c.Masters[2].URL() {
		t.Fatalf("URL %q", c.URL())
	}
	held := map[*Server]int{}
	for i := range 30 {
		key := "{account:" + string(rune('a'+i%26)) + string(rune('0'+i/26)) + "}:minute"
		m := c.MasterOf(t, key)
		held[m]++
		mustDo(t, m, "SET", key, "1")
		for _, other := range c.Masters {
			if other == m {
				continue
			}
			if _, err := other.Do("GET", key); err == nil || !strings.HasPrefix(err.Error(), "MOVED") {
				t.Fatalf("%s on a master not serving it: %v, want MOVED", key, err)
			}
		}
	}
	if len(held) != 3 {
		t.Errorf("30 hash tags on %d of 3 masters", len(held))
	}
	for _, m := range c.Masters {
		if got := mustDo(t, m, "DBSIZE"); got != strconv.Itoa(held[m]) {
			t.Errorf("master %s holds %s keys, want %d", m.Addr(), got, held[m])
		}
	}
}

// Each URL is a database of its own.
func TestURLIsTheTestsOwn(t *testing.T) {
	a, b := URL(t), URL(t)
	if a == b {
		t.Fatalf("two URLs alike: %s", a)
	}
	open := func(raw string) (string, string) {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		return u.Host, strings.TrimPrefix(u.Path, "/")
	}
	hostA, dbA := open(a)
	hostB, dbB := open(b)
	if dbA == "" {
		dbA = "0"
	}
	if dbB == "" {
		dbB = "0"
	}
	if _, err := commands(hostA, []string{"SELECT", dbA}, []string{"SET", "mine", "a"}); err != nil {
		t.Fatal(err)
	}
	got, err := commands(hostB, []string{"SELECT", dbB}, []string{"GET", "mine"})
	if err != nil || got != "" {
		t.Errorf("the other URL sees %q (%v)", got, err)
	}
}
