package search

import (
	"context"
	"math"
	"os"
	"testing"
)

// TestFitBuiltinCalibration fits DefaultBuiltinCalibration on the queries of
// the fit half of testdata/eval.json (see evalHalf) and prints it with its
// figures on both halves. It runs only with SIGNALS_FIT_CALIBRATION=1.
//
// Method: every (query, signal) pair of the fit half over the demo data set
// is a sample, labelled 1 if the signal is relevant to the query, 0 if it is
// neither relevant nor acceptable (acceptable pairs are left out). For each
// (SoftFloor, SoftFull) on a grid, a logistic regression of the label on
// (cos, lex, soft, facet) is fitted by Newton's method with positives
// weighted up to balance the classes and a small L2 penalty; its linear part
// is the score s. A second regression of the label on (s, (s−mean)/sd,
// s−top), with the window statistics of s for the query, gives the scale of
// s, Spread and Rank; the priors are the mean window statistics. The bias is
// then shifted so that the lowest fused score at which the fit samples keep a
// precision of at least fitPrecision maps to exactly Cutoff. The grid point
// with the best recall there wins; the held-out half only measures it.
func TestFitBuiltinCalibration(t *testing.T) {
	if os.Getenv("SIGNALS_FIT_CALIBRATION") != "1" {
		t.Skip("set SIGNALS_FIT_CALIBRATION=1 to fit the builtin calibration")
	}
	b := mustBuiltin(t)
	docs := demoDocs(t)
	set := readDemoEvalSet(t)
	cands, err := candidates(context.Background(), b, docs)
	if err != nil {
		t.Fatal(err)
	}
	fitSet, heldOut := splitEvalSet(set, 0), splitEvalSet(set, 1)
	best := struct {
		cal    BuiltinCalibration
		recall float64
	}{}
	for _, floor := range []float64{0.2, 0.25, 0.3, 0.35, 0.4} {
		for _, full := range []float64{0.6, 0.7, 0.8, 0.9, 1.0} {
			type query struct {
				fs []features
				ys []float64 // 1, 0, or -1 for acceptable
			}
			var qs []query
			var xs [][]float64
			var ys []float64
			for _, q := range fitSet.Queries {
				fs, err := b.features(context.Background(), q.Query, cands, floor, full)
				if err != nil {
					t.Fatal(err)
				}
				qq := query{fs: fs, ys: make([]float64, len(cands))}
				for i, c := range cands {
					if qq.ys[i] = q.label(c.ID); qq.ys[i] < 0 {
						continue
					}
					xs = append(xs, []float64{1, fs[i].Cos, fs[i].Lex, fs[i].Soft, fs[i].Facet})
					ys = append(ys, qq.ys[i])
				}
				qs = append(qs, qq)
			}
			w1 := fitLogistic(xs, ys)
			cal := BuiltinCalibration{Cos: w1[1], Lex: w1[2], Soft: w1[3], Facet: w1[4], SoftFloor: floor, SoftFull: full}
			// Window statistics of s, without priors (full windows).
			var xs2 [][]float64
			var pm, psd, ptop float64
			for _, q := range qs {
				s := make([]float64, len(q.fs))
				for i, f := range q.fs {
					s[i] = cal.linear(f)
				}
				mean, sd, top := rawWindowStats(s)
				sd = math.Max(sd, 1e-9)
				pm, psd, ptop = pm+mean, psd+sd, ptop+top
				for i := range s {
					if q.ys[i] >= 0 {
						xs2 = append(xs2, []float64{1, s[i], (s[i] - mean) / sd, s[i] - top})
					}
				}
			}
			nq := float64(len(qs))
			w2 := fitLogistic(xs2, ys)
			z := make([]float64, len(xs2))
			for i, x := range xs2 {
				for k := range x {
					z[i] += w2[k] * x[k]
				}
			}
			thr, p, r := recallThreshold(z, ys, fitPrecision)
			a := w2[1]
			cal = BuiltinCalibration{
				Bias: w2[0] - thr + math.Log(Cutoff/(1-Cutoff)),
				Cos:  a * w1[1], Lex: a * w1[2], Soft: a * w1[3], Facet: a * w1[4],
				Spread: w2[2], Rank: w2[3] / a,
				PriorMean: a * pm / nq, PriorSD: a * psd / nq, PriorTop: a * ptop / nq,
				SoftFloor: floor, SoftFull: full,
			}
			fit, err := EvaluateSet(context.Background(), b.WithCalibration(cal), docs, fitSet)
			if err != nil {
				t.Fatal(err)
			}
			held, err := EvaluateSet(context.Background(), b.WithCalibration(cal), docs, heldOut)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("floor %.2f full %.2f: samples precision %.3f recall %.3f; fit half recall %.3f precision %.3f nDCG@10 %.3f off-topic %d; held-out recall %.3f precision %.3f nDCG@10 %.3f off-topic %d",
				floor, full, p, r, fit.Recall, fit.Precision, fit.NDCG10, fit.OffTopicMatches, held.Recall, held.Precision, held.NDCG10, held.OffTopicMatches)
			if r > best.recall {
				best.cal, best.recall = cal, r
			}
		}
	}
	c := best.cal
	t.Logf("best: recall %.3f\nBuiltinCalibration{Bias: %.3f, Cos: %.3f, Lex: %.3f, Soft: %.3f, Facet: %.3f, Spread: %.3f, Rank: %.3f, PriorMean: %.3f, PriorSD: %.3f, PriorTop: %.3f, SoftFloor: %.2f, SoftFull: %.2f}",
		best.recall, c.Bias, c.Cos, c.Lex, c.Soft, c.Facet, c.Spread, c.Rank, c.PriorMean, c.PriorSD, c.PriorTop, c.SoftFloor, c.SoftFull)
}
