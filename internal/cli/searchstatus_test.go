package cli

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"signals/internal/demo"
)

// TestSearchStatusFallback: without ONNX Runtime, auto answers with the
// builtin scorer and says why, naming the setting that fixes it.
func TestSearchStatusFallback(t *testing.T) {
	if os.Getenv("SIGNALS_TEST_ONNXRUNTIME") != "" {
		t.Skip("this run loads ONNX Runtime; the fallback is tested without it")
	}
	dir := t.TempDir()
	env := map[string]string{"SIGNALS_DATABASE": filepath.Join(dir, "s.db"),
		"SIGNALS_ONNXRUNTIME": filepath.Join(dir, "no-such-libonnxruntime.so")}
	out, errs, code := runCLI(t, env, "", "search-status")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"provider: builtin", "runtime:  not loaded", "SIGNALS_ONNXRUNTIME", "no-such-libonnxruntime.so", "waiting:  0 public signals"} {
		if !strings.Contains(out, want) {
			t.Errorf("search-status lacks %q:\n%s", want, out)
		}
	}
	// Asked for by name, the model refuses to start without its runtime.
	env["SIGNALS_SEARCH_PROVIDER"] = "onnx"
	if _, errs, code := runCLI(t, env, "", "search-status"); code == 0 || !strings.Contains(errs, "needs ONNX Runtime") {
		t.Errorf("onnx without a runtime: exit %d, %s", code, errs)
	}
}

// TestSearchStatusModel: with ONNX Runtime (SIGNALS_TEST_ONNXRUNTIME, set
// by CI's model step), auto chooses the bundled model and counts the demo
// signals waiting for its vectors.
func TestSearchStatusModel(t *testing.T) {
	lib := os.Getenv("SIGNALS_TEST_ONNXRUNTIME")
	if lib == "" {
		t.Skip("SIGNALS_TEST_ONNXRUNTIME is not set; the model's status is tested in CI's model step")
	}
	dir := t.TempDir()
	env := map[string]string{"SIGNALS_DATABASE": filepath.Join(dir, "s.db"), "SIGNALS_ONNXRUNTIME": lib}
	records, err := io.ReadAll(demo.Records())
	if err != nil {
		t.Fatal(err)
	}
	if _, errs, code := runCLI(t, env, string(records), "import", "-"); code != 0 {
		t.Fatalf("import: exit %d: %s", code, errs)
	}
	out, errs, code := runCLI(t, env, "", "search-status")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"provider: onnx", "all-minilm-l6-v2-q", "runtime:  " + lib, "why:      ONNX Runtime loaded",
		"reads:    questions in English; the builtin word vectors score the others", "waiting:  327 public signals"} {
		if !strings.Contains(out, want) {
			t.Errorf("search-status lacks %q:\n%s", want, out)
		}
	}
}

// TestEvalSearchEncoderLanguages: a candidate model measured with
// --encoder-languages en leaves the French questions to the word vectors,
// whose figures on them are then the builtin scorer's, while it scores the
// English ones itself. It needs ONNX Runtime (SIGNALS_TEST_ONNXRUNTIME, set
// by CI's model step).
func TestEvalSearchEncoderLanguages(t *testing.T) {
	lib := os.Getenv("SIGNALS_TEST_ONNXRUNTIME")
	if lib == "" {
		t.Skip("SIGNALS_TEST_ONNXRUNTIME is not set; measuring a model is tested in CI's model step")
	}
	env := map[string]string{"SIGNALS_SEARCH_PROVIDER": "builtin", "SIGNALS_ONNXRUNTIME": lib}
	lines := func(args ...string) (en, fr []string) {
		t.Helper()
		out, errs, code := runCLI(t, env, "", append([]string{"eval-search"}, args...)...)
		if code != 0 {
			t.Fatalf("eval-search %q: exit %d: %s", args, code, errs)
		}
		for _, l := range strings.Split(out, "\n") {
			switch {
			case strings.Contains(l, "scorer, en"):
				en = append(en, l)
			case strings.Contains(l, "scorer, fr"):
				fr = append(fr, l)
			}
		}
		if len(en) != 4 || len(fr) != 4 {
			t.Fatalf("eval-search %q: %d English and %d French lines, want 4 of each:\n%s", args, len(en), len(fr), out)
		}
		return en, fr
	}
	wordsEN, wordsFR := lines()
	model := filepath.Join("..", "search", "sentence", "bundled", "model.onnx")
	en, fr := lines("--encoder", model, "--encoder-languages", "en")
	if !slices.Equal(fr, wordsFR) {
		t.Errorf("French questions with --encoder-languages en:\n%s\nthe word vectors:\n%s", strings.Join(fr, "\n"), strings.Join(wordsFR, "\n"))
	}
	if slices.Equal(en, wordsEN) {
		t.Errorf("the model scores the English questions as the word vectors do:\n%s", strings.Join(en, "\n"))
	}
	// A candidate's fitted calibration is not offered for shipping: the
	// service runs the bundled model only.
	out, errs, code := runCLI(t, env, "", "eval-search", "--encoder", model, "--encoder-languages", "en", "--fit")
	if code != 0 || !strings.Contains(out, "a candidate model's calibration: the service runs the bundled model only") || strings.Contains(out, "to ship it") {
		t.Errorf("eval-search --encoder --fit: exit %d %s\n%s", code, errs, out)
	}
}
