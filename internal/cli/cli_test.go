package cli

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"signals/internal/search/searchtest"
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
		{"bad email", []string{"accounts", "create", "--email", "not an email", "--database", db}, 2, "Enter one email address"},
		{"invisible character in an email", []string{"accounts", "create", "--email", "ada\u200b@example.com", "--database", db}, 2, "invisible character (U+200B)"},
		{"email at an address literal", []string{"accounts", "create", "--email", "ada@[192.0.2.1]", "--database", db}, 2, "IP address"},
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

// keys rename renames one of the account's active keys, with the names the
// account page accepts, and refuses another account's key or a revoked one.
func TestKeysRename(t *testing.T) {
	env := map[string]string{"SIGNALS_DATABASE": filepath.Join(t.TempDir(), "rename.db")}
	for _, email := range []string{"ada@example.com", "bob@example.com"} {
		if _, errs, code := runCLI(t, env, "", "accounts", "create", "--email", email); code != 0 {
			t.Fatalf("accounts create: %s", errs)
		}
	}
	if _, errs, code := runCLI(t, env, "", "keys", "create", "--email", "ada@example.com", "--name", "laptop"); code != 0 {
		t.Fatalf("keys create: %s", errs)
	}
	listed, _, _ := runCLI(t, env, "", "keys", "list", "--email", "ada@example.com")
	id := strings.Fields(strings.Split(listed, "\n")[1])[0]
	tests := []struct {
		name string
		args []string
		code int
		says string
	}{
		{"control character", []string{id, "--email", "ada@example.com", "--name", "a\x07b"}, 2, "without control characters"},
		{"empty", []string{id, "--email", "ada@example.com", "--name", "  "}, 2, "Give the key a name"},
		{"another account's key", []string{id, "--email", "bob@example.com", "--name", "mine"}, 1, "no active key"},
		{"renamed", []string{id, "--email", "ada@example.com", "--name", "  CI runner "}, 0, `to "CI runner"`},
	}
	for _, tt := range tests {
		_, errs, code := runCLI(t, env, "", append([]string{"keys", "rename"}, tt.args...)...)
		if code != tt.code || !strings.Contains(errs, tt.says) {
			t.Errorf("%s: exit %d, want %d; stderr %q, want it to say %q", tt.name, code, tt.code, errs, tt.says)
		}
	}
	if listed, _, _ := runCLI(t, env, "", "keys", "list", "--email", "ada@example.com"); !strings.Contains(listed, "CI runner") {
		t.Errorf("after the rename:\n%s", listed)
	}
	runCLI(t, env, "", "keys", "revoke", id)
	if _, errs, code := runCLI(t, env, "", "keys", "rename", id, "--email", "ada@example.com", "--name", "x"); code != 1 {
		t.Errorf("renaming a revoked key: exit %d %s", code, errs)
	}
}

