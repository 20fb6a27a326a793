package cli

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// output is a writer that a running command and the test read concurrently.
type output struct {
	mu sync.Mutex
	b  strings.Builder
	// changed receives after a write the test has not yet seen.
	changed chan struct{}
}

func newOutput() *output { return &output{changed: make(chan struct{}, 1)} }

func (o *output) Write(p []byte) (int, error) {
	o.mu.Lock()
	o.b.Write(p)
	o.mu.Unlock()
	select {
	case o.changed <- struct{}{}:
	default:
	}
	return len(p), nil
}

func (o *output) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.b.String()
}

// waitFor waits until the output matches re and returns the submatches; it
// fails the test if the command exits first.
func (o *output) waitFor(t *testing.T, re *regexp.Regexp, exited <-chan int) []string {
	t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		if m := re.FindStringSubmatch(o.String()); m != nil {
			return m
		}
		select {
		case <-o.changed:
		case code := <-exited:
			t.Fatalf("the command exited %d before printing %s:\n%s", code, re, o.String())
		case <-timeout:
			t.Fatalf("nothing matched %s within 30s:\n%s", re, o.String())
		}
	}
}

func TestServeListensThenPrintsTheKeyAndWhereItServes(t *testing.T) {
	db := filepath.Join(t.TempDir(), "demo.db")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stdout, stderr := newOutput(), newOutput()
	env := Env{Stdin: strings.NewReader(""), Stdout: stdout, Stderr: stderr, Getenv: func(k string) string {
		if k == "SIGNALS_BASE_URL" {
			return "http://signals.test/"
		}
		return ""
	}}
	exited := make(chan int, 1)
	go func() {
		exited <- Run(ctx, []string{"serve", "--demo", "--addr", "127.0.0.1:0", "--database", db}, env)
	}()
	addr := stderr.waitFor(t, regexp.MustCompile(`msg=serving addr=(\S+)`), exited)[1]
	stdout.waitFor(t, regexp.MustCompile(`serving on`), exited)

	want := regexp.MustCompile(`^Demo account demo@example\.com; its API key \(shown once\):\nsig_\w+\n` +
		`serving on http://signals\.test — docs at http://signals\.test/developers\n$`)
	if got := stdout.String(); !want.MatchString(got) {
		t.Errorf("stdout:\n%s\nwant the key, then one line saying where it serves (%s)", got, want)
	}

	// The base URL is published without its trailing slash.
	resp, err := http.Get("http://" + addr + "/.well-known/mcp.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ Endpoint string }
	err = json.NewDecoder(resp.Body).Decode(&doc)
	resp.Body.Close()
	if err != nil || doc.Endpoint != "http://signals.test/mcp" {
		t.Errorf("mcp.json endpoint %q (%v), want http://signals.test/mcp", doc.Endpoint, err)
	}

	cancel()
	if code := <-exited; code != 0 {
		t.Errorf("serve exited %d after its context ended:\n%s", code, stderr.String())
	}
}

// Given only the address to listen on, serve publishes links to that
// address, not to a default port it does not listen on.
func TestServeDerivesTheBaseURLFromTheAddress(t *testing.T) {
	db := filepath.Join(t.TempDir(), "addr.db")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stdout, stderr := newOutput(), newOutput()
	env := Env{Stdin: strings.NewReader(""), Stdout: stdout, Stderr: stderr, Getenv: func(k string) string {
		if k == "SIGNALS_ADDR" {
			return "127.0.0.1:0"
		}
		return ""
	}}
	exited := make(chan int, 1)
	go func() { exited <- Run(ctx, []string{"serve", "--database", db}, env) }()
	addr := stderr.waitFor(t, regexp.MustCompile(`msg=serving addr=(\S+)`), exited)[1]
	stdout.waitFor(t, regexp.MustCompile(`serving on`), exited)

	base := "http://" + addr
	if got, want := stdout.String(), "serving on "+base+" — docs at "+base+"/developers\n"; got != want {
		t.Errorf("stdout %q, want %q", got, want)
	}
	resp, err := http.Get(base + "/.well-known/oauth-authorization-server")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ Issuer string }
	err = json.NewDecoder(resp.Body).Decode(&doc)
	resp.Body.Close()
	if err != nil || doc.Issuer != base {
		t.Errorf("OAuth issuer %q (%v), want %s", doc.Issuer, err, base)
	}
	cancel()
	<-exited
}

func TestBaseURLFromAddr(t *testing.T) {
	listening := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 41234}
	for _, tc := range []struct{ addr, want string }{
		{":8080", "http://localhost:8080"},
		{":9090", "http://localhost:9090"},
		{"0.0.0.0:9090", "http://localhost:9090"},
		{"[::]:9090", "http://localhost:9090"},
		{"127.0.0.1:9090", "http://127.0.0.1:9090"},
		{"[::1]:9090", "http://[::1]:9090"},
		{"signals.internal:80", "http://signals.internal:80"},
		{"127.0.0.1:0", "http://127.0.0.1:41234"},
	} {
		if got := baseURLFromAddr(tc.addr, listening); got != tc.want {
			t.Errorf("baseURLFromAddr(%q) = %q, want %q", tc.addr, got, tc.want)
		}
	}
}

