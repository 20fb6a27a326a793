// Package recipes runs every shell recipe of README.md and docs/, so
// that what the documentation tells people to type keeps working.
//
// A shell recipe is a fenced block whose info string is sh, bash, shell or
// console. The blocks of one page run in order, as one bash script
// (set -e, pipefail), in a new temporary folder, with the signals binary
// (built once from this source tree) first on PATH; variables set by one
// block are seen by the next. In a console block, lines starting with "$ "
// are commands (a line ending in \ continues on the next, after "> ") and
// the lines under one are what it prints on stdout, exactly; a command
// shown without output must print nothing there.
//
// The runner changes three things in a recipe, and only these:
//
//   - the ports 8080–8089 and 9090–9099 become free ports of the machine
//     (each its own), and SIGNALS_ADDR is set to the one that stands for
//     8080, so that recipes never need a fixed port to be free;
//   - "go run ./cmd/signals" becomes "signals", the binary built once;
//   - "sig_..." becomes the API key that a "serve --demo" of the page
//     printed.
//
// An HTML comment on the line just above a fence tells the runner more:
//
//	<!-- recipe: background -->      a service: run it in the background, wait
//	                                 until the ports it names (else SIGNALS_ADDR)
//	                                 accept connections, stop it after the page
//	<!-- recipe: stop -->            stop the page's background blocks first
//	<!-- recipe: source tree -->     run in the repository, with GOBIN in the
//	                                 temporary folder (go build, go install)
//	<!-- recipe: file NAME -->       on a block that is not shell: write it to
//	                                 NAME in the temporary folder (its sig_...
//	                                 filled in where the block stands)
//	<!-- recipe: benchmark -->       not run (minutes long, and its figures are
//	                                 the page's); checked instead: each -bench
//	                                 pattern names a benchmark of its package
//	                                 and each script exists
//	<!-- recipe: skip: REASON -->    not run, for the reason given, logged
//
// A page that holds <!-- recipes: postgres --> runs with SIGNALS_DATABASE
// set to a new, empty database on the server named by SIGNALS_TEST_POSTGRES;
// <!-- recipes: needs caddy --> names commands a page needs, each with the
// least version it needs where that matters (needs node>=22.19). Without them
// the page is skipped, except under CI, where it fails.
package recipes

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"signals/internal/store/postgres/pgtest"
)

// repo is the repository's root, seen from this package's folder.
const repo = "../.."

// A block is one fenced block of a page.
type block struct {
	line int    // of the opening fence, 1-based
	info string // the fence's info string
	note string // the recipe annotation above it, "" when none
	text string
}

// shell reports whether the block is a shell recipe.
func (b block) shell() bool {
	switch b.info {
	case "sh", "bash", "shell", "console":
		return true
	}
	return false
}

// A page is one Markdown file and what it asks of the runner.
type page struct {
	path     string // relative to the repository
	blocks   []block
	postgres bool
	needs    []string
}

var (
	fence       = regexp.MustCompile("^(```+|~~~+)\\s*([A-Za-z0-9_+-]*)")
	blockNote   = regexp.MustCompile(`^<!-- recipe: (.*?) -->$`)
	pageNote    = regexp.MustCompile(`<!-- recipes: (.*?) -->`)
	docPort     = regexp.MustCompile(`\b(808[0-9]|909[0-9])\b`)
	goRunServer = regexp.MustCompile(`\bgo run \./cmd/signals\b`)
	demoKey     = regexp.MustCompile(`\bsig_\.\.\.`)
)

