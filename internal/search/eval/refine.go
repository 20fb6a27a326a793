package eval

import (
	"math"

	"signals/internal/search/builtin"
)

// refineSteps are the factors by which refineCalibration tries to move
// Spread and Rank, one at a time.
var refineSteps = []float64{0.5, 0.7, 0.85, 0.95, 1.05, 1.18, 1.4, 2}

// refineCalibration tunes c, fitted by the two logistic regressions of
// fitBuiltinAt, for what a search returns: the regressions weigh every pair
// alike, most of them far from the cutoff, while what counts is the recall
// at the cutoff with a precision of fitPrecision. The linear score s, and so
// the ranking within a query, stays; Spread and Rank, which place each
// query's scores against its window's (its mean and spread, its tenth
// best), are searched one at a time by the factors of refineSteps, for as
// long as one raises that recall. The bias then maps the threshold of the
// new fused scores to the cutoff, and a last logistic regression of the
// labels on the fused score, with the cutoff held there, gives its slope, so
// that relevance rises from the cutoff as fast as the labels say rather
// than as fast as the search made it (which leaves most matches at 0.99
// and more). It returns the calibration without priors, and its recall.
func refineCalibration(qs []fitWindow, c builtin.Calibration) (builtin.Calibration, float64) {
	_, best := fusedThreshold(qs, c)
	for range 40 {
		improved := false
		for _, p := range []*float64{&c.Spread, &c.Rank} {
			keep := *p
			for _, f := range refineSteps {
				*p = keep * f
				if _, r := fusedThreshold(qs, c); r > best+1e-12 {
					best, keep, improved = r, *p, true
				}
			}
			*p = keep
		}
		if !improved {
			break
		}
	}
	z, ys := fusedScores(qs, c)
	thr, _, recall := recallThreshold(z, ys, fitPrecision)
	for i := range z {
		z[i] -= thr
	}
	t := fitSlope(z, ys)
	// t times the fused score: the linear weights and Spread scale with
	// it; (s−mean)/sd and Rank's s−top scale as s does.
	c.Cos, c.Lex, c.Soft, c.Facet, c.Spread = t*c.Cos, t*c.Lex, t*c.Soft, t*c.Facet, t*c.Spread
	c.Bias = cutoffLogit - t*thr
	return c, recall
}

// fusedScores returns the fused scores under c, without its bias, of the
// samples of qs, and their labels.
func fusedScores(qs []fitWindow, c builtin.Calibration) (z, ys []float64) {
	c.Bias = 0
	forWindows(qs, c, func(s []float64, q fitWindow, mean, sd, top float64) {
		for i := range s {
			if q.ys[i] >= 0 {
				z = append(z, c.Fused(s[i], mean, sd, top))
				ys = append(ys, q.ys[i])
			}
		}
	})
	return z, ys
}

// fusedThreshold returns the threshold of the fused scores under c that
// keeps fitPrecision, and the recall there (0 where none keeps it).
func fusedThreshold(qs []fitWindow, c builtin.Calibration) (thr, recall float64) {
	z, ys := fusedScores(qs, c)
	thr, _, recall = recallThreshold(z, ys, fitPrecision)
	return thr, recall
}

// fitSlope fits t of P(y=1|x) = logistic(t·x + cutoffLogit), x being a
// sample's fused score less the threshold, by the largest log-likelihood,
// positives weighted to balance the classes as in fitLogistic: the slope
// of relevance at the cutoff. The log-likelihood is concave in t, so a
// golden-section search over t in (0, 1000] finds its top (to 1e-9).
func fitSlope(xs, ys []float64) float64 {
	wPos := positiveWeight(ys)
	ll := func(t float64) float64 {
		var sum float64
		for i, x := range xs {
			z := t*x + cutoffLogit
			if ys[i] == 1 {
				sum -= wPos * math.Log1p(math.Exp(-z))
			} else {
				sum -= math.Log1p(math.Exp(z))
			}
		}
		return sum
	}
	phi := (math.Sqrt(5) - 1) / 2
	lo, hi := 0.0, 1000.0
	a, b := hi-phi*(hi-lo), lo+phi*(hi-lo)
	fa, fb := ll(a), ll(b)
	for hi-lo > 1e-9 {
		if fa < fb {
			lo, a, fa = a, b, fb
			b = lo + phi*(hi-lo)
			fb = ll(b)
		} else {
			hi, b, fb = b, a, fa
			a = hi - phi*(hi-lo)
			fa = ll(a)
		}
	}
	return (lo + hi) / 2
}
