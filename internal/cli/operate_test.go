package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"signals/internal/store/postgres/pgtest"
)

func TestLogSettings(t *testing.T) {
	db := filepath.Join(t.TempDir(), "l.db")
	for _, tt := range []struct {
		name string
		env  map[string]string
		says string
	}{
		{"unknown level", map[string]string{"SIGNALS_LOG_LEVEL": "loud"}, "$SIGNALS_LOG_LEVEL"},
		{"unknown format", map[string]string{"SIGNALS_LOG_FORMAT": "xml"}, "$SIGNALS_LOG_FORMAT"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, errs, code := runCLI(t, tt.env, "", "serve", "--addr", "127.0.0.1:0", "--database", db)
			if code != 2 || !strings.Contains(errs, tt.says) {
				t.Errorf("exit %d, want 2; stderr:\n%s\nwant it to say %q", code, errs, tt.says)
			}
		})
	}
}

// TestBackupAndRestoreWithoutServe: with no serve running, backup copies
// the file itself and restore replaces a database by the copy.
func TestBackupAndRestoreWithoutServe(t *testing.T) {
	dir := t.TempDir()
	db, copyFile, other := filepath.Join(dir, "a.db"), filepath.Join(dir, "copy.db"), filepath.Join(dir, "b.db")
	if _, errs, code := runCLI(t, nil, "", "accounts", "create", "--email", "ops@example.com", "--database", db); code != 0 {
		t.Fatalf("accounts create: %s", errs)
	}
	if _, errs, code := runCLI(t, nil, "", "backup", copyFile, "--database", db); code != 0 || strings.Contains(errs, "did not answer") {
		t.Fatalf("backup: exit %d\n%s", code, errs)
	}
	if _, errs, code := runCLI(t, nil, "", "backup", copyFile, "--database", db); code != 1 || !strings.Contains(errs, "exists") {
		t.Errorf("backup over an existing file: exit %d\n%s", code, errs)
	}
	if _, errs, code := runCLI(t, nil, "", "restore", copyFile, "--database", other); code != 0 {
		t.Fatalf("restore: exit %d\n%s", code, errs)
	}
	if out, errs, code := runCLI(t, nil, "", "keys", "create", "--email", "ops@example.com", "--database", other); code != 0 || !strings.HasPrefix(out, "sig_") {
		t.Errorf("the restored database lacks the account: exit %d\n%s%s", code, out, errs)
	}
	if _, errs, code := runCLI(t, nil, "", "backup", copyFile+"2", "--database", "postgres://localhost/x"); code != 1 || !strings.Contains(errs, "pg_dump") {
		t.Errorf("backup of PostgreSQL: exit %d\n%s", code, errs)
	}
}

// migrate names each migration it applies, and says the schema is up to
// date only when it applied none, on both engines.
func TestMigrate(t *testing.T) {
	for _, engine := range []struct {
		name     string
		database func(t *testing.T) string
	}{
		{"SQLite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "migrate.db") }},
		{"PostgreSQL", func(t *testing.T) string { return pgtest.FreshSchema(t) }},
	} {
		t.Run(engine.name, func(t *testing.T) {
			env := map[string]string{"SIGNALS_DATABASE": engine.database(t)}
			out, errs, code := runCLI(t, env, "", "migrate")
			lines := strings.Split(strings.TrimSuffix(errs, "\n"), "\n")
			if code != 0 || out != "" || len(lines) < 2 || lines[0] != "applied migration 0001_init" {
				t.Fatalf("migrate on an empty database: exit %d, stdout %q, stderr:\n%s\nwant a line per migration, from 0001_init", code, out, errs)
			}
			for i, line := range lines {
				version, ok := strings.CutPrefix(line, "applied migration ")
				if !ok || i > 0 && version <= strings.TrimPrefix(lines[i-1], "applied migration ") {
					t.Errorf("line %d %q: want applied migration and a version after the line before's", i+1, line)
				}
			}
			if out, errs, code := runCLI(t, env, "", "migrate"); code != 0 || out != "" || errs != "schema is up to date\n" {
				t.Errorf("migrate again: exit %d, stdout %q, stderr %q; want only that the schema is up to date", code, out, errs)
			}
		})
	}
}
