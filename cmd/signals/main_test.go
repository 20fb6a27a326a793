package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// binary is the signals command built once for these tests.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "signals-e2e")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "signals")
	out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput()
	if err != nil {
		os.Stderr.Write(out)
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// server is a running `signals serve` process.
type server struct {
	base   string
	key    string
	cmd    *exec.Cmd
	killed bool

	mu   sync.Mutex
	logs []string // what it wrote to stderr so far
}

// logsWith returns the lines serve has logged so far that hold text.
func (s *server) logsWith(text string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, l := range s.logs {
		if strings.Contains(l, text) {
			out = append(out, l)
		}
	}
	return out
}

// waitLogCount waits until serve has logged n lines that hold text.
func (s *server) waitLogCount(t *testing.T, text string, n int) {
	t.Helper()
	for deadline := time.Now().Add(40 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if len(s.logsWith(text)) >= n {
			return
		}
	}
	got := len(s.logsWith(text))
	s.mu.Lock()
	defer s.mu.Unlock()
	t.Fatalf("serve logged %d lines with %q, want %d:\n%s", got, text, n, strings.Join(s.logs, "\n"))
}

// waitLog waits until serve has logged a line that holds text, and
// returns it.
func (s *server) waitLog(t *testing.T, text string) string {
	t.Helper()
	for deadline := time.Now().Add(40 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		s.mu.Lock()
		for _, l := range s.logs {
			if strings.Contains(l, text) {
				s.mu.Unlock()
				return l
			}
		}
		s.mu.Unlock()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t.Fatalf("serve logged no line with %q:\n%s", text, strings.Join(s.logs, "\n"))
	return ""
}

// kill ends the process at once, as a crash would.
func (s *server) kill(t *testing.T) {
	t.Helper()
	s.killed = true
	if err := s.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
}

var serving = regexp.MustCompile(`msg=serving addr=(\S+)`)

func startServe(t *testing.T, db string, args ...string) *server {
	t.Helper()
	return startServeEnv(t, db, nil, args...)
}

// startServeEnv starts serve with extra environment variables.
func startServeEnv(t *testing.T, db string, env []string, args ...string) *server {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(append(os.Environ(), "SIGNALS_DATABASE="+db, "SIGNALS_BASE_URL=http://signals.test"), env...)
	stdout, _ := cmd.StdoutPipe()
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &server{cmd: cmd}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		if err := cmd.Wait(); err != nil && !s.killed {
			t.Errorf("serve did not stop cleanly: %v", err)
		}
	})
	keyc := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if k := strings.TrimSpace(sc.Text()); strings.HasPrefix(k, "sig_") {
				keyc <- k
			}
		}
	}()
	addrc := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			s.mu.Lock()
			s.logs = append(s.logs, sc.Text())
			s.mu.Unlock()
			if m := serving.FindStringSubmatch(sc.Text()); m != nil {
				addrc <- m[1]
			}
		}
	}()
	timeout := time.After(30 * time.Second)
	select {
	case a := <-addrc:
		s.base = "http://" + a
	case <-timeout:
		t.Fatal("serve did not start within 30s")
	}
	select {
	case s.key = <-keyc:
	case <-time.After(2 * time.Second):
	}
	return s
}

func call(t *testing.T, s *server, path string) (*http.Response, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, s.base+path, nil)
	req.Header.Set("Authorization", "Bearer "+s.key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v\n%s", path, err, b)
	}
	return resp, v
}

func TestServeDemoEndToEnd(t *testing.T) {
	db := filepath.Join(t.TempDir(), "signals.db")
	s := startServe(t, db, "--demo")
	if !strings.HasPrefix(s.key, "sig_") {
		t.Fatal("serve --demo printed no API key")
	}
	resp, list := call(t, s, "/api/v1/signals?page_size=20")
	if resp.StatusCode != 200 {
		t.Fatalf("list: %d %v", resp.StatusCode, list)
	}
	signals := list["signals"].([]any)
	if len(signals) != 20 || list["has_more"] != true {
		t.Fatalf("demo list has %d signals, has_more=%v", len(signals), list["has_more"])
	}
	for _, raw := range signals {
		id := raw.(map[string]any)["id"].(string)
		resp, one := call(t, s, "/api/v1/signals/"+url.PathEscape(id))
		if resp.StatusCode != 200 || one["id"] != id {
			t.Fatalf("read %q: %d %v", id, resp.StatusCode, one)
		}
	}
	resp, usage := call(t, s, "/api/v1/usage")
	if resp.StatusCode != 200 || usage["daily_requests"].(map[string]any)["used"].(float64) != 22 {
		t.Fatalf("usage: %d %v", resp.StatusCode, usage)
	}
	if resp.Header.Get("RateLimit-Policy") != `"minute";q=30;w=60` {
		t.Errorf("RateLimit-Policy = %q", resp.Header.Get("RateLimit-Policy"))
	}
}

