package eval

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"signals/internal/search"
)

// CosineScorer is a scorer whose score is the cosine of a query's and a
// document's embeddings under a search.Calibration: an embeddings server,
// or a sentence-embedding model on its own. S is the scorer's own type.
type CosineScorer[S any] interface {
	search.Scorer
	// Cosines returns the cosine of the query's embedding with each
	// candidate's, before calibration.
	Cosines(ctx context.Context, query string, cands []search.Candidate) ([]float64, error)
	// WithCalibration returns a copy that scores with cal.
	WithCalibration(cal search.Calibration) (S, error)
}

// FitCosine fits the calibration of o to its model, on set over cands (what
// Candidates gave for o); give it FitHalf of a set to keep the other half
// out of the fit. Every (query, signal) pair is a
// sample, labelled 1 if the signal is relevant to the query and 0 if it is
// neither relevant nor acceptable; acceptable pairs are left out. The
// threshold is the lowest cosine at which the samples at or above it keep a
// precision of at least openaiFitPrecision, so that precision holds at the cutoff; the
// slope is that of a logistic regression of the label on the cosine, with the
// classes balanced. Both are rounded for printing: the threshold to the
// shortest decimal that keeps the same pairs, the slope to one decimal.
// It returns o with that calibration and the report of it on set, computed
// from the same embeddings: each query is embedded once, and no signal.
func FitCosine[S CosineScorer[S]](ctx context.Context, o S, cands []search.Candidate, set Set) (S, Report, error) {
	var none S
	cosines := make([][]float64, len(set.Queries))
	var cos, ys []float64
	for qi, q := range set.Queries {
		cs, err := o.Cosines(ctx, q.Query, cands)
		if err != nil {
			return none, Report{}, fmt.Errorf("query %q: %w", q.Query, err)
		}
		cosines[qi] = cs
		for i, c := range cands {
			if y := q.label(c.ID); y >= 0 {
				cos = append(cos, cs[i])
				ys = append(ys, y)
			}
		}
	}
	if !slices.Contains(ys, 1) {
		return none, Report{}, errors.New("eval: the evaluation set labels none of these signals relevant")
	}
	thr, _, _ := recallThreshold(cos, ys, openaiFitPrecision)
	if math.IsInf(thr, 1) {
		return none, Report{}, fmt.Errorf("eval: no cosine keeps a precision of %.2f over at least 10 pairs: model %s does not separate this set's relevant signals", openaiFitPrecision, o.Model())
	}
	xs := make([][]float64, len(cos))
	for i, c := range cos {
		xs[i] = []float64{1, c}
	}
	w := fitLogistic(xs, ys)
	if !(w[1] > 0) {
		return none, Report{}, fmt.Errorf("eval: relevance does not rise with cosine for model %s on this set", o.Model())
	}
	// The threshold printed must select the same pairs: the shortest decimal
	// between the last cosine kept and the first left out.
	lo, hi := math.Inf(-1), math.Inf(1)
	for _, c := range cos {
		if c < thr {
			lo = math.Max(lo, c)
		} else {
			hi = math.Min(hi, c)
		}
	}
	cal := search.Calibration{Threshold: shortestBetween(lo, hi, thr), Slope: math.Max(0.1, math.Round(w[1]*10)/10)}
	fitted, err := o.WithCalibration(cal)
	if err != nil {
		return none, Report{}, err
	}
	rep, err := evaluate(fitted.Model(), cands, set, func(q int) ([]float64, error) {
		out := make([]float64, len(cosines[q]))
		for i, c := range cosines[q] {
			out[i] = cal.Relevance(c)
		}
		return out, nil
	})
	return fitted, rep, err
}