// parse reads the fenced blocks of one page.
func parse(path, text string) (page, error) {
	p := page{path: path}
	for _, m := range pageNote.FindAllStringSubmatch(text, -1) {
		for _, w := range strings.Split(m[1], ",") {
			w = strings.TrimSpace(w)
			switch {
			case w == "postgres":
				p.postgres = true
			case strings.HasPrefix(w, "needs "):
				p.needs = append(p.needs, strings.Fields(strings.TrimPrefix(w, "needs "))...)
			default:
				return p, fmt.Errorf("%s: unknown page note %q", path, w)
			}
		}
	}
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		m := fence.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		b := block{line: i + 1, info: m[2]}
		if i > 0 {
			if n := blockNote.FindStringSubmatch(lines[i-1]); n != nil {
				b.note = n[1]
			}
		}
		var body []string
		i++
		for ; i < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[i]), m[1]); i++ {
			body = append(body, lines[i])
		}
		if i == len(lines) {
			return p, fmt.Errorf("%s:%d: the fence is never closed", path, b.line)
		}
		b.text = strings.Join(body, "\n") + "\n"
		switch {
		case slices.Contains([]string{"zsh", "shell-session", "sh-session", "bash-session", "terminal", "shellsession"}, b.info):
			return p, fmt.Errorf("%s:%d: a %q block would not run: write it as sh, bash or console", path, b.line, b.info)
		case b.info == "" && strings.HasPrefix(b.text, "$ "):
			return p, fmt.Errorf("%s:%d: a block of commands without an info string would not run: write it as console", path, b.line)
		}
		p.blocks = append(p.blocks, b)
	}
	return p, nil
}

