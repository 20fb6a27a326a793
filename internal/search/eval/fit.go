package eval

import (
	"hash/fnv"
	"math"
	"slices"

	"signals/internal/search"
)

// fitLogistic fits weights w of P(y=1|x) = logistic(w·x) by Newton's method,
// weighting positives to balance the classes, with an L2 penalty of 1e-3.
// It stops when a step moves no weight by more than 1e-12, or after 50.
func fitLogistic(xs [][]float64, ys []float64) []float64 {
	k := len(xs[0])
	wPos := positiveWeight(ys)
	w := make([]float64, k)
	grad := make([]float64, k)
	hess := make([]float64, k*k)
	for range 50 {
		clear(grad)
		clear(hess)
		for i, x := range xs {
			var z float64
			for j := range x {
				z += w[j] * x[j]
			}
			p := search.Logistic(z)
			sw := 1.0
			if ys[i] == 1 {
				sw = wPos
			}
			g, h := sw*(p-ys[i]), sw*p*(1-p)
			for a := range k {
				grad[a] += g * x[a]
				ha, row := h*x[a], hess[a*k:(a+1)*k]
				for c := range k {
					row[c] += ha * x[c]
				}
			}
		}
		for a := range k {
			grad[a] += 1e-3 * w[a]
			hess[a*k+a] += 1e-3
		}
		step := solve(hess, grad, k)
		var largest float64
		for a := range k {
			w[a] -= step[a]
			largest = math.Max(largest, math.Abs(step[a]))
		}
		if largest <= 1e-12 {
			break
		}
	}
	return w
}

// positiveWeight is the weight of a positive sample of ys that balances
// the classes: the negatives per positive.
func positiveWeight(ys []float64) float64 {
	var pos float64
	for _, y := range ys {
		pos += y
	}
	return (float64(len(ys)) - pos) / math.Max(pos, 1)
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

// fitPrecision is the precision the builtin calibration aims for at
// search.Cutoff over the pairs of the fit halves: four matches in five
// answer the query, and no off-topic question of the fit sets matches.
const fitPrecision = 0.8

// openaiFitPrecision is the precision the openai calibration aims for.
const openaiFitPrecision = 0.6

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

// half is 0 for the queries of a set that a calibration is fitted on, 1 for
// the held-out queries: the parity of the FNV-1a hash of the query text.
func half(q string) int {
	h := fnv.New32a()
	h.Write([]byte(q))
	return int(h.Sum32() % 2)
}

// FitHalf returns the queries of set that a calibration is fitted on (see
// half); the others are held out.
func FitHalf(set Set) Set {
	fit, _ := halves(set)
	return fit
}

// halves returns the queries of set that a calibration is fitted on and the
// held-out ones.
func halves(set Set) (fit, heldOut Set) {
	fit.Description, heldOut.Description = set.Description, set.Description
	for _, q := range set.Queries {
		if half(q.Query) == 0 {
			fit.Queries = append(fit.Queries, q)
		} else {
			heldOut.Queries = append(heldOut.Queries, q)
		}
	}
	return fit, heldOut
}
