package search

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
)

// fitLogistic fits weights w of P(y=1|x) = logistic(w·x) by Newton's method,
// weighting positives to balance the classes, with an L2 penalty of 1e-3.
func fitLogistic(xs [][]float64, ys []float64) []float64 {
	k := len(xs[0])
	var pos float64
	for _, y := range ys {
		pos += y
	}
	wPos := (float64(len(ys)) - pos) / math.Max(pos, 1)
	w := make([]float64, k)
	for range 50 {
		grad := make([]float64, k)
		hess := make([]float64, k*k)
		for i, x := range xs {
			var z float64
			for j := range x {
				z += w[j] * x[j]
			}
			p := logistic(z)
			sw := 1.0
			if ys[i] == 1 {
				sw = wPos
			}
			for a := range k {
				grad[a] += sw * (p - ys[i]) * x[a]
				for c := range k {
					hess[a*k+c] += sw * p * (1 - p) * x[a] * x[c]
				}
			}
		}
		for a := range k {
			grad[a] += 1e-3 * w[a]
			hess[a*k+a] += 1e-3
		}
		step := solve(hess, grad, k)
		for a := range k {
			w[a] -= step[a]
		}
	}
	return w
}

// solve solves A·x = b by Gaussian elimination with partial pivoting.
func solve(a, b []float64, n int) []float64 {
	a, b = slices.Clone(a), slices.Clone(b)
	for c := range n {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(a[r*n+c]) > math.Abs(a[p*n+c]) {
				p = r
			}
		}
		for j := range n {
			a[c*n+j], a[p*n+j] = a[p*n+j], a[c*n+j]
		}
		b[c], b[p] = b[p], b[c]
		for r := c + 1; r < n; r++ {
			f := a[r*n+c] / a[c*n+c]
			for j := c; j < n; j++ {
				a[r*n+j] -= f * a[c*n+j]
			}
			b[r] -= f * b[c]
		}
	}
	x := make([]float64, n)
	for r := n - 1; r >= 0; r-- {
		s := b[r]
		for j := r + 1; j < n; j++ {
			s -= a[r*n+j] * x[j]
		}
		x[r] = s / a[r*n+r]
	}
	return x
}

// fitPrecision is the precision the calibration aims for at Cutoff.
const fitPrecision = 0.6

// recallThreshold returns the lowest score threshold (inclusive) at which the
// samples scoring at or above it have a precision of at least target, with
// that precision and the recall.
func recallThreshold(z, ys []float64, target float64) (thr, precision, recall float64) {
	idx := make([]int, len(z))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return -cmpFloat(z[a], z[b]) })
	var pos float64
	for _, y := range ys {
		pos += y
	}
	var tp, n float64
	thr = math.Inf(1)
	for k, i := range idx {
		n++
		tp += ys[i]
		if k+1 < len(idx) && z[idx[k+1]] == z[i] {
			continue
		}
		if tp/n >= target && n >= 10 {
			precision, recall = tp/n, tp/pos
			thr = z[i]
			if k+1 < len(idx) {
				thr = (z[i] + z[idx[k+1]]) / 2
			}
		}
	}
	return thr, precision, recall
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// FitOpenAI fits the calibration of o to the model it talks to, on set over
// docs (given newest first, as for Evaluate). Every (query, signal) pair is a
// sample, labelled 1 if the signal is relevant to the query and 0 if it is
// neither relevant nor acceptable; acceptable pairs are left out. The
// threshold is the lowest cosine at which the samples at or above it keep a
// precision of at least fitPrecision, so that precision holds at Cutoff; the
// slope is that of a logistic regression of the label on the cosine, with the
// classes balanced. Both are rounded for printing: the threshold to the
// shortest decimal that keeps the same pairs, the slope to one decimal.
// It returns o with that calibration and the report of it on set, computed
// from the same embeddings: each doc and query is embedded once.
func FitOpenAI(ctx context.Context, o *OpenAI, docs []Doc, set EvalSet) (*OpenAI, Report, error) {
	cands, err := candidates(ctx, o, docs)
	if err != nil {
		return nil, Report{}, err
	}
	cosines := make([][]float64, len(set.Queries))
	var cos, ys []float64
	for qi, q := range set.Queries {
		cs, err := o.cosines(ctx, q.Query, cands)
		if err != nil {
			return nil, Report{}, fmt.Errorf("query %q: %w", q.Query, err)
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
		return nil, Report{}, errors.New("search: the evaluation set labels none of these signals relevant")
	}
	thr, _, _ := recallThreshold(cos, ys, fitPrecision)
	if math.IsInf(thr, 1) {
		return nil, Report{}, fmt.Errorf("search: no cosine keeps a precision of %.2f over at least 10 pairs: model %s does not separate this set's relevant signals", fitPrecision, o.model)
	}
	xs := make([][]float64, len(cos))
	for i, c := range cos {
		xs[i] = []float64{1, c}
	}
	w := fitLogistic(xs, ys)
	if !(w[1] > 0) {
		return nil, Report{}, fmt.Errorf("search: relevance does not rise with cosine for model %s on this set", o.model)
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
	cal := OpenAICalibration{Threshold: shortestBetween(lo, hi, thr), Slope: math.Max(0.1, math.Round(w[1]*10)/10)}
	fitted, err := o.WithCalibration(cal)
	if err != nil {
		return nil, Report{}, err
	}
	rep, err := evaluate(fitted.Model(), cands, set, func(q int) ([]float64, error) {
		out := make([]float64, len(cosines[q]))
		for i, c := range cosines[q] {
			out[i] = cal.relevance(c)
		}
		return out, nil
	})
	return fitted, rep, err
}

// shortestBetween returns mid rounded to the fewest decimals that keep it
// strictly between lo and hi, or mid itself if no rounding does.
func shortestBetween(lo, hi, mid float64) float64 {
	for d := range 17 {
		p := math.Pow(10, float64(d))
		if c := math.Round(mid*p) / p; c > lo && c < hi {
			return c
		}
	}
	return mid
}
