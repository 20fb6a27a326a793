package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"signals/internal/store/postgres/pgtest"
)

// buildWith builds the signals command with link-time settings, as a
// release sets its version.
func buildWith(t *testing.T, name string, ldflags ...string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), name)
	var x []string
	for _, f := range ldflags {
		x = append(x, "-X", f)
	}
	if b, err := exec.Command("go", "build", "-ldflags", strings.Join(x, " "), "-o", out, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", name, err, b)
	}
	return out
}

// An older build refuses a database that a newer build migrated, from
// both migrate and serve, naming both builds and what to do, and changes
// nothing; the newer build goes on as before. The older build is this
// source built as it was before the migrations after 0009 were written.
func TestOlderBuildRefusesNewerSchema(t *testing.T) {
	newer := buildWith(t, "signals-newer", "signals/internal/build.version=v2.0.0", "signals/internal/build.commit=c2")
	older := buildWith(t, "signals-older", "signals/internal/build.version=v1.0.0", "signals/internal/build.commit=c1",
		"signals/internal/store/sqlstore.lastMigration=0009")
	run := func(bin, db string, args ...string) (string, error) {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "SIGNALS_DATABASE="+db, "SIGNALS_BASE_URL=http://signals.test", "SIGNALS_ADDR=127.0.0.1:0",
			"SIGNALS_OUTBOX="+t.TempDir())
		// A serve that did not refuse would run on: stopped, it fails the
		// test below by what it printed.
		timer := time.AfterFunc(30*time.Second, func() { cmd.Process.Kill() })
		defer timer.Stop()
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	databases := map[string]string{"sqlite": filepath.Join(t.TempDir(), "signals.db")}
	switch {
	case os.Getenv(pgtest.EnvURL) != "":
		databases["postgresql"] = pgtest.FreshSchema(t)
	case os.Getenv("CI") != "":
		t.Fatal(pgtest.EnvURL + " is not set, and CI requires the PostgreSQL half of this test")
	default:
		t.Log(pgtest.EnvURL + " unset: SQLite only")
	}
	for engine, db := range databases {
		t.Run(engine, func(t *testing.T) {
			if out, err := run(newer, db, "migrate"); err != nil || !strings.Contains(out, "applied migration") {
				t.Fatalf("the newer build's migrate: %v\n%s", err, out)
			}
			v, err := run(older, db, "version")
			if err != nil || !strings.Contains(v, "signals v1.0.0\ncommit c1\n") {
				t.Fatalf("version: %v\n%s", err, v)
			}
			for _, cmd := range []string{"migrate", "serve"} {
				out, err := run(older, db, cmd)
				if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() != 1 {
					t.Errorf("the older build's %s: %v, want exit status 1\n%s", cmd, err, out)
				}
				for _, want := range []string{"migrated by signals v2.0.0 (commit c2,", "this build, signals v1.0.0 (commit c1,",
					"Nothing was changed", "Run that newer build", "restore a backup"} {
					if !strings.Contains(out, want) {
						t.Errorf("the older build's %s does not say %q:\n%s", cmd, want, out)
					}
				}
				if strings.Contains(out, "msg=serving") || strings.Contains(out, "applied migration") {
					t.Errorf("the older build's %s ran:\n%s", cmd, out)
				}
			}
			if out, err := run(newer, db, "migrate"); err != nil || !strings.Contains(out, "schema is up to date") {
				t.Errorf("the newer build after the refusals: %v\n%s", err, out)
			}
		})
	}
}
