package search

import (
	"context"
	"math"
	"os"
	"slices"
	"testing"
)

// TestFitBuiltinCalibration fits DefaultBuiltinCalibration on the evaluation
// set and prints it. It runs only with SIGNALS_FIT_CALIBRATION=1.
//
// Method: every (query, signal) pair of testdata/eval.json over the demo data
// set is a sample, labelled 1 if the signal is relevant to the query, 0 if it
// is neither relevant nor acceptable (acceptable pairs are left out). For each
// (SoftFloor, SoftFull) on a grid, a logistic regression of the label on
// (cos, lex, soft) is fitted by Newton's method with positives weighted up to
// balance the classes and a small L2 penalty; the bias is then shifted so that
// the fused score with the best F1 maps to exactly Cutoff. The grid point with
// the best F1 wins.
func TestFitBuiltinCalibration(t *testing.T) {
	if os.Getenv("SIGNALS_FIT_CALIBRATION") != "1" {
		t.Skip("set SIGNALS_FIT_CALIBRATION=1 to fit the builtin calibration")
	}
	b := mustBuiltin(t)
	docs := demoDocs(t)
	set := readDemoEvalSet(t)
	texts := make([]string, len(docs))
	for i, d := range docs {
		texts[i] = cut(d.Text, CandidateChars)
	}
	vecs, err := b.EmbedDocuments(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	cands := make([]Candidate, len(docs))
	for i, d := range docs {
		cands[i] = Candidate{ID: d.ID, Text: texts[i], Vector: vecs[i]}
	}
	best := struct {
		cal BuiltinCalibration
		f1  float64
	}{}
	for _, floor := range []float64{0.2, 0.25, 0.3, 0.35, 0.4} {
		for _, full := range []float64{0.6, 0.7, 0.8, 0.9, 1.0} {
			var xs [][]float64
			var ys []float64
			var fold []int
			for qi, q := range set.Queries {
				fs, err := b.features(context.Background(), q.Query, cands, floor, full)
				if err != nil {
					t.Fatal(err)
				}
				for i, c := range cands {
					y := 0.0
					if slices.Contains(q.Relevant, c.ID) {
						y = 1
					} else if slices.Contains(q.Acceptable, c.ID) {
						continue
					}
					xs = append(xs, []float64{1, fs[i].Cos, fs[i].Lex, fs[i].Soft, fs[i].Facet})
					ys = append(ys, y)
					fold = append(fold, qi%2)
				}
			}
			w := fitLogistic(xs, ys)
			z := make([]float64, len(xs))
			for i, x := range xs {
				for k := range x {
					z[i] += w[k] * x[k]
				}
			}
			thr, f1, p, r := bestThreshold(z, ys)
			cal := BuiltinCalibration{Bias: w[0] - thr + math.Log(Cutoff/(1-Cutoff)), Cos: w[1], Lex: w[2], Soft: w[3], Facet: w[4], SoftFloor: floor, SoftFull: full}
			cvP, cvR := crossValidate(xs, ys, fold)
			t.Logf("floor %.2f full %.2f: F1 %.3f precision %.3f recall %.3f (2-fold by query: precision %.3f recall %.3f)  %+v", floor, full, f1, p, r, cvP, cvR, cal)
			if f1 > best.f1 {
				best.cal, best.f1 = cal, f1
			}
		}
	}
	t.Logf("best: F1 %.3f\nBuiltinCalibration{Bias: %.3f, Cos: %.3f, Lex: %.3f, Soft: %.3f, Facet: %.3f, SoftFloor: %.2f, SoftFull: %.2f}",
		best.f1, best.cal.Bias, best.cal.Cos, best.cal.Lex, best.cal.Soft, best.cal.Facet, best.cal.SoftFloor, best.cal.SoftFull)
}

// crossValidate fits on the samples of one fold of queries and counts
// matches on the other, both ways, and returns the pooled precision and
// recall: an estimate of the figures on queries the calibration has not seen.
func crossValidate(xs [][]float64, ys []float64, fold []int) (precision, recall float64) {
	var tp, matches, pos float64
	for f := range 2 {
		var trX [][]float64
		var trY []float64
		for i := range xs {
			if fold[i] != f {
				trX, trY = append(trX, xs[i]), append(trY, ys[i])
			}
		}
		w := fitLogistic(trX, trY)
		z := make([]float64, len(trX))
		for i, x := range trX {
			for k := range x {
				z[i] += w[k] * x[k]
			}
		}
		thr, _, _, _ := bestThreshold(z, trY)
		for i, x := range xs {
			if fold[i] != f {
				continue
			}
			var zi float64
			for k := range x {
				zi += w[k] * x[k]
			}
			pos += ys[i]
			if zi >= thr {
				matches++
				tp += ys[i]
			}
		}
	}
	return tp / math.Max(matches, 1), tp / math.Max(pos, 1)
}

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

// bestThreshold returns the score threshold (inclusive) with the best F1, and
// that F1 with its precision and recall.
func bestThreshold(z, ys []float64) (thr, f1, precision, recall float64) {
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
	for k, i := range idx {
		n++
		tp += ys[i]
		if k+1 < len(idx) && z[idx[k+1]] == z[i] {
			continue
		}
		p, r := tp/n, tp/pos
		if p+r > 0 && 2*p*r/(p+r) > f1 {
			f1, precision, recall = 2*p*r/(p+r), p, r
			thr = z[i]
			if k+1 < len(idx) {
				thr = (z[i] + z[idx[k+1]]) / 2
			}
		}
	}
	return thr, f1, precision, recall
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
