package eval

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"signals/internal/search"
	"signals/internal/search/builtin"
	"signals/internal/search/openai"
	"signals/internal/search/searchtest"
)

// TestFitBuiltin fits the builtin calibration on the demo data and checks
// that the result is the calibration the scorer ships with (calibration.json
// is what the fit gives, not numbers pasted by hand) and that its figures
// are what the fitted scorer gives when it searches.
func TestFitBuiltin(t *testing.T) {
	b := mustBuiltin(t)
	docs := demoDocs(t)
	set := readDemoSet(t)
	fit, err := FitBuiltin(context.Background(), b, demoCandidates(t, b), set, false)
	if err != nil {
		t.Fatal(err)
	}
	if fit.Calibration != b.Calibration() {
		t.Errorf("fitted %+v\nshipped %+v\nrun go run ./cmd/signals eval-search --fit --write internal/search/builtin/calibration.json", fit.Calibration, b.Calibration())
	}
	if fit.Scorer.Model() != b.Model() {
		t.Errorf("the fitted scorer is model %s, the shipped one %s", fit.Scorer.Model(), b.Model())
	}
	if n := fit.FitHalf.Queries + fit.HeldOut.Queries; n != len(set.Queries) || fit.FitHalf.Queries == 0 || fit.HeldOut.Queries == 0 {
		t.Errorf("halves of %d and %d queries, of %d", fit.FitHalf.Queries, fit.HeldOut.Queries, len(set.Queries))
	}
	again, err := EvaluateSet(context.Background(), fit.Scorer, docs, set)
	if err != nil {
		t.Fatal(err)
	}
	if again.Hits != fit.Report.Hits || again.Matches != fit.Report.Matches || math.Abs(again.NDCG10-fit.Report.NDCG10) > 1e-9 {
		t.Errorf("fitted scorer: %d hits of %d matches, nDCG %.4f; the fit reported %d of %d, %.4f", again.Hits, again.Matches, again.NDCG10, fit.Report.Hits, fit.Report.Matches, fit.Report.NDCG10)
	}
}

func TestFitBuiltinWithoutLabels(t *testing.T) {
	set := Set{Queries: []Query{{Query: "chocolate cake recipe"}, {Query: "knitting patterns"}, {Query: "tide tables"}}}
	b := mustBuiltin(t)
	_, err := FitBuiltin(context.Background(), b, demoCandidates(t, b), set, false)
	if err == nil || !strings.Contains(err.Error(), "labels none of these signals relevant") {
		t.Errorf("a set without relevant signals: %v", err)
	}
}

// embeddingsServer starts an OpenAI-compatible embeddings server that embeds
// with embed, and returns a scorer for it and its count of requests.
func embeddingsServer(t *testing.T, embed func(string) []float32) (*openai.Scorer, *atomic.Int32) {
	t.Helper()
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		requests.Add(1)
		searchtest.WriteEmbeddings(w, req.Input, embed)
	}))
	t.Cleanup(srv.Close)
	o, err := openai.New(srv.URL, "test-embed", "", 5*time.Second, openai.DefaultCalibration)
	if err != nil {
		t.Fatal(err)
	}
	return o, &requests
}

func TestFitCosine(t *testing.T) {
	docs := demoDocs(t)
	set := readDemoSet(t)
	o, requests := embeddingsServer(t, searchtest.BagOfWords)
	o.Batch = 100
	fitted, rep, err := FitCosine(context.Background(), o, demoCandidates(t, o), set)
	if err != nil {
		t.Fatal(err)
	}
	cal := fitted.Calibration()
	t.Logf("fitted %+v: %s", cal, rep.String()[:strings.Index(rep.String(), "\nkind")])
	if o.Calibration() != openai.DefaultCalibration {
		t.Errorf("FitCosine changed the scorer it was given")
	}
	if cal == openai.DefaultCalibration || cal.Threshold <= 0 || cal.Threshold >= 1 || cal.Slope <= 0 {
		t.Errorf("calibration %+v", cal)
	}
	// Every doc and every query is embedded once.
	wantRequests := (len(docs)+o.Batch-1)/o.Batch + len(set.Queries)
	if n := int(requests.Load()); n != wantRequests {
		t.Errorf("%d embeddings requests, want %d", n, wantRequests)
	}
	if rep.Precision < openaiFitPrecision || rep.Recall <= 0 || rep.Matches < 10 {
		t.Errorf("fitted report: recall %.3f precision %.3f over %d matches; want precision at least %.2f", rep.Recall, rep.Precision, rep.Matches, openaiFitPrecision)
	}
	// The report is what the fitted scorer gives when it searches.
	again, err := EvaluateSet(context.Background(), fitted, docs, set)
	if err != nil {
		t.Fatal(err)
	}
	if again.Hits != rep.Hits || again.Matches != rep.Matches || math.Abs(again.NDCG10-rep.NDCG10) > 1e-9 {
		t.Errorf("fitted scorer: %d hits of %d matches, nDCG %.4f; the fit reported %d of %d, %.4f", again.Hits, again.Matches, again.NDCG10, rep.Hits, rep.Matches, rep.NDCG10)
	}
	// The default calibration does not suit this model: its threshold is not
	// the one that holds the precision.
	def, err := EvaluateSet(context.Background(), o, docs, set)
	if err != nil {
		t.Fatal(err)
	}
	if def.Hits == rep.Hits && def.Matches == rep.Matches {
		t.Errorf("the default calibration gives the same matches as the fitted one")
	}
}