// holdPort listens on a loopback port until the test ends and returns its
// address, for a serve that must find it taken.
func holdPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return ln.Addr().String()
}

// A busy port stops serve before it writes anything, with the setting that
// chooses another address.
func TestServeOnABusyPortCreatesNoKey(t *testing.T) {
	busy := holdPort(t)
	db := filepath.Join(t.TempDir(), "busy.db")
	out, errs, code := runCLI(t, nil, "", "serve", "--demo", "--addr", busy, "--database", db)
	want := "listen tcp " + busy + ": address already in use; another program holds it: choose another address with --addr or SIGNALS_ADDR\n"
	if code != 1 || out != "" || errs != "signals: "+want {
		t.Fatalf("serve on a busy port: exit %d, stdout %q, stderr:\n%s\nwant exit 1, nothing on stdout, and on stderr:\n%s", code, out, errs, want)
	}
	if _, errs, code := runCLI(t, nil, "", "keys", "list", "--email", "demo@example.com", "--database", db); code != 1 || !strings.Contains(errs, "no account") {
		t.Errorf("after a failed serve --demo, keys list: exit %d %s; want no demo account", code, errs)
	}
}

// A busy metrics port names its own setting.
func TestServeOnABusyMetricsPort(t *testing.T) {
	busy := holdPort(t)
	db := filepath.Join(t.TempDir(), "metrics.db")
	out, errs, code := runCLI(t, nil, "", "serve", "--addr", "127.0.0.1:0", "--metrics-addr", busy, "--database", db)
	if code != 1 || out != "" || !strings.Contains(errs, "address already in use; another program holds it: "+
		"choose another address with --metrics-addr or SIGNALS_METRICS_ADDR") {
		t.Errorf("serve with a busy metrics port: exit %d, stdout %q, stderr:\n%s", code, out, errs)
	}
}

// Every setting that cannot work is reported before serve binds its port:
// each case asks for a port another listener holds, and is refused for its
// setting, with nothing written.
func TestServeChecksItsSettingsBeforeItListens(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "checked.db")
	busy := holdPort(t)
	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
		code int
		says string
	}{
		{"address without a port", nil, []string{"--addr", "8080"}, 2, `--addr ($SIGNALS_ADDR) is host:port, such as :8080 or 127.0.0.1:8080; got "8080"`},
		{"metrics address without a port", map[string]string{"SIGNALS_METRICS_ADDR": "localhost"}, nil, 2, "--metrics-addr ($SIGNALS_METRICS_ADDR) is host:port"},
		{"bad base URL", map[string]string{"SIGNALS_BASE_URL": "signals.example.com"}, nil, 2, "$SIGNALS_BASE_URL"},
		{"bad log level", map[string]string{"SIGNALS_LOG_LEVEL": "loud"}, nil, 2, "$SIGNALS_LOG_LEVEL"},
		{"database folder missing", nil, []string{"--database", filepath.Join(dir, "none", "s.db")}, 1, "SIGNALS_DATABASE"},
		{"empty database", map[string]string{}, []string{"--database", ""}, 1, "SIGNALS_DATABASE is empty"},
		{"PostgreSQL URL that does not parse", map[string]string{"SIGNALS_OUTBOX": dir},
			[]string{"--database", "postgres://u:hunter2@127.0.0.1:notaport/x"}, 1, "SIGNALS_DATABASE: cannot parse"},
		{"Redis beside SQLite", map[string]string{"SIGNALS_REDIS_URL": "redis://127.0.0.1:1"}, nil, 1,
			"SIGNALS_REDIS_URL needs a PostgreSQL SIGNALS_DATABASE"},
		{"Redis URL that does not parse", map[string]string{"SIGNALS_OUTBOX": dir, "SIGNALS_REDIS_URL": "redis://u:hunter2@127.0.0.1:notaport"},
			[]string{"--database", "postgres://u@127.0.0.1:1/x"}, 1, "SIGNALS_REDIS_URL: "},
		{"Redis URL of another scheme", map[string]string{"SIGNALS_OUTBOX": dir, "SIGNALS_REDIS_URL": "http://u:hunter2@127.0.0.1:6379"},
			[]string{"--database", "postgres://u@127.0.0.1:1/x"}, 1, "SIGNALS_REDIS_URL: "},
		{"unknown search provider", map[string]string{"SIGNALS_SEARCH_PROVIDER": "magic"}, nil, 1, "SIGNALS_SEARCH_PROVIDER"},
		{"openai without a model", map[string]string{"SIGNALS_SEARCH_PROVIDER": "openai", "SIGNALS_SEARCH_URL": "http://127.0.0.1:1"}, nil, 1,
			"SIGNALS_SEARCH_MODEL"},
		{"openai URL that is no URL", map[string]string{"SIGNALS_SEARCH_PROVIDER": "openai", "SIGNALS_SEARCH_URL": "embeddings", "SIGNALS_SEARCH_MODEL": "m"}, nil, 1,
			"embeddings URL must be an absolute http or https URL"},
		{"bad security contact", map[string]string{"SIGNALS_SECURITY_CONTACT": "ftp://example.com"}, nil, 1, "SIGNALS_SECURITY_CONTACT"},
		{"bad sender", map[string]string{"SIGNALS_MAIL_FROM": "nobody"}, nil, 1, "SIGNALS_MAIL_FROM"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"serve", "--demo", "--addr", busy, "--database", db}, tc.args...)
			out, errs, code := runCLI(t, tc.env, "", args...)
			if code != tc.code || out != "" || !strings.Contains(errs, tc.says) || strings.Contains(errs, "address already in use") {
				t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit %d and %q", code, out, errs, tc.code, tc.says)
			}
			if strings.Contains(errs, "hunter2") {
				t.Errorf("a password is on stderr:\n%s", errs)
			}
		})
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a refused configuration wrote %v", entries)
	}
}

