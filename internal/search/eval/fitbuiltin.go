package eval

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"signals/internal/search"
	"signals/internal/search/builtin"
)

// The grid of soft-match bounds (Calibration.SoftFloor and SoftFull) that
// FitBuiltin tries.
var (
	softFloors = []float64{0.2, 0.25, 0.3, 0.35, 0.4}
	softFulls  = []float64{0.6, 0.7, 0.8, 0.9, 1.0}
)

// BuiltinFit is a builtin calibration fitted by FitBuiltin, with the figures
// it gives.
type BuiltinFit struct {
	Calibration builtin.Calibration
	// Scorer scores with Calibration.
	Scorer *builtin.Scorer
	// Report is on the whole set; FitHalf on the queries the calibration
	// was fitted on, HeldOut on the others.
	Report, FitHalf, HeldOut Report
}

// FitBuiltin fits the calibration of b on one half of the queries of set
// over cands (what Candidates gave for b); the other half is held out to
// measure it (see halves).
//
// Every (query, signal) pair of the fit half is a sample, labelled 1 if the
// signal is relevant to the query and 0 if it is neither relevant nor
// acceptable (acceptable pairs are left out), except the pairs the scorer
// bars (a signal of another kind or place than asked, see
// builtin.Features), the queries it answers as a browse (only a kind, a
// place or a name) and, with an encoder, the queries it scores without it
// (builtin.Scorer.UsesEncoder): no calibration changes those. For each (SoftFloor, SoftFull)
// of a grid, a logistic regression of the label on (cos, lex, soft, facet)
// gives the linear score s. A second regression of the label on
// (s, (s−mean)/sd, s−top), with the window statistics of s for the query,
// gives the scale of s, Spread and Rank; the priors are the mean window
// statistics. The bias is then shifted so that the lowest fused score at
// which the samples keep a precision of at least fitPrecision maps to exactly
// the cutoff. With refine, Spread and Rank are then searched for the best
// recall at that precision and the slope refitted (see refineCalibration).
// The grid point with the best recall there wins. Its numbers
// are rounded to three decimals, as calibration.json keeps them, and the
// figures are those of the rounded calibration.
func FitBuiltin(ctx context.Context, b *builtin.Scorer, cands []search.Candidate, set Set, refine bool) (BuiltinFit, error) {
	var err error
	fitSet, heldOut := halves(set)
	var grid []builtin.SoftBounds
	for _, floor := range softFloors {
		for _, full := range softFulls {
			grid = append(grid, builtin.SoftBounds{Floor: floor, Full: full})
		}
	}
	// features[q][g]: the features of the candidates for query q of the fit
	// half under the bounds grid[g].
	train := trainingQueries(b, fitSet)
	features := make([][][]builtin.Features, len(train.Queries))
	for qi, q := range train.Queries {
		if features[qi], _, err = b.FeaturesFor(ctx, q.Query, cands, grid); err != nil {
			return BuiltinFit{}, err
		}
	}
	var best struct {
		cal    builtin.Calibration
		recall float64
	}
	for g, bounds := range grid {
		fs := make([][]builtin.Features, len(features))
		for qi := range features {
			fs[qi] = features[qi][g]
		}
		cal, recall, err := fitBuiltinAt(cands, train, fs, bounds, refine)
		if err != nil {
			return BuiltinFit{}, err
		}
		if recall > best.recall {
			best.cal, best.recall = cal, recall
		}
	}
	if best.recall == 0 {
		return BuiltinFit{}, fmt.Errorf("eval: no calibration keeps a precision of %.2f over at least 10 pairs of the set's fit half", fitPrecision)
	}
	fit := BuiltinFit{Calibration: roundCalibration(best.cal)}
	if fit.Scorer, err = b.WithCalibration(fit.Calibration); err != nil {
		return BuiltinFit{}, err
	}
	// Every query's relevances once; the halves are subsets of the set.
	scores := map[string][]float64{}
	for _, q := range set.Queries {
		if scores[q.Query], err = fit.Scorer.Score(ctx, q.Query, cands); err != nil {
			return BuiltinFit{}, fmt.Errorf("query %q: %w", q.Query, err)
		}
	}
	for _, r := range []struct {
		set Set
		rep *Report
	}{{set, &fit.Report}, {fitSet, &fit.FitHalf}, {heldOut, &fit.HeldOut}} {
		if *r.rep, err = evaluate(fit.Scorer.Model(), cands, r.set, func(q int) ([]float64, error) {
			return scores[r.set.Queries[q].Query], nil
		}); err != nil {
			return BuiltinFit{}, err
		}
	}
	return fit, nil
}

// trainingQueries returns the queries of set whose scores b's calibration
// decides. Queries that ask only for a kind or a place are answered by the
// signals of that tag and place, whatever the calibration; those in a
// language b's encoder does not read are scored without it, under the
// calibration b had before it.
func trainingQueries(b *builtin.Scorer, set Set) Set {
	set.Queries = slices.DeleteFunc(slices.Clone(set.Queries), func(q Query) bool {
		return b.Browses(q.Query) || (b.Encoder() != nil && !b.UsesEncoder(q.Query))
	})
	return set
}