// pages reads README.md and the Markdown files under docs/.
func pages(t *testing.T) []page {
	t.Helper()
	paths := []string{filepath.Join(repo, "README.md")}
	err := filepath.WalkDir(filepath.Join(repo, "docs"), func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".md") {
			paths = append(paths, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var ps []page
	for _, path := range paths {
		text, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(repo, path)
		p, err := parse(filepath.ToSlash(rel), string(text))
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	return ps
}

// required reports whether what a page needs must be there: under CI,
// every recipe runs.
func required() bool { return os.Getenv("CI") != "" }

func TestRecipes(t *testing.T) {
	if testing.Short() {
		t.Skip("the recipes start services; skipped with -short")
	}
	bin := buildSignals(t)
	var ran atomic.Int64
	// The pages share nothing (each has its folder, ports and database),
	// so they run side by side.
	t.Run("pages", func(t *testing.T) {
		for _, p := range pages(t) {
			t.Run(strings.TrimSuffix(p.path, ".md"), func(t *testing.T) {
				t.Parallel()
				ran.Add(int64(runPage(t, p, bin)))
			})
		}
	})
	t.Logf("%d shell recipes ran", ran.Load())
}

// buildSignals builds the binary every recipe runs, once.
func buildSignals(t *testing.T) string {
	t.Helper()
	bin := t.TempDir()
	cmd := exec.Command("go", "build", "-o", filepath.Join(bin, "signals"), "./cmd/signals")
	cmd.Dir = repo
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// runPage runs the shell recipes of one page and returns how many ran.
func runPage(t *testing.T, p page, bin string) int {
	dir := t.TempDir()
	state := filepath.Join(dir, ".recipe")
	if err := os.Mkdir(state, 0o755); err != nil {
		t.Fatal(err)
	}
	env := recipeEnv(bin, state)
	if p.postgres {
		env = append(env, "SIGNALS_DATABASE="+database(t))
	}
	for _, c := range p.needs {
		if err := have(c); err != nil {
			if required() {
				t.Fatalf("%s needs %s, and CI runs every recipe: %v", p.path, c, err)
			}
			t.Skipf("%s needs %s, which is not installed", p.path, c)
		}
	}
	ports, err := freePorts(p)
	if err != nil {
		t.Fatal(err)
	}
	env = append(env, "SIGNALS_ADDR=:"+ports["8080"])

	script, ran, usesRepo := scriptOf(t, p, ports, dir, state)
	if ran == 0 {
		return 0
	}
	if usesRepo {
		keepBuiltBinary(t)
	}
	scriptPath := filepath.Join(state, "page.sh")
	if err := os.WriteFile(scriptPath, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(state, "page.log")
	err = runScript(scriptPath, logPath, dir, env, state)
	out, _ := os.ReadFile(logPath)
	if err != nil {
		t.Fatalf("%s: %v\n%s%s", p.path, err, out, backgroundLogs(state))
	}
	if testing.Verbose() {
		t.Logf("%s:\n%s", p.path, out)
	}
	return ran
}

// recipeEnv is the environment of a page's script: the caller's, without
// any SIGNALS_ setting of its own, with the built binary first on PATH and
// the XDG folders (where a proxy keeps its state) in the temporary folder.
func recipeEnv(bin, state string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "SIGNALS_") || k == "PATH" || k == "GOBIN" ||
			k == "XDG_CONFIG_HOME" || k == "XDG_DATA_HOME" {
			continue
		}
		env = append(env, kv)
	}
	return append(env,
		"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"XDG_CONFIG_HOME="+filepath.Join(state, "config"),
		"XDG_DATA_HOME="+filepath.Join(state, "data"))
}

// database creates a new database on the test server for one page and
// returns its URL; it is dropped when the page is done.
func database(t *testing.T) string {
	t.Helper()
	return pgtest.FreshDatabase(t)
}

// freePorts gives each documentation port of a page's recipes, and 8080
// in any case, a free port of the machine that no other page was given.
//
// A recipe's server binds its port some time after the port was chosen, so
// the port is not held meanwhile. It is therefore drawn below the kernel's
// ephemeral range (where nothing that binds port 0, as every other test
// does, is given a port) and remembered, so that no two pages share one.
func freePorts(p page) (map[string]string, error) {
	ports := map[string]string{"8080": ""}
	for _, b := range p.blocks {
		for _, m := range docPort.FindAllString(b.text, -1) {
			ports[m] = ""
		}
	}
	low := ephemeralLow()
	givenMu.Lock()
	defer givenMu.Unlock()
	for k := range ports {
		for tries := 0; ports[k] == ""; tries++ {
			if tries == 1000 {
				return nil, errors.New("no free port below the ephemeral range")
			}
			port := 10000 + rand.IntN(low-10000)
			if given[port] {
				continue
			}
			l, err := net.Listen("tcp", ":"+strconv.Itoa(port))
			if err != nil {
				continue
			}
			l.Close()
			given[port] = true
			ports[k] = strconv.Itoa(port)
		}
	}
	return ports, nil
}

var (
	givenMu sync.Mutex
	given   = map[int]bool{} // ports handed to a page already
)

// ephemeralLow is the first port of the kernel's ephemeral range, the
// ports it gives to a bind of port 0 (Linux's default when unreadable).
func ephemeralLow() int {
	low := 32768
	if b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range"); err == nil {
		if f := strings.Fields(string(b)); len(f) == 2 {
			if n, err := strconv.Atoi(f[0]); err == nil && n > 11000 {
				low = n
			}
		}
	}
	return low
}

// have checks one need of a page: a command on PATH, or "name>=version",
// a command whose --version prints at least that version (node>=22.19:
// "v22.23.3").
func have(need string) error {
	name, least, versioned := strings.Cut(need, ">=")
	path, err := exec.LookPath(name)
	if err != nil || !versioned {
		return err
	}
	out, err := exec.Command(path, "--version").Output()
	if err != nil {
		return err
	}
	got := strings.TrimPrefix(strings.TrimSpace(string(out)), "v")
	if compareVersions(got, least) < 0 {
		return fmt.Errorf("%s is version %s, older than %s", name, got, least)
	}
	return nil
}

// compareVersions compares dotted numeric versions, as strings.Compare
// does strings.
func compareVersions(a, b string) int {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := range max(len(as), len(bs)) {
		var x, y int
		if i < len(as) {
			x, _ = strconv.Atoi(as[i])
		}
		if i < len(bs) {
			y, _ = strconv.Atoi(bs[i])
		}
		if x != y {
			return x - y
		}
	}
	return 0
}

// rewrite makes the runner's three changes to a recipe.
func rewrite(text string, ports map[string]string) string {
	text = docPort.ReplaceAllStringFunc(text, func(p string) string { return ports[p] })
	text = goRunServer.ReplaceAllString(text, "signals")
	return demoKey.ReplaceAllString(text, "$(recipe_key)")
}

// scriptOf writes the bash script that runs a page's recipes in order. It
// returns how many shell recipes it runs and whether one runs in the
// repository.
func scriptOf(t *testing.T, p page, ports map[string]string, dir, state string) (string, int, bool) {
	t.Helper()
	root, err := filepath.Abs(repo)
	if err != nil {
		t.Fatal(err)
	}
	var s strings.Builder
	fmt.Fprintf(&s, "R=%s\nREPO=%s\n%s", quote(state), quote(root), prelude)
	ran, usesRepo := 0, false
	for i, b := range p.blocks {
		where := fmt.Sprintf("%s:%d", p.path, b.line)
		note, arg, _ := strings.Cut(b.note, " ")
		if !b.shell() {
			switch {
			case note == "file" && arg != "":
				path := filepath.Join(dir, filepath.FromSlash(arg))
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(rewrite(b.text, ports)), 0o644); err != nil {
					t.Fatal(err)
				}
				if demoKey.MatchString(b.text) {
					// The key is known once the page's serve --demo has
					// printed it: filled in at this point of the page.
					fmt.Fprintf(&s, "\nrecipe_fill_key %s\n", quote(path))
				}
			case b.note != "":
				t.Errorf("%s: %q is for shell recipes; a %q block takes only file NAME", where, b.note, b.info)
			}
			continue
		}
		text := rewrite(b.text, ports)
		if b.info == "console" {
			text = consoleScript(t, where, text, state, i)
		}
		switch {
		case b.note == "":
		case note == "skip:" && strings.TrimSpace(arg) != "":
			t.Logf("%s not run: %s", where, arg)
			continue
		case b.note == "benchmark":
			checkBenchmark(t, where, b.text)
			continue
		case b.note == "background", b.note == "stop", b.note == "source tree":
		default:
			t.Errorf("%s: unknown recipe note %q", where, b.note)
			continue
		}
		ran++
		fmt.Fprintf(&s, "\necho %s\" (at ${SECONDS}s)\" >&2\n", quote("## "+where))
		switch b.note {
		case "background":
			bg := filepath.Join(state, fmt.Sprintf("bg-%d.sh", i))
			if err := os.WriteFile(bg, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			var wait []string
			for _, m := range docPort.FindAllString(b.text, -1) {
				if !slices.Contains(wait, ports[m]) {
					wait = append(wait, ports[m])
				}
			}
			if len(wait) == 0 {
				wait = []string{ports["8080"]}
			}
			fmt.Fprintf(&s, "recipe_background %d %s %s\n", i, quote(where), strings.Join(wait, " "))
		case "stop":
			fmt.Fprintf(&s, "recipe_stop\n%s", text)
		case "source tree":
			usesRepo = true
			fmt.Fprintf(&s, "cd \"$REPO\"\nexport GOBIN=\"$R/gobin\"\n%s\nunset GOBIN\ncd %s\n", text, quote(dir))
		default:
			s.WriteString(text)
		}
	}
	return s.String(), ran, usesRepo
}

// consoleScript turns a console block into commands whose stdout is
// compared with the lines shown under them.
func consoleScript(t *testing.T, where, text, state string, i int) string {
	t.Helper()
	var s strings.Builder
	var cmd, want []string
	n := 0
	flush := func() {
		if cmd == nil {
			return
		}
		wantPath := filepath.Join(state, fmt.Sprintf("want-%d-%d", i, n))
		out := strings.Join(want, "\n")
		if out != "" {
			out += "\n"
		}
		if err := os.WriteFile(wantPath, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&s, "{\n%s\n} > \"$R/got\"\nrecipe_expect %s %s\n", strings.Join(cmd, "\n"), quote(wantPath), quote(where))
		cmd, want = nil, nil
		n++
	}
	continued := false
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		switch {
		case continued:
			cmd = append(cmd, strings.TrimPrefix(line, "> "))
		case strings.HasPrefix(line, "$ "):
			flush()
			cmd = []string{strings.TrimPrefix(line, "$ ")}
		case cmd == nil:
			t.Errorf("%s: a console block starts with a command, \"$ \"", where)
		default:
			want = append(want, line)
		}
		continued = strings.HasSuffix(line, "\\")
	}
	flush()
	return s.String()
}

// prelude holds the functions the page scripts call.
const prelude = `set -eo pipefail
mkdir -p "$R/gobin" "$R/config" "$R/data"
: > "$R/pids"

# recipe_background N WHERE PORT...: runs block N in the background, in a
# process group of its own, and waits until its ports accept connections.
recipe_background() {
	local n=$1 where=$2 pid
	shift 2
	set -m
	( . "$R/bg-$n.sh" ) > "$R/bg-$n.log" 2>&1 &
	pid=$!
	set +m
	echo "$pid" >> "$R/pids"
	for port in "$@"; do
		for _ in $(seq 600); do
			if (: < "/dev/tcp/127.0.0.1/$port") 2>/dev/null; then continue 2; fi
			if ! kill -0 "$pid" 2>/dev/null; then
				echo "$where: the background recipe ended before port $port accepted connections" >&2
				return 1
			fi
			sleep 0.1
		done
		echo "$where: port $port accepted no connection within 60s" >&2
		return 1
	done
	# serve binds its port before it opens the database, so that a busy
	# port stops it first: it serves once it has logged msg=serving, once
	# for each serve the block starts.
	local serves
	serves=$( (grep -o 'signals serve' "$R/bg-$n.sh" || true) | wc -l)
	for _ in $(seq 600); do
		[ "$(grep -c 'msg=serving ' "$R/bg-$n.log" 2>/dev/null || true)" -ge "$serves" ] && return 0
		if ! kill -0 "$pid" 2>/dev/null; then
			echo "$where: the background recipe ended before serving" >&2
			return 1
		fi
		sleep 0.1
	done
	echo "$where: $serves serve(s) did not log msg=serving within 60s" >&2
	return 1
}

# recipe_stop stops the page's background blocks, as a reader stops a service.
recipe_stop() {
	local pid
	while read -r pid; do
		kill -TERM -- "-$pid" 2>/dev/null || continue
		for _ in $(seq 150); do
			kill -0 -- "-$pid" 2>/dev/null || continue 2
			sleep 0.1
		done
		kill -KILL -- "-$pid" 2>/dev/null || true
	done < "$R/pids"
	: > "$R/pids"
}

# recipe_key prints the key a background serve --demo printed.
recipe_key() {
	local key
	for _ in $(seq 300); do
		key=$(cat "$R"/bg-*.log 2>/dev/null | grep -E -m1 '^sig_[A-Za-z0-9_-]+$' || true)
		if [ -n "$key" ]; then echo "$key"; return; fi
		sleep 0.1
	done
	echo "no background serve --demo printed a key" >&2
	return 1
}

# recipe_fill_key FILE puts that key where a file recipe showed sig_... .
recipe_fill_key() {
	local key
	key=$(recipe_key)
	sed -i "s/\\\$(recipe_key)/$key/g" "$1"
}

# recipe_expect WANT WHERE compares the last command's stdout with WANT.
recipe_expect() {
	if ! diff -u --label want --label got "$1" "$R/got" >&2; then
		echo "$2: the output differs from the page's (-want +got)" >&2
		return 1
	fi
}
`

// quote returns s as one bash word.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// runScript runs a page's script in its own process group and then ends
// every process it left, its background services included.
func runScript(script, logPath, dir string, env []string, state string) error {
	log, err := os.Create(logPath)
	if err != nil {
		return err
	}
	defer log.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", script)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = dir, env, log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	runErr := cmd.Run()
	groups := []int{cmd.Process.Pid}
	if f, err := os.Open(filepath.Join(state, "pids")); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if pid, err := strconv.Atoi(sc.Text()); err == nil {
				groups = append(groups, pid)
			}
		}
		f.Close()
	}
	stopGroups(groups)
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("the recipes took more than 5 minutes")
	}
	return runErr
}

