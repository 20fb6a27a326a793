package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runCLI runs one command in-process with the given environment.
func runCLI(t *testing.T, env map[string]string, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb strings.Builder
	code := Run(context.Background(), args, Env{
		Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb,
		Getenv: func(k string) string { return env[k] },
	})
	return out.String(), errb.String(), code
}

func TestUsageErrors(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	tests := []struct {
		name string
		args []string
		code int
		says string
	}{
		{"no command", nil, 2, "no command"},
		{"unknown command", []string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{"unknown subcommand", []string{"keys", "rotate"}, 2, `unknown command "keys rotate"`},
		{"help", []string{"help"}, 0, ""},
		{"flag help", []string{"import", "-h"}, 0, ""},
		{"import without a file", []string{"import", "--database", db}, 2, "takes one argument"},
		{"bad status", []string{"signals", "set-status", "x", "visible", "--database", db}, 2, "status must be"},
		{"bad market-only", []string{"signals", "set-status", "x", "public", "--market-only=maybe", "--database", db}, 2, "--market-only takes true or false"},
		{"bad email", []string{"accounts", "create", "--email", "not an email", "--database", db}, 2, "plain email address"},
		{"limits of a missing account", []string{"accounts", "set-limits", "--email", "a@example.com", "--daily-requests", "5", "--database", db}, 1, "no account"},
		{"unknown key", []string{"keys", "revoke", "key_nope", "--database", db}, 1, "no active key"},
		{"missing file", []string{"import", filepath.Join(t.TempDir(), "none.jsonl"), "--database", db}, 1, "no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errs, code := runCLI(t, nil, "", tt.args...)
			if code != tt.code || !strings.Contains(errs, tt.says) {
				t.Errorf("exit %d, want %d; stderr:\n%s\nwant it to say %q", code, tt.code, errs, tt.says)
			}
		})
	}
}

func TestEnvironmentAndInterleavedFlags(t *testing.T) {
	db := filepath.Join(t.TempDir(), "env.db")
	env := map[string]string{"SIGNALS_DATABASE": db}
	line := `{"id":"e1","tag":"job","source":"microblog","language":"en","author_name":"A","source_url":"https://example.org/1","text":"t","published_at":"2026-10-01T00:00:00Z","published_at_precision":"day","status":"public"}`
	file := filepath.Join(t.TempDir(), "in.jsonl")
	if err := os.WriteFile(file, []byte(line+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The database comes from SIGNALS_DATABASE; the flag may follow the file.
	if _, errs, code := runCLI(t, env, "", "import", file); code != 0 || !strings.Contains(errs, "imported 1 signals") {
		t.Fatalf("import: %d %s", code, errs)
	}
	other := filepath.Join(t.TempDir(), "other.db")
	if _, errs, code := runCLI(t, env, "", "import", file, "--database", other); code != 0 {
		t.Fatalf("import with the flag after the file: %d %s", code, errs)
	}
	if _, errs, code := runCLI(t, env, "", "migrate"); code != 0 || !strings.Contains(errs, "up to date") {
		t.Fatalf("migrate: %d %s", code, errs)
	}
	if _, errs, code := runCLI(t, env, "", "signals", "set-status", "e1", "hidden", "--market-only=true"); code != 0 {
		t.Fatalf("set-status: %d %s", code, errs)
	}
	if _, errs, code := runCLI(t, env, "", "accounts", "create", "--email", "lim@example.com"); code != 0 {
		t.Fatalf("accounts create: %d %s", code, errs)
	}
	if _, errs, code := runCLI(t, env, "", "accounts", "set-limits", "--email", "lim@example.com", "--daily-requests", "-5"); code != 2 || !strings.Contains(errs, "--daily-requests must be from 0") {
		t.Fatalf("a negative limit: exit %d %s; want 2", code, errs)
	}
	out, errs, code := runCLI(t, env, "", "accounts", "set-limits", "--email", "lim@example.com", "--daily-searches", "3")
	if code != 0 || !strings.Contains(out, "daily_requests=1000 minute_requests=30 daily_searches=3 concurrent_searches=1") {
		t.Fatalf("set-limits changes only what it names: %d %q %s", code, out, errs)
	}
}

func TestEvalSearchReports(t *testing.T) {
	out, errs, code := runCLI(t, nil, "", "eval-search")
	if code != 0 {
		t.Fatalf("eval-search: %d %s", code, errs)
	}
	for _, want := range []string{"builtin/", "recall at 0.85", "precision", "nDCG@10"} {
		if !strings.Contains(out, want) {
			t.Errorf("eval-search output lacks %q:\n%s", want, out)
		}
	}
}
