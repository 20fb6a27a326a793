package demo

import (
	"bytes"
	"slices"
	"testing"
)

func TestVectorsRoundTrip(t *testing.T) {
	byID := map[string]Vector{
		"a":   {TextSum: TextSum("first"), Vector: []float32{0.5, -1, 3.25}},
		"b/é": {TextSum: TextSum("second"), Vector: []float32{1e-7, 0, -0}},
	}
	var b bytes.Buffer
	if err := EncodeVectors(&b, "m/1+x", []string{"a", "b/é"}, byID); err != nil {
		t.Fatal(err)
	}
	model, got, err := DecodeVectors(&b)
	if err != nil || model != "m/1+x" || len(got) != 2 {
		t.Fatalf("decoded %q %v (%v)", model, got, err)
	}
	for id, v := range byID {
		if got[id].TextSum != v.TextSum || !slices.Equal(got[id].Vector, v.Vector) {
			t.Errorf("%s: %+v, want %+v", id, got[id], v)
		}
	}
	if err := EncodeVectors(&b, "two\nlines", nil, nil); err == nil {
		t.Error("a model name with a line break was written")
	}
	if _, _, err := DecodeVectors(bytes.NewReader([]byte("not gzip"))); err == nil {
		t.Error("a file that is not one was read")
	}
}

// The bundled vectors read, and cover the demo's public signals.
func TestBundledVectors(t *testing.T) {
	model, byID, err := Vectors()
	if err != nil || model == "" || len(byID) < 300 {
		t.Fatalf("bundled vectors: %d of %q (%v)", len(byID), model, err)
	}
}