// Operator commands read an email as sign-in does: an account created with
// capitals and a Unicode domain is the account that signs in, and is found
// however its address is typed.
func TestEmailsAreReadAsSignInReadsThem(t *testing.T) {
	env := map[string]string{"SIGNALS_DATABASE": filepath.Join(t.TempDir(), "mail.db")}
	if _, errs, code := runCLI(t, env, "", "accounts", "create", "--email", "Ada@Bücher.Example"); code != 0 ||
		!strings.Contains(errs, "for ada@bücher.example") {
		t.Fatalf("accounts create: exit %d: %s", code, errs)
	}
	for _, typed := range []string{"ada@bücher.example", "ADA@xn--bcher-kva.example"} {
		if out, errs, code := runCLI(t, env, "", "keys", "create", "--email", typed); code != 0 || !strings.HasPrefix(out, "sig_") {
			t.Errorf("keys create --email %s: exit %d: %s", typed, code, errs)
		}
	}
	if _, errs, code := runCLI(t, env, "", "accounts", "create", "--email", "ADA@bücher.example"); code != 1 || !strings.Contains(errs, "exists") {
		t.Errorf("the same address in capitals: exit %d: %s", code, errs)
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
	if _, errs, code := runCLI(t, env, "", "signals", "set-status", "e1", "hidden", "--market-only=true"); code != 0 ||
		!strings.Contains(errs, `signal "e1": market_only false → true, status public → hidden`) {
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
	for _, want := range []string{"builtin/", "relevance >= 0.85", "recall", "precision", "no match", "off-topic matches", "nDCG@10", "labelled-cut recall"} {
		if !strings.Contains(out, want) {
			t.Errorf("eval-search output lacks %q:\n%s", want, out)
		}
	}
	// What the scorer costs, above the figures: embedding the demo signals,
	// and scoring each question of the four sets against them.
	if !regexp.MustCompile(`(?m)^cost: embedding the \d+ signals took [0-9.]+ s \(\d+ signals/s\); scoring a question against them [0-9.]+ ms at the median, [0-9.]+ ms at the 90th percentile \(205 questions\)\nset `).MatchString(out) {
		t.Errorf("eval-search output does not say what the scorer costs above its figures:\n%s", out)
	}
	// Every bundled set, each beside the BM25 baseline.
	for _, set := range []string{"eval.json", "eval-asks.json", "eval-unseen.json", "eval-natural.json"} {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(set) + `\s+\d+\s+scorer\s+[0-9.]+\s+[0-9.]+\s+\d+ of \d+\s+\d+\s+[0-9.]+\s+[0-9.]+\s+[0-9.]+\n\s+BM25\s+[0-9.]+`).MatchString(out) {
			t.Errorf("eval-search output has no figures for %s beside BM25:\n%s", set, out)
		}
	}
}

// bagOfWordsServer is a test double of an OpenAI-compatible embeddings server
// (searchtest.BagOfWords) serving the model "bow".
func bagOfWordsServer(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if r.URL.Path != "/v1/embeddings" || json.NewDecoder(r.Body).Decode(&req) != nil || req.Model != "bow" {
			http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
			return
		}
		searchtest.WriteEmbeddings(w, req.Input, searchtest.BagOfWords)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestEvalSearchFitsTheOpenAICalibration(t *testing.T) {
	env := map[string]string{"SIGNALS_SEARCH_PROVIDER": "openai", "SIGNALS_SEARCH_URL": bagOfWordsServer(t), "SIGNALS_SEARCH_MODEL": "bow"}
	out, errs, code := runCLI(t, env, "", "eval-search", "--fit")
	if code != 0 {
		t.Fatalf("eval-search --fit: %d %s", code, errs)
	}
	m := regexp.MustCompile(`(?m)^  SIGNALS_SEARCH_THRESHOLD=(\S+) SIGNALS_SEARCH_SLOPE=(\S+)$`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("eval-search --fit prints no settings:\n%s", out)
	}
	threshold, err1 := strconv.ParseFloat(m[1], 64)
	slope, err2 := strconv.ParseFloat(m[2], 64)
	if err1 != nil || err2 != nil || threshold <= 0 || threshold >= 1 || slope <= 0 {
		t.Fatalf("fitted threshold %q slope %q", m[1], m[2])
	}
	figures := func(out string) string {
		i := strings.Index(out, "\nset ")
		if i < 0 {
			t.Fatalf("no figures in:\n%s", out)
		}
		return out[i:]
	}
	fitted := figures(out)
	m2 := regexp.MustCompile(`(?m)^eval.json\s+\d+\s+scorer\s+[0-9.]+\s+([0-9.]+)`).FindStringSubmatch(fitted)
	if m2 == nil {
		t.Fatalf("no figures for eval.json:\n%s", out)
	}
	if precision, err := strconv.ParseFloat(m2[1], 64); err != nil || precision < 0.6 {
		t.Errorf("fitted precision %v (%v), want at least 0.60:\n%s", m2[1], err, out)
	}

	// The printed settings, read from the environment, give the same figures;
	// the default calibration does not.
	env["SIGNALS_SEARCH_THRESHOLD"], env["SIGNALS_SEARCH_SLOPE"] = m[1], m[2]
	out2, errs, code := runCLI(t, env, "", "eval-search")
	if code != 0 || figures(out2) != fitted {
		t.Errorf("eval-search with the fitted settings: %d %s\n%s\nwant the figures of\n%s", code, errs, out2, out)
	}
	delete(env, "SIGNALS_SEARCH_THRESHOLD")
	delete(env, "SIGNALS_SEARCH_SLOPE")
	out3, _, code := runCLI(t, env, "", "eval-search")
	if code != 0 || figures(out3) == fitted {
		t.Errorf("eval-search with the default calibration gives the fitted figures: %d\n%s", code, out3)
	}
	// Flags override the environment.
	env["SIGNALS_SEARCH_THRESHOLD"] = "0.99"
	out4, _, code := runCLI(t, env, "", "eval-search", "--search-threshold", m[1], "--search-slope", m[2])
	if code != 0 || figures(out4) != fitted {
		t.Errorf("flags did not override the environment: %d\n%s", code, out4)
	}
}

// TestEvalSearchFitsTheBuiltinCalibration runs the command that fits the
// builtin calibration and checks that the calibration the binary ships is
// what it writes on the committed data: a change to the scorer or its tables
// that moves the fit fails here until the file is refitted.
func TestEvalSearchFitsTheBuiltinCalibration(t *testing.T) {
	const shipped = "../search/builtin/calibration.json"
	file := filepath.Join(t.TempDir(), "calibration.json")
	out, errs, code := runCLI(t, nil, "", "eval-search", "--fit", "--write", file)
	if code != 0 {
		t.Fatalf("eval-search --fit --write: %d %s", code, errs)
	}
	for _, want := range []string{"fit half", "held out", "wrote " + file} {
		if !strings.Contains(out, want) {
			t.Errorf("eval-search --fit output lacks %q:\n%s", want, out)
		}
	}
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(shipped)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("the fit writes\n%s\n%s holds\n%s\nrefit: go run ./cmd/signals eval-search --fit --write internal/search/builtin/calibration.json", got, shipped, want)
	}
	// The fitted figures are the shipped scorer's.
	plain, errs, code := runCLI(t, nil, "", "eval-search")
	if i := strings.Index(out, "scorer "); code != 0 || i < 0 || withoutCost(out[i:]) != withoutCost(plain) {
		t.Errorf("eval-search: %d %s\n%s\nwant the fitted figures\n%s", code, errs, plain, out)
	}
}

// withoutCost is eval-search's output without its line of timings, which
// differ from run to run.
func withoutCost(out string) string {
	return regexp.MustCompile(`(?m)^cost: .*\n`).ReplaceAllString(out, "")
}

func TestSearchCalibrationErrors(t *testing.T) {
	url := bagOfWordsServer(t)
	badSet := filepath.Join(t.TempDir(), "set.json")
	if err := os.WriteFile(badSet, []byte("queries"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
		code int
		says string
	}{
		{"threshold not a number", map[string]string{"SIGNALS_SEARCH_THRESHOLD": "half"}, nil, 2, `$SIGNALS_SEARCH_THRESHOLD: "half" is not a valid value`},
		{"slope not a number", map[string]string{"SIGNALS_SEARCH_SLOPE": "20x"}, nil, 2, `$SIGNALS_SEARCH_SLOPE: "20x" is not a valid value`},
		{"threshold flag not a number", nil, []string{"--search-threshold", "x"}, 2, "invalid value"},
		{"threshold out of range", map[string]string{"SIGNALS_SEARCH_THRESHOLD": "1.5"}, nil, 1, "threshold must be a cosine between -1 and 1"},
		{"slope not positive", nil, []string{"--search-slope", "0"}, 1, "slope must be positive"},
		{"write without fit", map[string]string{"SIGNALS_SEARCH_PROVIDER": "builtin"}, []string{"--write", "x.json"}, 2, "--write writes what --fit finds"},
		{"write with openai", nil, []string{"--fit", "--write", "x.json"}, 2, "--write is for the builtin calibration"},
		{"refine without fit", map[string]string{"SIGNALS_SEARCH_PROVIDER": "builtin"}, []string{"--refine"}, 2, "--refine refines what --fit finds"},
		{"refine with openai", nil, []string{"--fit", "--refine"}, 2, "--refine is for the builtin calibration"},
		{"languages without encoder", nil, []string{"--encoder-languages", "en"}, 2, "--encoder-languages is for a model measured inside the query reading"},
		{"languages of a model alone", nil, []string{"--encoder", "m.onnx", "--encoder-alone", "--encoder-languages", "en"}, 2, "give --encoder without --encoder-alone"},
		{"language unknown", nil, []string{"--encoder", "m.onnx", "--encoder-languages", "en,de"}, 2, `"de" is no language the query reading tells`},
		{"no database", nil, []string{"--database", "x.db"}, 2, "flag provided but not defined: -database"},
		{"set not JSON", map[string]string{"SIGNALS_SEARCH_PROVIDER": "builtin"}, []string{"-set", badSet}, 1, "eval: evaluation set: invalid character"},
		{"set missing", map[string]string{"SIGNALS_SEARCH_PROVIDER": "builtin"}, []string{"-set", badSet + ".missing"}, 1, "no such file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := map[string]string{"SIGNALS_SEARCH_PROVIDER": "openai", "SIGNALS_SEARCH_URL": url, "SIGNALS_SEARCH_MODEL": "bow"}
			for k, v := range tc.env {
				env[k] = v
			}
			_, errs, code := runCLI(t, env, "", append([]string{"eval-search"}, tc.args...)...)
			if code != tc.code || !strings.Contains(errs, tc.says) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errs, tc.code, tc.says)
			}
		})
	}
}

