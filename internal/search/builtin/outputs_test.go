package builtin_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"signals/internal/search"
	"signals/internal/search/builtin"
	"signals/internal/search/eval"
	"signals/internal/search/searchtest"
)

var update = flag.Bool("update", false, "rewrite testdata/outputs.json")

// outputs is a fingerprint of what the scorer computes: the vectors of the
// demo signals and their relevance to the queries of the evaluation set, each
// summed with fixed pseudo-random weights, so that a change anywhere changes
// a sum. Probe is a digest of those signals and queries.
type outputs struct {
	Model   string  `json:"model"`
	Probe   string  `json:"probe"`
	Vectors float64 `json:"vectors"`
	Scores  float64 `json:"scores"`
}

func fingerprint(t *testing.T, b *builtin.Scorer) outputs {
	t.Helper()
	ctx := context.Background()
	demo := searchtest.DemoSignals(t)
	texts := make([]string, len(demo))
	for i, s := range demo {
		texts[i] = s.Text
	}
	vs, err := b.EmbedDocuments(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	probe := sha256.New()
	out := outputs{Model: b.Model()}
	cands := make([]search.Candidate, len(demo))
	for i, s := range demo {
		fmt.Fprintf(probe, "%q %q %q %q\n", s.ID, s.Text, s.Tag, s.Country)
		for _, x := range vs[i] {
			out.Vectors += float64(x) * (rng.Float64()*2 - 1)
		}
		cands[i] = search.Candidate{ID: s.ID, Text: s.Text, Vector: vs[i], Tag: s.Tag, Country: s.Country}
	}
	set, err := eval.BundledSet()
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range set.Queries {
		fmt.Fprintf(probe, "%q\n", q.Query)
		scores, err := b.Score(ctx, q.Query, cands)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range scores {
			out.Scores += s * (rng.Float64()*2 - 1)
		}
	}
	out.Probe = hex.EncodeToString(probe.Sum(nil)[:6])
	return out
}

// TestOutputsFollowTheModel guards what the digest of the tables cannot see,
// the code: if the scorer computes something else under the same model name,
// change method in version.go. When the model name changes, record its
// outputs with
//
//	go test ./internal/search/builtin -run TestOutputsFollowTheModel -update
func TestOutputsFollowTheModel(t *testing.T) {
	b, err := builtin.New()
	if err != nil {
		t.Fatal(err)
	}
	got := fingerprint(t, b)
	const path = "testdata/outputs.json"
	if *update {
		b, _ := json.MarshalIndent(got, "", "  ")
		if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var want outputs
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	if got.Model != want.Model || got.Probe != want.Probe {
		t.Fatalf("model %s over probe %s, %s records %s over %s: run this test with -update", got.Model, got.Probe, path, want.Model, want.Probe)
	}
	// Sums of some 30,000 terms: far above rounding differences between
	// machines, far below any real change.
	const tol = 1e-6
	if math.Abs(got.Vectors-want.Vectors) > tol || math.Abs(got.Scores-want.Scores) > tol {
		t.Errorf("the scorer's vectors or scores changed under the same model %s: change method in version.go, then run this test with -update\ngot  %+v\nwant %+v", got.Model, got, want)
	}
}