func run(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

func TestOperatorCommands(t *testing.T) {
	db := filepath.Join(t.TempDir(), "ops.db")
	dbFlag := "--database=" + db
	good := `{"id":"x1","tag":"job","source":"microblog","language":"en","country":"canada","author_name":"Ada","source_url":"https://example.org/1","text":"Hiring","published_at":"2026-10-01T00:00:00Z","published_at_precision":"day","observed_at":null,"status":"public"}`
	if _, errs, code := run(t, good+"\n", "import", "-", dbFlag); code != 0 {
		t.Fatalf("import exit %d: %s", code, errs)
	}
	bad := good + "\n" + `{"id":"x2","tag":"nope"}` + "\n" + strings.Replace(good, "x1", "x3", 1)
	_, errs, code := run(t, bad, "import", "-", dbFlag)
	if code != 1 || !strings.Contains(errs, "line 2: tag: must be one of") || !strings.Contains(errs, "line 2: source: is required") {
		t.Fatalf("bad import: exit %d\n%s", code, errs)
	}

	if _, errs, code := run(t, "", "accounts", "create", "--email", "ops@example.com", dbFlag); code != 0 {
		t.Fatalf("accounts create: %d %s", code, errs)
	}
	key, errs, code := run(t, "", "keys", "create", "--email", "ops@example.com", "--name", "ci", dbFlag)
	if code != 0 || !strings.HasPrefix(key, "sig_") || strings.Count(key, "\n") != 1 {
		t.Fatalf("keys create printed %q (exit %d, %s); want the key alone", key, code, errs)
	}
	listed, _, _ := run(t, "", "keys", "list", "--email", "ops@example.com", dbFlag)
	if strings.Contains(listed, strings.TrimSpace(key)) || !strings.Contains(listed, "ci") {
		t.Fatalf("keys list shows the secret or lacks the key:\n%s", listed)
	}
	keyID := strings.Fields(strings.Split(listed, "\n")[1])[0]

	if out, errs, code := run(t, "", "accounts", "set-limits", "--email", "ops@example.com", "--minute-requests", "2", dbFlag); code != 0 || !strings.Contains(out, "minute_requests=2") {
		t.Fatalf("set-limits: %d %s %s", code, out, errs)
	}
	if _, errs, code := run(t, "", "signals", "set-status", "x1", "hidden", dbFlag); code != 0 {
		t.Fatalf("set-status: %d %s", code, errs)
	}
	if _, errs, code := run(t, "", "signals", "set-status", "missing", "public", dbFlag); code != 1 {
		t.Fatalf("set-status of a missing id: exit %d %s", code, errs)
	}
	if _, _, code := run(t, "", "signals", "set-status", "x1", "visible", dbFlag); code != 2 {
		t.Fatalf("set-status with a bad status: exit %d, want 2", code)
	}

	s := startServe(t, db)
	s.key = strings.TrimSpace(key)
	resp, body := call(t, s, "/api/v1/signals/x1")
	if resp.StatusCode != 404 {
		t.Fatalf("hidden signal: %d %v", resp.StatusCode, body)
	}
	if resp.Header.Get("RateLimit-Policy") != `"minute";q=2;w=60` {
		t.Errorf("actual limits not applied: %q", resp.Header.Get("RateLimit-Policy"))
	}
	if _, errs, code := run(t, "", "keys", "revoke", keyID, dbFlag); code != 0 {
		t.Fatalf("revoke: %d %s", code, errs)
	}
	if resp, _ := call(t, s, "/api/v1/signals"); resp.StatusCode != 401 {
		t.Fatalf("revoked key: %d, want 401 at once", resp.StatusCode)
	}
}

func TestOneServerPerSQLiteFile(t *testing.T) {
	db := filepath.Join(t.TempDir(), "one.db")
	startServe(t, db)
	_, errs, code := run(t, "", "serve", "--addr", "127.0.0.1:0", "--database="+db)
	if code != 1 || !strings.Contains(errs, "another signals serve process uses this SQLite file") {
		t.Fatalf("a second serve on the same file: exit %d\n%s", code, errs)
	}
	// Operator commands still work beside the server.
	if _, errs, code := run(t, "", "accounts", "create", "--email", "ops@example.com", "--database="+db); code != 0 {
		t.Fatalf("accounts create beside a server: %d %s", code, errs)
	}
}