// stopGroups ends process groups: politely, then not.
func stopGroups(groups []int) {
	for _, g := range groups {
		syscall.Kill(-g, syscall.SIGTERM)
	}
	deadline := time.Now().Add(15 * time.Second)
	for _, g := range groups {
		for syscall.Kill(-g, 0) == nil && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
		syscall.Kill(-g, syscall.SIGKILL)
	}
}

// backgroundLogs returns what the background blocks of a page printed.
func backgroundLogs(state string) string {
	logs, _ := filepath.Glob(filepath.Join(state, "bg-*.log"))
	var s strings.Builder
	for _, l := range logs {
		b, _ := os.ReadFile(l)
		fmt.Fprintf(&s, "\n--- %s:\n%s", filepath.Base(l), b)
	}
	return s.String()
}

// keepBuiltBinary sets aside a ./signals the repository holds before a
// recipe builds one there, and puts it back afterwards.
func keepBuiltBinary(t *testing.T) {
	t.Helper()
	built := filepath.Join(repo, "signals")
	kept := filepath.Join(t.TempDir(), "signals")
	if err := os.Rename(built, kept); err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		os.Remove(built)
		if _, err := os.Stat(kept); err == nil {
			if err := os.Rename(kept, built); err != nil {
				t.Error(err)
			}
		}
	})
}

