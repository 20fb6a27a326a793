// Package search scores signals against a semantic-search query.
//
// A [Scorer] turns texts into vectors once (at import or start) and, per
// search, scores the candidate window (the newest 512 eligible signals, each on
// its first 1,000 code points) against the query. Relevance is in [0, 1] and
// calibrated so that [Cutoff] (0.85) means "clearly about what was asked"; the
// caller keeps candidates whose relevance is at least the cutoff.
//
// [Service] runs searches under the contract's flow (cache, joins, limits,
// reservations) with any Scorer. The scorers live in packages of their own:
// signals/internal/search/builtin, offline and inside the binary (word
// vectors fused with a lexical score), and signals/internal/search/openai,
// any OpenAI-compatible embeddings server. signals/internal/search/eval
// measures a scorer on a labelled query set and fits its calibration.
package search

import (
	"cmp"
	"context"
	"math"
	"slices"

	"signals/internal/model"
	"signals/internal/store"
)

// Limits of one search, from the service contract.
const (
	// Cutoff is the inclusive relevance a match needs.
	Cutoff = 0.85
	// CandidateChars is how many code points of a signal's text are scored.
	CandidateChars = 1000
	// WindowSize is the largest candidate window a search scores.
	WindowSize = 512
	// MaxReasons is the most reasons an Explainer gives a match.
	MaxReasons = 6
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
	// Country is the signal's country key, "" if it has none; the builtin
	// scorer checks it against the place a query asks for.
	Country string
}

// Explainer is a Scorer that can say why candidates match a query.
type Explainer interface {
	// Explain returns, in order, up to MaxReasons short reasons why each candidate
	// matches query: "tag:events", "country:france", a query word the
	// candidate contains ("conference") or one it matches by meaning
	// ("hiring≈recruiting").
	Explain(ctx context.Context, query string, cands []Candidate) ([][]string, error)
}

// Releaser is a Scorer that holds what indexing needs between its calls of
// EmbedDocuments (a model's session and the memory its runs keep) and gives
// it back on Release; the indexer calls it after each pass that embedded
// signals.
type Releaser interface {
	Release() error
}

// Cosine is the cosine of two vectors; 0 if either is zero or their lengths
// differ.
func Cosine(a, b []float32) float64 {
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

// Logistic is 1/(1+e^-x), the link of the scorers' calibrations from a score
// to relevance.
func Logistic(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// Near is a stored signal and the cosine of its vector to another's.
type Near struct {
	Signal model.Signal
	Cosine float64
}

// Nearest returns up to n of cands whose stored vectors have a cosine of
// at least least with v, nearest first, in the candidates' order among
// equals; the signal with id except (the one v stands for) and candidates
// without a vector are left out. No query is embedded and nothing is
// counted: it reads the vectors that semantic search stores.
func Nearest(v []float32, cands []store.Candidate, except string, least float64, n int) []Near {
	var near []Near
	for _, c := range cands {
		if c.Signal.ID == except || c.Vector == nil {
			continue
		}
		if cos := Cosine(v, c.Vector); cos >= least {
			near = append(near, Near{c.Signal, cos})
		}
	}
	slices.SortStableFunc(near, func(a, b Near) int { return cmp.Compare(b.Cosine, a.Cosine) })
	return near[:min(len(near), n)]
}
