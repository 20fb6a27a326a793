package main

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"signals/internal/demo"
)

// TestDemoVectorsAreTheModels computes the demo vectors again and compares
// them with the bundled ones: the same model, the same signals and texts,
// the same vectors. It needs ONNX Runtime (SIGNALS_TEST_ONNXRUNTIME, set in
// CI's model step); it fails when the demo, the model or the text
// processing changed without go run ./tools/demovectors.
func TestDemoVectorsAreTheModels(t *testing.T) {
	lib := os.Getenv("SIGNALS_TEST_ONNXRUNTIME")
	if lib == "" {
		t.Skip("SIGNALS_TEST_ONNXRUNTIME is not set; the demo vectors are checked in CI's model step")
	}
	var b bytes.Buffer
	if err := Compute(context.Background(), filepath.Join(t.TempDir(), "demo.db"), lib, &b); err != nil {
		t.Fatal(err)
	}
	model, want, err := demo.DecodeVectors(&b)
	if err != nil {
		t.Fatal(err)
	}
	bundledModel, got, err := demo.Vectors()
	if err != nil {
		t.Fatal(err)
	}
	const redo = "; run: SIGNALS_ONNXRUNTIME=… go run ./tools/demovectors"
	if bundledModel != model || len(got) != len(want) {
		t.Fatalf("bundled: %d vectors of %s; computed: %d of %s%s", len(got), bundledModel, len(want), model, redo)
	}
	for id, w := range want {
		g, ok := got[id]
		if !ok || g.TextSum != w.TextSum || len(g.Vector) != len(w.Vector) {
			t.Fatalf("signal %q: bundled %t, same text %t%s", id, ok, g.TextSum == w.TextSum, redo)
		}
		for i := range w.Vector {
			if math.Abs(float64(g.Vector[i]-w.Vector[i])) > 1e-5 {
				t.Fatalf("signal %q: element %d is %g, computed %g%s", id, i, g.Vector[i], w.Vector[i], redo)
			}
		}
	}
}