func TestServeRefusesBadTimeouts(t *testing.T) {
	db := filepath.Join(t.TempDir(), "t.db")
	for _, tc := range []struct {
		env  map[string]string
		args []string
		says string
	}{
		{map[string]string{"SIGNALS_SEARCH_TIMEOUT": "ten seconds"}, nil, `$SIGNALS_SEARCH_TIMEOUT: "ten seconds" is not a valid value`},
		{nil, []string{"--search-timeout", "0s"}, "--search-timeout must be positive"},
		{map[string]string{"SIGNALS_SEARCH_TIMEOUT": "-5s"}, nil, "--search-timeout must be positive"},
		{map[string]string{"SIGNALS_LIST_TIMEOUT": "soon"}, nil, `$SIGNALS_LIST_TIMEOUT: "soon" is not a valid value`},
		{nil, []string{"--list-timeout", "0s"}, "--list-timeout must be positive"},
	} {
		_, errs, code := runCLI(t, tc.env, "", append([]string{"serve", "--database", db, "--addr", "127.0.0.1:0"}, tc.args...)...)
		if code != 2 || !strings.Contains(errs, tc.says) {
			t.Errorf("serve %v %v: exit %d, stderr %q; want 2 and %q", tc.env, tc.args, code, errs, tc.says)
		}
	}
}

