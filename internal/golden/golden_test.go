package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// recorder is a testing.TB that records failures instead of reporting them.
type recorder struct {
	testing.TB
	errors []string
	fatal  bool
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	r.fatal = true
	runtime.Goexit()
}

func (r *recorder) Fatal(args ...any) { r.Fatalf("%s", fmt.Sprint(args...)) }

// check runs f against a recorder, on a goroutine of its own so that Fatal
// ends f as it would end a test.
func check(t *testing.T, f func(testing.TB)) *recorder {
	t.Helper()
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	return r
}

// document is a large indented JSON-like text with one numbered line each.
func document(lines int, change func(i int, line string) string) string {
	var b strings.Builder
	for i := range lines {
		line := fmt.Sprintf(`  "field%d": "value %d",`, i, i)
		if change != nil {
			line = change(i, line)
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

func TestDiff(t *testing.T) {
	big := document(3000, nil)
	tests := []struct {
		name        string
		want, got   string
		says        []string
		shorterThan int
	}{
		{"equal", big, big, nil, 1},
		{"one line changed", big, document(3000, func(i int, l string) string {
			if i == 1500 {
				return `  "field1500": "changed",`
			}
			return l
		}), []string{`-`, `"field1500": "value 1500",`, `+`, `"field1500": "changed",`, "identical elements"}, 15},
		{"trailing space", big, document(3000, func(i int, l string) string {
			if i == 7 {
				return l + " "
			}
			return l
		}), []string{`"field7": "value 7", `}, 15},
		{"no final newline", big, strings.TrimSuffix(big, "\n"), []string{"identical elements"}, 15},
		{"every line changed", big, strings.ReplaceAll(big, "\n", "\r\n"), []string{"more lines"}, maxDiffLines + 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Diff([]byte(tt.want), []byte(tt.got))
			if (d == "") != (tt.want == tt.got) {
				t.Fatalf("Diff = %q for want == got: %v", d, tt.want == tt.got)
			}
			for _, s := range tt.says {
				if !strings.Contains(d, s) {
					t.Errorf("diff lacks %q:\n%s", s, d)
				}
			}
			if n := strings.Count(d, "\n"); n >= tt.shorterThan {
				t.Errorf("diff has %d lines, want fewer than %d:\n%s", n, tt.shorterThan, d)
			}
		})
	}
}

func TestText(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "page.html")
	body := document(2000, nil)
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}

	if r := check(t, func(tb testing.TB) { Text(tb, path, []byte(body)) }); len(r.errors) != 0 {
		t.Errorf("equal body reported: %q", r.errors)
	}

	changed := strings.Replace(body, `"value 1000"`, `"value one thousand"`, 1)
	r := check(t, func(tb testing.TB) { Text(tb, path, []byte(changed)) })
	if len(r.errors) != 1 || r.fatal {
		t.Fatalf("changed body: errors %q, fatal %v; want one error", r.errors, r.fatal)
	}
	msg := r.errors[0]
	for _, want := range []string{path, "-want +got", "-update", `"value one thousand"`} {
		if !strings.Contains(msg, want) {
			t.Errorf("report lacks %q:\n%s", want, msg)
		}
	}
	if len(msg) > 2000 {
		t.Errorf("report is %d bytes for a one-line change in %d bytes:\n%s", len(msg), len(body), msg)
	}

	r = check(t, func(tb testing.TB) { Text(tb, filepath.Join(dir, "missing.html"), []byte(body)) })
	if !r.fatal || !strings.Contains(r.errors[0], "-update writes it") {
		t.Errorf("missing file: errors %q, fatal %v", r.errors, r.fatal)
	}
}

func TestUpdateWrites(t *testing.T) {
	defer func(old bool) { *update = old }(*update)
	*update = true
	path := filepath.Join(t.TempDir(), "new", "doc.json")
	if r := check(t, func(tb testing.TB) { JSON(tb, path, []byte(`{"a":[1,2],"b":"x"}`)) }); len(r.errors) != 0 {
		t.Fatalf("-update: %q", r.errors)
	}
	got, err := os.ReadFile(path)
	if want := "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": \"x\"\n}\n"; err != nil || string(got) != want {
		t.Errorf("-update wrote %q (%v), want %q", got, err, want)
	}
}

func TestJSON(t *testing.T) {
	path := filepath.Join(t.TempDir(), "doc.json")
	if err := os.WriteFile(path, []byte("{\n  \"a\": 1,\n  \"b\": \"x\"\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		body  string
		fatal bool
		fails bool
	}{
		{"compact, same document", `{"a":1,"b":"x"}`, false, false},
		{"a value differs", `{"a":2,"b":"x"}`, false, true},
		{"not JSON", `{"a":`, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := check(t, func(tb testing.TB) { JSON(tb, path, []byte(tt.body)) })
			if r.fatal != tt.fatal || (len(r.errors) > 0) != tt.fails {
				t.Errorf("errors %q, fatal %v; want fatal %v, failure %v", r.errors, r.fatal, tt.fatal, tt.fails)
			}
		})
	}
}