func TestFitCosineWithoutSeparation(t *testing.T) {
	o, _ := embeddingsServer(t, func(string) []float32 { return []float32{1, 2, 3} })
	_, _, err := FitCosine(context.Background(), o, demoCandidates(t, o), readDemoSet(t))
	if err == nil || !strings.Contains(err.Error(), "does not separate") {
		t.Fatalf("a model that gives every text the same vector: %v", err)
	}
}

func TestShortestBetween(t *testing.T) {
	for _, tc := range []struct{ lo, hi, want float64 }{
		{0.30857, 0.30866, 0.3086},
		{0.2, 0.9, 0.6},
		{0.41, 0.42, 0.415},
		{-0.05, 0.05, 0},
		{0.123456789, 0.1234568, 0.12345679},
		{0.5, 0.5, 0.5}, // no decimal strictly between: the midpoint
	} {
		got := shortestBetween(tc.lo, tc.hi, (tc.lo+tc.hi)/2)
		if !(got > tc.lo && got < tc.hi) && tc.lo != tc.hi {
			t.Errorf("shortestBetween(%v, %v) = %v: not strictly between", tc.lo, tc.hi, got)
		}
		if math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("shortestBetween(%v, %v) = %v, want %v", tc.lo, tc.hi, got, tc.want)
		}
	}
}

// TestRefineCalibration refines the word vectors' fit on the fit half: the
// recall at the cutoff with a precision of fitPrecision does not fall, the
// ranking within each query stays, and the fused scores' threshold maps to
// the cutoff.
func TestRefineCalibration(t *testing.T) {
	b := mustBuiltin(t)
	ctx := context.Background()
	cands := demoCandidates(t, b)
	fitSet, _ := halves(readDemoSet(t))
	train := trainingQueries(b, fitSet)
	bounds := builtin.SoftBounds{Floor: b.Calibration().SoftFloor, Full: b.Calibration().SoftFull}
	fs := make([][]builtin.Features, len(train.Queries))
	for i, q := range train.Queries {
		all, _, err := b.FeaturesFor(ctx, q.Query, cands, []builtin.SoftBounds{bounds})
		if err != nil {
			t.Fatal(err)
		}
		fs[i] = all[0]
	}
	plain, recall, err := fitBuiltinAt(cands, train, fs, bounds, false)
	if err != nil {
		t.Fatal(err)
	}
	refined, refinedRecall, err := fitBuiltinAt(cands, train, fs, bounds, true)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("recall %.3f -> %.3f; spread %.3f -> %.3f, rank %.3f -> %.3f", recall, refinedRecall, plain.Spread, refined.Spread, plain.Rank, refined.Rank)
	if refinedRecall < recall || refinedRecall == 0 {
		t.Errorf("refined recall %.3f, before %.3f", refinedRecall, recall)
	}
	for _, q := range fs {
		for i := range q {
			for j := range q {
				if (plain.Linear(q[i]) < plain.Linear(q[j])) != (refined.Linear(q[i]) < refined.Linear(q[j])) {
					t.Fatalf("the refined calibration ranks %+v and %+v otherwise", q[i], q[j])
				}
			}
		}
	}
	thr, got := fusedThreshold(fitWindows(cands, train, fs), refined)
	if math.Abs(got-refinedRecall) > 1e-12 || math.Abs(refined.Bias+thr-cutoffLogit) > 1e-9 {
		t.Errorf("threshold %.4f, bias %.4f: the threshold maps to %.4f, want the cutoff's %.4f", thr, refined.Bias, refined.Bias+thr, cutoffLogit)
	}
}

// TestFitSlope: the slope fitSlope finds is the top of the log-likelihood.
func TestFitSlope(t *testing.T) {
	var xs, ys []float64
	for i := range 400 {
		x := float64(i%40-20) / 10
		xs = append(xs, x)
		y := 0.0
		if search.Logistic(1.5*x+cutoffLogit) > float64(i%7)/7 {
			y = 1
		}
		ys = append(ys, y)
	}
	ll := func(t float64) float64 {
		var pos float64
		for _, y := range ys {
			pos += y
		}
		w := (float64(len(ys)) - pos) / pos
		var sum float64
		for i, x := range xs {
			p := search.Logistic(t*x + cutoffLogit)
			if ys[i] == 1 {
				sum += w * math.Log(p)
			} else {
				sum += math.Log(1 - p)
			}
		}
		return sum
	}
	slope := fitSlope(xs, ys)
	if slope <= 0 || ll(slope) < ll(slope*1.01) || ll(slope) < ll(slope*0.99) {
		t.Errorf("slope %.4f is not the top of the log-likelihood", slope)
	}
}