// fitBuiltinAt fits a calibration with the soft bounds of the features fs
// (fs[q] for the query at index q of set), and returns it with the recall of
// the samples at the cutoff, 0 if no threshold keeps the precision.
func fitBuiltinAt(cands []search.Candidate, set Set, fs [][]builtin.Features, bounds builtin.SoftBounds, refine bool) (builtin.Calibration, float64, error) {
	qs := fitWindows(cands, set, fs)
	var xs [][]float64
	var ys []float64
	for _, q := range qs {
		for i, f := range q.fs {
			if q.ys[i] >= 0 {
				xs = append(xs, []float64{1, f.Cos, f.Lex, f.Soft, f.Facet})
				ys = append(ys, q.ys[i])
			}
		}
	}
	if !slices.Contains(ys, 1) {
		return builtin.Calibration{}, 0, errors.New("eval: the evaluation set's fit half labels none of these signals relevant")
	}
	w1 := fitLogistic(xs, ys)
	linear := builtin.Calibration{Cos: w1[1], Lex: w1[2], Soft: w1[3], Facet: w1[4]}
	// Window statistics of s, without priors (full windows).
	var xs2 [][]float64
	forWindows(qs, linear, func(s []float64, q fitWindow, mean, sd, top float64) {
		for i := range s {
			if q.ys[i] >= 0 {
				xs2 = append(xs2, []float64{1, s[i], (s[i] - mean) / sd, s[i] - top})
			}
		}
	})
	w2 := fitLogistic(xs2, ys)
	z := make([]float64, len(xs2))
	for i, x := range xs2 {
		for k := range x {
			z[i] += w2[k] * x[k]
		}
	}
	thr, _, recall := recallThreshold(z, ys, fitPrecision)
	if math.IsInf(thr, 1) {
		return builtin.Calibration{}, 0, nil // no threshold keeps the precision
	}
	a := w2[1]
	c := builtin.Calibration{
		Bias: w2[0] - thr + cutoffLogit,
		Cos:  a * w1[1], Lex: a * w1[2], Soft: a * w1[3], Facet: a * w1[4],
		Spread: w2[2], Rank: w2[3] / a,
		SoftFloor: bounds.Floor, SoftFull: bounds.Full,
	}
	if refine {
		c, recall = refineCalibration(qs, c)
	}
	c.PriorMean, c.PriorSD, c.PriorTop = priors(qs, c)
	return c, recall, nil
}

// cutoffLogit is the fused score that maps to search.Cutoff.
var cutoffLogit = math.Log(search.Cutoff / (1 - search.Cutoff))

// fitWindow is one query's window of a fit: the candidates' features and
// their labels (1, 0, or -1 for acceptable and barred pairs, which are no
// samples).
type fitWindow struct {
	fs []builtin.Features
	ys []float64
}

// fitWindows returns the window of each query of set, fs[q] being the
// features of cands for the query at index q.
func fitWindows(cands []search.Candidate, set Set, fs [][]builtin.Features) []fitWindow {
	qs := make([]fitWindow, len(set.Queries))
	for qi, q := range set.Queries {
		qs[qi] = fitWindow{fs: fs[qi], ys: make([]float64, len(cands))}
		for i, c := range cands {
			if qs[qi].ys[i] = q.label(c.ID); qs[qi].ys[i] >= 0 && fs[qi][i].Barred {
				qs[qi].ys[i] = -1 // cannot match, whatever the calibration
			}
		}
	}
	return qs
}

// forWindows calls f for each window of qs that has candidates that are
// not barred, with the linear scores s of all its candidates under c and
// the statistics of those that are not barred, without priors (full
// windows).
func forWindows(qs []fitWindow, c builtin.Calibration, f func(s []float64, q fitWindow, mean, sd, top float64)) {
	for _, q := range qs {
		s := make([]float64, len(q.fs))
		var open []float64
		for i, feat := range q.fs {
			s[i] = c.Linear(feat)
			if !feat.Barred {
				open = append(open, s[i])
			}
		}
		if len(open) == 0 {
			continue
		}
		mean, sd, top := builtin.WindowStats(open)
		f(s, q, mean, math.Max(sd, 1e-9), top)
	}
}

// priors are the mean window statistics of the linear scores under c.
func priors(qs []fitWindow, c builtin.Calibration) (mean, sd, top float64) {
	var n float64
	forWindows(qs, c, func(_ []float64, _ fitWindow, m, s, t float64) {
		mean, sd, top, n = mean+m, sd+s, top+t, n+1
	})
	return mean / n, sd / n, top / n
}

// roundCalibration rounds the numbers of c to three decimals.
func roundCalibration(c builtin.Calibration) builtin.Calibration {
	for _, x := range []*float64{&c.Bias, &c.Cos, &c.Lex, &c.Soft, &c.Facet, &c.Spread, &c.Rank,
		&c.PriorMean, &c.PriorSD, &c.PriorTop, &c.SoftFloor, &c.SoftFull} {
		*x = math.Round(*x*1000) / 1000
	}
	return c
}
