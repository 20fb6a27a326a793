// Package deploy checks the deployment kit of deploy/: the systemd units
// with systemd-analyze, the Caddyfile with caddy, the container file with
// a build where a container engine runs (else with hadolint), and that the
// environment file lists every setting. Without the tools a check skips,
// except under CI=true, where it fails.
package deploy

import (
	"bytes"
	"context"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// repo is the repository's root, seen from this package's folder.
const repo = "../.."

// tool finds a command, or skips (fails under CI) without it.
func tool(t *testing.T, name, install string) string {
	t.Helper()
	if path, err := exec.LookPath(name); err == nil {
		return path
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s is not installed (%s), and CI checks the deployment kit", name, install)
	}
	t.Skipf("%s is not installed (%s)", name, install)
	return ""
}

func run(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// The units verify as systemd reads them, and the service's exposure
// (systemd-analyze security) stays at most 2.0 of 10. verify needs the
// binary the unit starts: where /usr/local/bin/signals is missing, the
// units are checked with that path pointing at a build of this tree.
func TestSystemdUnits(t *testing.T) {
	analyze := tool(t, "systemd-analyze", "apt-get install systemd")
	dir := t.TempDir()
	bin := "/usr/local/bin/signals"
	if _, err := os.Stat(bin); err != nil {
		bin = filepath.Join(dir, "signals")
		run(t, repo, "go", "build", "-o", bin, "./cmd/signals")
	}
	var units []string
	for _, name := range []string{"signals.service", "signals-backup.service", "signals-backup.timer"} {
		b, err := os.ReadFile(filepath.Join(repo, "deploy", name))
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, bytes.ReplaceAll(b, []byte("/usr/local/bin/signals"), []byte(bin)), 0o644); err != nil {
			t.Fatal(err)
		}
		units = append(units, path)
	}
	run(t, dir, analyze, append([]string{"verify"}, units...)...)
	// The threshold is in tenths: 20 is an exposure of 2.0.
	out := run(t, dir, analyze, "security", "--offline=true", "--threshold=20", units[0])
	t.Log(out[strings.LastIndex(out, "\n→")+1:])
}

// caddy validate takes the Caddyfile.
func TestCaddyfile(t *testing.T) {
	caddy := tool(t, "caddy", "apt-get install caddy")
	run(t, repo, caddy, "validate", "--config", "deploy/Caddyfile", "--adapter", "caddyfile")
}

// The container file builds where a container engine runs; where none
// does, the test says so and lints it with hadolint (scripts/hadolint.sh),
// which must find nothing.
func TestContainerfile(t *testing.T) {
	if docker, err := exec.LookPath("docker"); err == nil && exec.Command(docker, "info").Run() == nil {
		run(t, repo, docker, "build", "-f", "deploy/Containerfile", "-t", "signals-test", ".")
		return
	}
	t.Log("no container engine runs here: deploy/Containerfile is linted with hadolint instead of built")
	hadolint := os.Getenv("SIGNALS_TEST_HADOLINT")
	if hadolint == "" {
		hadolint = tool(t, "hadolint", "bash scripts/hadolint.sh, then SIGNALS_TEST_HADOLINT=its path")
	}
	run(t, repo, hadolint, "--failure-threshold", "info", "deploy/Containerfile")
}

// deploy/signals.env lists every setting the service reads, each with a
// comment above it: those of docs/operating.md's settings table and
// every SIGNALS_ variable the command line reads.
func TestEnvFileListsEverySetting(t *testing.T) {
	env, err := os.ReadFile(filepath.Join(repo, "deploy", "signals.env"))
	if err != nil {
		t.Fatal(err)
	}
	settings := map[string]bool{}
	name := regexp.MustCompile(`\bSIGNALS_[A-Z][A-Z0-9_]*[A-Z0-9]\b`)
	doc, err := os.ReadFile(filepath.Join(repo, "docs", "operating.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, table, _ := strings.Cut(string(doc), "## Settings")
	table, _, _ = strings.Cut(table, "\n## ")
	for _, n := range name.FindAllString(table, -1) {
		settings[n] = true
	}
	sources, _ := filepath.Glob(filepath.Join(repo, "internal", "cli", "*.go"))
	for _, path := range sources {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range name.FindAllString(string(b), -1) {
			if !strings.HasPrefix(n, "SIGNALS_TEST_") {
				settings[n] = true
			}
		}
	}
	lines := strings.Split(string(env), "\n")
	for _, n := range slices.Sorted(maps.Keys(settings)) {
		i := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, n+"=") })
		if i < 0 {
			t.Errorf("deploy/signals.env does not set %s", n)
			continue
		}
		// A comment above it, through the other settings it is grouped with.
		j := i - 1
		for j >= 0 && name.MatchString(lines[j]) && !strings.HasPrefix(lines[j], "#") {
			j--
		}
		if j < 0 || !strings.HasPrefix(lines[j], "#") {
			t.Errorf("deploy/signals.env sets %s without a comment above it", n)
		}
	}
	if len(settings) < 20 {
		t.Errorf("only %d settings found: %v", len(settings), settings)
	}
}