var (
	benchFlag  = regexp.MustCompile(`-bench[= ]'?([^' ]+)'?`)
	goPackage  = regexp.MustCompile(`\s(\./[^\s]*)/?\s*(?:#|$)`)
	benchFunc  = regexp.MustCompile(`(?m)^func (Benchmark\w+)\(`)
	scriptPath = regexp.MustCompile(`\bbash (scripts/[\w./-]+)`)
)

// checkBenchmark checks a benchmark recipe without running it: each
// -bench pattern names at least one benchmark of its package, and each
// script exists.
func checkBenchmark(t *testing.T, where, text string) {
	t.Helper()
	for _, line := range strings.Split(text, "\n") {
		if m := scriptPath.FindStringSubmatch(line); m != nil {
			if _, err := os.Stat(filepath.Join(repo, m[1])); err != nil {
				t.Errorf("%s: %v", where, err)
			}
		}
		bm, pm := benchFlag.FindStringSubmatch(line), goPackage.FindStringSubmatch(line)
		if bm == nil || pm == nil {
			continue
		}
		var names []string
		files, _ := filepath.Glob(filepath.Join(repo, pm[1], "*_test.go"))
		for _, f := range files {
			src, _ := os.ReadFile(f)
			for _, m := range benchFunc.FindAllStringSubmatch(string(src), -1) {
				names = append(names, m[1])
			}
		}
		// Each alternative of the top level (before any "/" of a
		// sub-benchmark) must name a benchmark.
		top := strings.Split(bm[1], "/")[0]
		for _, alt := range strings.Split(top, "|") {
			pattern, err := regexp.Compile(alt)
			if err != nil {
				t.Errorf("%s: -bench %s: %v", where, bm[1], err)
				continue
			}
			if !slices.ContainsFunc(names, pattern.MatchString) {
				t.Errorf("%s: -bench %s: %q names no benchmark of %s", where, bm[1], alt, pm[1])
			}
		}
	}
}

