package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"signals/internal/model"
	"strings"
	"testing"
)

// The desk from the command line: the queue, one signal, decisions that
// say what they changed and that a re-import keeps, a takedown that a
// re-import does not undo, its restore, the log and its JSON Lines export,
// and roles.
func TestDeskCommands(t *testing.T) {
	db := filepath.Join(t.TempDir(), "desk.db")
	env := map[string]string{"SIGNALS_DATABASE": db}
	lines := `{"id":"q2","tag":"funding","source":"microblog","language":"en","author_name":"B","source_url":"https://example.org/2","text":"Second \u001b[31mred\u001b[0m","published_at":"2026-10-02T00:00:00Z","published_at_precision":"day"}
{"id":"q1","tag":"funding","source":"microblog","language":"en","author_name":"A","source_url":"https://example.org/1","text":"First","published_at":"2026-10-01T00:00:00Z","published_at_precision":"day"}
{"id":"p1","tag":"job","source":"tech_forum","language":"fr","author_name":"C","source_url":"https://example.org/3","text":"Public","published_at":"2026-10-03T00:00:00Z","published_at_precision":"day","status":"public"}
`
	file := filepath.Join(t.TempDir(), "in.jsonl")
	if err := os.WriteFile(file, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(want int, args ...string) (string, string) {
		t.Helper()
		out, errs, code := runCLI(t, env, "", args...)
		if code != want {
			t.Fatalf("%v: exit %d, want %d\n%s%s", args, code, want, out, errs)
		}
		return out, errs
	}
	_, errs := run(0, "import", file)
	if !strings.Contains(errs, "imported 3 signals") || !strings.Contains(errs, "3 new, 0 updated, 0 unchanged") {
		t.Errorf("the first import's report: %s", errs)
	}

	out, _ := run(0, "signals", "list", "--status", "pending")
	rows := strings.Split(strings.TrimSpace(out), "\n")
	if len(rows) != 3 || !strings.HasPrefix(rows[1], "q1 ") || !strings.HasPrefix(rows[2], "q2 ") {
		t.Errorf("the queue, oldest first:\n%s", out)
	}
	if strings.Contains(out, "\x1b") {
		t.Errorf("a signal's text reaches the terminal with its escape sequences:\n%q", out)
	}
	out, _ = run(0, "signals", "list", "--json", "--tag", "job")
	var listed struct {
		ID, Status string
	}
	if err := json.Unmarshal([]byte(out), &listed); err != nil || listed.ID != "p1" || listed.Status != "public" {
		t.Errorf("list --json: %q (%v)", out, err)
	}
	_, errs = run(2, "signals", "list", "--tag", "hiring")
	if !strings.Contains(errs, "did you mean job") {
		t.Errorf("a refused kind: %s", errs)
	}

	_, errs = run(0, "signals", "set-status", "q1", "public", "--reason", "checked")
	if !strings.Contains(errs, `signal "q1": status pending → public`) {
		t.Errorf("set-status: %s", errs)
	}
	_, errs = run(0, "signals", "set", "q1", "--tag", "job", "--country", "france", "--language", "fr")
	if !strings.Contains(errs, `signal "q1": country none → france, language en → fr, tag funding → job`) {
		t.Errorf("set: %s", errs)
	}
	out, errs = run(0, "signals", "set", "q1", "--tag", "job", "--json")
	if !strings.Contains(errs, "unchanged") || out != "" {
		t.Errorf("a set that changes nothing: %q %s", out, errs)
	}
	out, _ = run(0, "signals", "set-status", "q1", "public", "--market-only=true", "--json")
	var logged model.Decision
	if err := json.Unmarshal([]byte(out), &logged); err != nil || logged.SignalID != "q1" || logged.Editor != model.Operator ||
		logged.After["market_only"] != true || logged.Before["market_only"] != false || logged.Seq == 0 {
		t.Errorf("set-status --json: %q (%v)", out, err)
	}
	run(0, "signals", "set-status", "q1", "public", "--market-only=false")
	run(2, "signals", "set", "q1")
	_, errs = run(2, "signals", "set", "q1", "--country", "frnace")
	if !strings.Contains(errs, "did you mean france") {
		t.Errorf("a refused country: %s", errs)
	}
	_, errs = run(1, "signals", "set", "nope", "--tag", "job")
	if !strings.Contains(errs, `no signal with id "nope"`) {
		t.Errorf("an unknown id: %s", errs)
	}

	// A re-import of the same file keeps the editor's decisions.
	run(0, "import", file)
	out, _ = run(0, "signals", "show", "q1", "--json")
	var shown map[string]any
	if err := json.Unmarshal([]byte(out), &shown); err != nil || shown["status"] != "public" || shown["tag"] != "job" ||
		shown["country"] != "france" || shown["language"] != "fr" {
		t.Errorf("after a re-import: %s (%v)", out, err)
	}

	_, errs = run(2, "signals", "delete", "q2")
	if !strings.Contains(errs, "--reason") {
		t.Errorf("a takedown without a reason: %s", errs)
	}
	out, errs = run(0, "signals", "delete", "q2", "--reason", "the author asked", "--json")
	if !strings.Contains(errs, "taken down") || !strings.Contains(out, `"action":"delete"`) || !strings.Contains(out, `"reason":"the author asked"`) {
		t.Errorf("delete: %q %s", out, errs)
	}
	_, errs = run(0, "import", file)
	if !strings.Contains(errs, "imported 2 signals") || !strings.Contains(errs, "0 new, 0 updated, 2 unchanged") ||
		!strings.Contains(errs, `1 taken down by an editor, not imported`) || !strings.Contains(errs, `"q2"`) {
		t.Errorf("a re-import's report: %s", errs)
	}
	run(1, "signals", "show", "q2")
	_, errs = run(0, "signals", "restore", "q2")
	if !strings.Contains(errs, "restored") {
		t.Errorf("restore: %s", errs)
	}
	run(0, "signals", "show", "q2")

	out, _ = run(0, "desk", "log", "--signal", "q2")
	if !strings.Contains(out, "restored") || !strings.Contains(out, "taken down  (the author asked)") || !strings.Contains(out, "operator") {
		t.Errorf("desk log:\n%s", out)
	}
	out, _ = run(0, "desk", "log", "--json")
	var entries []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var e map[string]any
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatalf("desk log --json: %q: %v", l, err)
		}
		entries = append(entries, e)
	}
	if len(entries) != 6 || entries[0]["action"] != "set-status" || entries[5]["action"] != "restore" ||
		entries[0]["reason"] != "checked" {
		t.Errorf("the export, oldest first: %v", entries)
	}

	run(0, "accounts", "create", "--email", "ed@example.org")
	_, errs = run(0, "accounts", "set-role", "--email", "ed@example.org", "editor")
	if !strings.Contains(errs, "role reader → editor") {
		t.Errorf("set-role: %s", errs)
	}
	run(2, "accounts", "set-role", "--email", "ed@example.org", "admin")
}

