package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestHubsCommands(t *testing.T) {
	db := filepath.Join(t.TempDir(), "hubs.db")
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"add", []string{"hubs", "add", "canada-funding", "--title", "Funding in Canada", "--filter", "country=canada&tags=funding,job"}, 0, "", "added hub canada-funding"},
		{"add again", []string{"hubs", "add", "canada-funding", "--title", "T", "--filter", "tags=job"}, 1, "", "exists"},
		{"bad filter value", []string{"hubs", "add", "x", "--title", "T", "--filter", "tags=fundng"}, 2, "", "--filter: tags must be one of: job, funding"},
		{"unknown filter parameter", []string{"hubs", "add", "x", "--title", "T", "--filter", "tags=job&page=2"}, 2, "", "--filter: page is not a parameter"},
		{"bad slug", []string{"hubs", "add", "Not/A/Slug", "--title", "T", "--filter", "tags=job"}, 2, "", "SLUG must be"},
		{"no title", []string{"hubs", "add", "x", "--filter", "tags=job"}, 2, "", "--title is required"},
		{"list", []string{"hubs", "list"}, 0, "canada-funding  Funding in Canada  tags=funding,job&country=canada", ""},
		{"remove", []string{"hubs", "remove", "canada-funding"}, 0, "", "removed hub canada-funding"},
		{"remove again", []string{"hubs", "remove", "canada-funding"}, 1, "", "no hub"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errs, code := runCLI(t, nil, "", append(tt.args, "--database", db)...)
			if code != tt.code || !strings.Contains(out, tt.stdout) || !strings.Contains(errs, tt.stderr) {
				t.Errorf("exit %d (want %d)\nstdout %q (want %q)\nstderr %q (want %q)", code, tt.code, out, tt.stdout, errs, tt.stderr)
			}
		})
	}
}

func TestArticlesImport(t *testing.T) {
	db := filepath.Join(t.TempDir(), "articles.db")
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("one.md", "---\ntitle: One\nslug: one\npublished_at: 2026-03-02\n---\nFirst.\n")
	write("two.md", "---\ntitle: Two\nslug: two\n---\nSecond.\n")
	_, errs, code := runCLI(t, nil, "", "articles", "import", dir, "--database", db)
	if code != 1 || !strings.Contains(errs, "two.md: published_at: is required") || !strings.Contains(errs, "nothing was imported") {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	write("two.md", "---\ntitle: Two\nslug: two\npublished_at: 2026-03-03\n---\nSecond.\n")
	if _, errs, code := runCLI(t, nil, "", "articles", "import", dir, "--database", db); code != 0 || !strings.Contains(errs, "imported 2 articles") {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	if _, errs, code := runCLI(t, nil, "", "articles", "import", filepath.Join(dir, "one.md"), "--database", db); code != 2 || !strings.Contains(errs, "is not a folder") {
		t.Errorf("a file instead of a folder: exit %d\n%s", code, errs)
	}
}
