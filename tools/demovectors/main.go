// Command demovectors computes the demo signals' vectors as serve does with
// the bundled sentence model, and writes them for serve --demo to load at
// start (internal/demo/vectors.bin.gz). It needs ONNX Runtime:
//
//	SIGNALS_ONNXRUNTIME=$(bash scripts/onnxruntime.sh) go run ./tools/demovectors -o internal/demo/vectors.bin.gz
//
// Run it again when the demo data, the model or the text processing
// changes: TestDemoVectorsAreTheModels (internal/app) fails until then.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"signals/internal/app"
	"signals/internal/demo"
	"signals/internal/model"
	"signals/internal/search"
)

func main() {
	out := flag.String("o", "internal/demo/vectors.bin.gz", "the file to write")
	flag.Parse()
	if err := run(context.Background(), *out); err != nil {
		fmt.Fprintln(os.Stderr, "demovectors:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, out string) error {
	dir, err := os.MkdirTemp("", "demovectors-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	var b bytes.Buffer
	if err := Compute(ctx, filepath.Join(dir, "demo.db"), os.Getenv("SIGNALS_ONNXRUNTIME"), &b); err != nil {
		return err
	}
	return os.WriteFile(out, b.Bytes(), 0o644)
}

// Compute loads the demo into a new database at path, embeds its public
// signals with the sentence model (the ONNX Runtime library at runtime, or
// in the usual places when ""), and writes their vectors to w.
func Compute(ctx context.Context, path, runtime string, w io.Writer) error {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	a, err := app.New(ctx, app.Config{BaseURL: "http://localhost", Database: path,
		Search: app.SearchConfig{Provider: "onnx", ONNXRuntime: runtime}}, log)
	if err != nil {
		return err
	}
	defer a.Close()
	if err := app.LoadDemo(ctx, a.Store(), demo.Records(), io.Discard, "signals", log); err != nil {
		return err
	}
	if _, err := a.Search().IndexOnce(ctx); err != nil {
		return err
	}
	vectorModel := a.Search().Scorer.Model()
	cands, err := a.Store().Candidates(ctx, model.Filter{}, vectorModel, search.CandidateChars, 1<<20)
	if err != nil {
		return err
	}
	ids := make([]string, len(cands))
	byID := map[string]demo.Vector{}
	for i, c := range cands {
		ids[i] = c.Signal.ID
		byID[c.Signal.ID] = demo.Vector{TextSum: demo.TextSum(c.Signal.Text), Vector: c.Vector}
	}
	return demo.EncodeVectors(w, vectorModel, ids, byID)
}