func TestParse(t *testing.T) {
	p, err := parse("x.md", "<!-- recipes: postgres, needs caddy jq -->\n\n"+
		"<!-- recipe: background -->\n```sh\nsignals serve\n```\n\n"+
		"<!-- recipe: file a/b.json -->\n```json\n{}\n```\n\n"+
		"```console\n$ echo 8081 \\\n>   sig_...\n8081 sig_...\n```\n")
	if err != nil {
		t.Fatal(err)
	}
	if !p.postgres || !slices.Equal(p.needs, []string{"caddy", "jq"}) {
		t.Errorf("page notes: postgres %v, needs %q", p.postgres, p.needs)
	}
	var got []string
	for _, b := range p.blocks {
		got = append(got, fmt.Sprintf("%d %s %q %v", b.line, b.info, b.note, b.shell()))
	}
	want := []string{`4 sh "background" true`, `9 json "file a/b.json" false`, `13 console "" true`}
	if !slices.Equal(got, want) {
		t.Errorf("blocks\n%q\nwant\n%q", got, want)
	}
	ports := map[string]string{"8080": "40001", "8081": "40002"}
	if got, want := rewrite(p.blocks[2].text, ports), "$ echo 40002 \\\n>   $(recipe_key)\n40002 $(recipe_key)\n"; got != want {
		t.Errorf("rewrite: %q, want %q", got, want)
	}
	if got := rewrite("go run ./cmd/signals serve --demo\n", ports); got != "signals serve --demo\n" {
		t.Errorf("rewrite: %q", got)
	}
}