// An id on several lines is named with its lines; the last line wins.
func TestImportNamesDuplicates(t *testing.T) {
	db := filepath.Join(t.TempDir(), "dup.db")
	line := func(id, text string) string {
		return `{"id":"` + id + `","tag":"job","source":"microblog","language":"en","author_name":"A","source_url":"https://example.org/1","text":"` +
			text + `","published_at":"2026-10-01T00:00:00Z","published_at_precision":"day","status":"public"}` + "\n"
	}
	in := line("a", "first") + line("b", "only") + line("a", "second") + line("a", "third")
	_, errs, code := runCLI(t, map[string]string{"SIGNALS_DATABASE": db}, in, "import", "-")
	if code != 0 || !strings.Contains(errs, "imported 2 signals") ||
		!strings.Contains(errs, `1 ids are on more than one line; the last line of each was imported: "a" (lines 1, 3, 4)`) {
		t.Fatalf("exit %d: %s", code, errs)
	}
	out, _, _ := runCLI(t, map[string]string{"SIGNALS_DATABASE": db}, "", "signals", "show", "a", "--json")
	if !strings.Contains(out, `"text":"third"`) {
		t.Errorf("the last line did not win: %s", out)
	}
}

// --mode chooses what an import does to stored signals: new-only leaves
// them, overwrite replaces an editor's decisions, and no mode brings back
// a taken-down signal.
func TestImportModes(t *testing.T) {
	db := filepath.Join(t.TempDir(), "modes.db")
	env := map[string]string{"SIGNALS_DATABASE": db}
	line := func(id, text string) string {
		return `{"id":"` + id + `","tag":"job","source":"microblog","language":"en","author_name":"A","source_url":"https://example.org/1","text":"` +
			text + `","published_at":"2026-10-01T00:00:00Z","published_at_precision":"day","status":"public"}` + "\n"
	}
	run := func(in string, args ...string) string {
		t.Helper()
		_, errs, code := runCLI(t, env, in, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		return errs
	}
	show := func(id string) string {
		out, _, _ := runCLI(t, env, "", "signals", "show", id, "--json")
		return out
	}
	run(line("a", "one")+line("gone", "x"), "import", "-")
	run("", "signals", "set", "a", "--tag", "events")
	run("", "signals", "delete", "gone", "--reason", "asked")
	if errs := run(line("a", "two")+line("gone", "y"), "import", "-", "--mode", "new-only"); !strings.Contains(errs, "left as they were") ||
		!strings.Contains(errs, "1 taken down") {
		t.Errorf("new-only: %s", errs)
	}
	if s := show("a"); !strings.Contains(s, `"text":"one"`) || !strings.Contains(s, `"tag":"events"`) {
		t.Errorf("new-only changed a stored signal: %s", s)
	}
	run(line("a", "three"), "import", "-")
	if s := show("a"); !strings.Contains(s, `"text":"three"`) || !strings.Contains(s, `"tag":"events"`) {
		t.Errorf("keep-decisions: %s", s)
	}
	if errs := run(line("a", "four")+line("gone", "z"), "import", "-", "--mode", "overwrite"); !strings.Contains(errs, "overwritten") {
		t.Errorf("overwrite: %s", errs)
	}
	if s := show("a"); !strings.Contains(s, `"text":"four"`) || !strings.Contains(s, `"tag":"job"`) {
		t.Errorf("overwrite kept the decision: %s", s)
	}
	if _, _, code := runCLI(t, env, "", "signals", "show", "gone"); code != 1 {
		t.Errorf("overwrite brought back a taken-down signal")
	}
	// The decision was forgotten: the file rules again by default.
	run(line("a", "five"), "import", "-")
	run("", "signals", "set", "a", "--tag", "events")
	if _, errs, code := runCLI(t, env, "", "import", "-", "--mode", "everything"); code != 2 || !strings.Contains(errs, "--mode is") {
		t.Errorf("a bad mode: %d %s", code, errs)
	}
}