func TestServeRefusesABadBaseURL(t *testing.T) {
	db := filepath.Join(t.TempDir(), "u.db")
	for _, base := range []string{
		"127.0.0.1:18437",
		"localhost:8080",
		"signals.example.com",
		"/signals",
		"ftp://signals.example.com",
		"http://",
		"http://:8080",
		"https://signals.example.com/?x=1",
		"https://signals.example.com/?",
		"https://signals.example.com/#top",
		"https://signals.example.com#",
		"https://user:secret@signals.example.com",
		"http://signals.example.com:port",
	} {
		t.Run(base, func(t *testing.T) {
			// A cancelled context: a serve that accepted the URL stops at
			// once instead of serving.
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			var out, errs strings.Builder
			code := Run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--database", db}, Env{
				Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errs,
				Getenv: func(k string) string {
					if k == "SIGNALS_BASE_URL" {
						return base
					}
					return ""
				},
			})
			if code != 2 || !strings.Contains(errs.String(), "$SIGNALS_BASE_URL") ||
				!strings.Contains(errs.String(), "must be an absolute http or https URL") || out.Len() != 0 {
				t.Errorf("exit %d, stdout %q, stderr %q; want a usage error naming $SIGNALS_BASE_URL", code, out.String(), errs.String())
			}
		})
	}
}

func TestCheckBaseURL(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"http://localhost:8080", "http://localhost:8080"},
		{"https://signals.example.com/", "https://signals.example.com"},
		{"https://signals.example.com/base/", "https://signals.example.com/base"},
		{"HTTPS://signals.example.com", "https://signals.example.com"},
		{"http://[::1]:8080", "http://[::1]:8080"},
	} {
		if got, err := checkBaseURL(tc.in); got != tc.want || err != nil {
			t.Errorf("checkBaseURL(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

// A second serve reaching a served database through a symbolic link is
// refused: the lock is on the file, not on the name.
func TestSecondServeThroughASymlinkIsRefused(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "signals.db")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stdout, stderr := newOutput(), newOutput()
	env := Env{Stdin: strings.NewReader(""), Stdout: stdout, Stderr: stderr, Getenv: func(string) string { return "" }}
	exited := make(chan int, 1)
	go func() { exited <- Run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--database", db}, env) }()
	stdout.waitFor(t, regexp.MustCompile(`serving on`), exited)

	link := filepath.Join(dir, "link.db")
	if err := os.Symlink(db, link); err != nil {
		t.Fatal(err)
	}
	ctx2, cancel2 := context.WithCancel(context.Background())
	defer cancel2()
	stdout2, stderr2 := newOutput(), newOutput()
	env2 := Env{Stdin: strings.NewReader(""), Stdout: stdout2, Stderr: stderr2, Getenv: func(string) string { return "" }}
	second := make(chan int, 1)
	go func() { second <- Run(ctx2, []string{"serve", "--addr", "127.0.0.1:0", "--database", link}, env2) }()
	select {
	case code := <-second:
		if code != 1 || !strings.Contains(stderr2.String(), "another signals serve process uses this SQLite file") {
			t.Errorf("second serve through a symlink: exit %d, stderr:\n%s", code, stderr2.String())
		}
	case <-stdout2.changed:
		cancel2()
		<-second
		t.Errorf("a second serve through a symlink started:\n%s", stdout2.String())
	}
	cancel()
	if code := <-exited; code != 0 {
		t.Errorf("the first serve exited %d:\n%s", code, stderr.String())
	}
}

func TestProgram(t *testing.T) {
	for argv0, want := range map[string]string{
		"/tmp/go-build1234567/b001/exe/signals":                         "go run ./cmd/signals",
		`C:\Users\a\AppData\Local\Temp\go-build99\b001\exe\signals.exe`: "go run ./cmd/signals",
		"signals":          "signals",
		"./signals":        "./signals",
		"/usr/bin/signals": "/usr/bin/signals",
		"":                 "signals",
	} {
		if got := Program(argv0); got != want {
			t.Errorf("Program(%q) = %q, want %q", argv0, got, want)
		}
	}
}