func TestParseRefuses(t *testing.T) {
	for name, text := range map[string]string{
		"unclosed fence":       "```sh\necho\n",
		"unknown page note":    "<!-- recipes: sqlite -->\n",
		"a shell it won't run": "```zsh\necho\n```\n",
		"commands untyped":     "```\n$ echo\n```\n",
	} {
		if _, err := parse("x.md", text); err == nil {
			t.Errorf("%s: parsed", name)
		}
	}
}

// A page's script fails when a command fails, when a console block's
// output differs, and when a background block ends before its port opens.
func TestScriptFails(t *testing.T) {
	for name, c := range map[string]struct {
		text string
		fail bool
	}{
		"passes":         {"```sh\nx=1\n```\n\n```console\n$ echo $x\n1\n$ true\n```\n", false},
		"command fails":  {"```sh\nfalse\necho after\n```\n", true},
		"output differs": {"```console\n$ echo 1\n2\n```\n", true},
		"output unshown": {"```console\n$ echo 1\n```\n", true},
		"service ends":   {"<!-- recipe: background -->\n```sh\ntrue\n```\n", true},
	} {
		t.Run(name, func(t *testing.T) {
			p, err := parse("x.md", c.text)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			state := filepath.Join(dir, ".recipe")
			if err := os.Mkdir(state, 0o755); err != nil {
				t.Fatal(err)
			}
			ports, err := freePorts(p)
			if err != nil {
				t.Fatal(err)
			}
			script, _, _ := scriptOf(t, p, ports, dir, state)
			path := filepath.Join(state, "page.sh")
			if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
				t.Fatal(err)
			}
			err = runScript(path, filepath.Join(state, "page.log"), dir, os.Environ(), state)
			if (err != nil) != c.fail {
				out, _ := os.ReadFile(filepath.Join(state, "page.log"))
				t.Errorf("error %v, want failure %v\n%s", err, c.fail, out)
			}
		})
	}
}

// TestHave checks the needs of a page: a command, and a command at least
// at a version.
func TestHave(t *testing.T) {
	for _, c := range []struct {
		a, b string
		sign int
	}{{"22.23.3", "22.19", 1}, {"20.20.2", "22.19", -1}, {"22.19", "22.19.0", 0}, {"3.10", "3.9", 1}} {
		if got := compareVersions(c.a, c.b); (got > 0) != (c.sign > 0) || (got < 0) != (c.sign < 0) {
			t.Errorf("compareVersions(%s, %s) = %d", c.a, c.b, got)
		}
	}
	if err := have("bash"); err != nil {
		t.Error(err)
	}
	if err := have("no-such-command-here"); err == nil {
		t.Error("a missing command is had")
	}
}
