package app_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"os"
	"strings"
	"testing"

	"signals/internal/app"
	"signals/internal/apptest"
	"signals/internal/demo"
	"signals/internal/model"
	"signals/internal/store/storetest"
)

// A second start with the demo names the command to make another key as
// the operator runs the program.
func TestDemoHintNamesTheCommandAsRun(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	ctx := context.Background()
	quiet := apptest.Discard()
	if err := app.LoadDemo(ctx, ta.Store(), demo.Records(), io.Discard, "go run ./cmd/signals", quiet); err != nil {
		t.Fatal(err)
	}
	var logged bytes.Buffer
	if err := app.LoadDemo(ctx, ta.Store(), demo.Records(), io.Discard, "go run ./cmd/signals", slog.New(slog.NewTextHandler(&logged, nil))); err != nil {
		t.Fatal(err)
	}
	if want := "create another key with: go run ./cmd/signals keys create --email demo@example.com"; !strings.Contains(logged.String(), want) {
		t.Errorf("the log lacks %q:\n%s", want, logged.String())
	}
}

// The bundled demo vectors are stored only under their own model: with
// the sentence model (SIGNALS_TEST_ONNXRUNTIME) every public demo signal
// gets its vector at start, none is left for the indexer, and a demo
// signal whose text changed gets none; under any other model nothing is
// stored.
func TestDemoVectors(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	quiet := apptest.Discard()
	lib := os.Getenv("SIGNALS_TEST_ONNXRUNTIME")
	ta := apptest.StartWith(t, apptest.Config(t), quiet)
	if err := app.LoadDemo(ctx, ta.Store(), demo.Records(), io.Discard, "signals", quiet); err != nil {
		t.Fatal(err)
	}
	changed := storetest.Sig("tf-2026-11-0023", 0, func(s *model.Signal) { s.Text = "A text the demo vectors were not computed from." })
	storetest.Put(t, ta.Store(), changed)
	n, err := ta.LoadDemoVectors(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if lib == "" {
		if n != 0 {
			t.Fatalf("stored %d demo vectors under %s", n, ta.Search().Scorer.Model())
		}
		t.Skip("SIGNALS_TEST_ONNXRUNTIME is not set: the vectors under the sentence model are checked in CI's model step")
	}
	left, err := ta.Search().IndexOnce(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 || left != 1 {
		t.Errorf("stored %d demo vectors, and the indexer embedded %d more; want all but the changed signal, and that one", n, left)
	}
}