// serve reads the openai calibration through the same flags as eval-search:
// a setting out of range stops it before it listens.
func TestServeReadsTheSearchCalibration(t *testing.T) {
	db := filepath.Join(t.TempDir(), "t.db")
	env := map[string]string{"SIGNALS_SEARCH_PROVIDER": "openai", "SIGNALS_SEARCH_URL": bagOfWordsServer(t), "SIGNALS_SEARCH_MODEL": "bow"}
	for _, tc := range []struct {
		env  map[string]string
		args []string
		says string
	}{
		{map[string]string{"SIGNALS_SEARCH_THRESHOLD": "1.2"}, nil, "threshold must be a cosine between -1 and 1, got 1.2"},
		{nil, []string{"--search-slope", "-1"}, "slope must be positive, got -1"},
		{map[string]string{"SIGNALS_SEARCH_SLOPE": "steep"}, nil, `$SIGNALS_SEARCH_SLOPE: "steep" is not a valid value`},
	} {
		e := maps.Clone(env)
		maps.Copy(e, tc.env)
		_, errs, code := runCLI(t, e, "", append([]string{"serve", "--database", db, "--addr", "127.0.0.1:0"}, tc.args...)...)
		if code == 0 || !strings.Contains(errs, tc.says) {
			t.Errorf("serve %v %v: exit %d, stderr %q; want a failure saying %q", tc.env, tc.args, code, errs, tc.says)
		}
	}
}
