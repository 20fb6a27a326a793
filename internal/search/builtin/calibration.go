package builtin

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"signals/internal/search"
)

// Calibration maps the builtin features to relevance in two steps. First a
// linear score per candidate:
//
//	s = Cos·cos + Lex·lex + Soft·soft + Facet·facet
//
// then the relevance, from s and where s stands in the window:
//
//	relevance = logistic(Bias + s + Spread·(s − mean)/sd + Rank·(s − top))
//
// where mean and sd are the mean and standard deviation of s over the window
// and top is its 10th highest value: a candidate that stands clearly above
// the window's background for this query gains, one among many similar
// candidates loses. For a window of n candidates the three statistics are
// blended with the priors (typical values over full windows) by weight
// n/(n+20), so small windows are judged mostly on s.
type Calibration struct {
	Bias   float64 `json:"bias"`
	Cos    float64 `json:"cos"`
	Lex    float64 `json:"lex"`
	Soft   float64 `json:"soft"`
	Facet  float64 `json:"facet"`
	Spread float64 `json:"spread"`
	Rank   float64 `json:"rank"`
	// PriorMean, PriorSD and PriorTop are the typical window mean, standard
	// deviation and 10th highest value of s.
	PriorMean float64 `json:"prior_mean"`
	PriorSD   float64 `json:"prior_sd"`
	PriorTop  float64 `json:"prior_top"`
	// SoftFloor is the word cosine below which two words count as unrelated,
	// SoftFull the one from which they count as the same word; in between the
	// match counts linearly.
	SoftFloor float64 `json:"soft_floor"`
	SoftFull  float64 `json:"soft_full"`
}

// calibrationFile is the calibration the scorer ships with, written by
//
//	go run ./cmd/signals eval-search --fit --write internal/search/builtin/calibration.json
//
// (eval.FitBuiltin describes the method). Refit after changing the features,
// the vectors or a word table: a test of eval-search fails until the file is
// what the fit gives on the committed data.
//
//go:embed calibration.json
var calibrationFile []byte

// Validate reports whether c can calibrate: finite numbers, a positive
// PriorSD and SoftFloor below SoftFull.
func (c Calibration) Validate() error {
	for _, x := range []float64{c.Bias, c.Cos, c.Lex, c.Soft, c.Facet, c.Spread, c.Rank, c.PriorMean, c.PriorSD, c.PriorTop, c.SoftFloor, c.SoftFull} {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("builtin: calibration has a value that is not a finite number: %+v", c)
		}
	}
	if !(c.PriorSD > 0) || !(c.SoftFloor < c.SoftFull) {
		return fmt.Errorf("builtin: calibration needs prior_sd > 0 and soft_floor < soft_full, got %+v", c)
	}
	return nil
}

// EncodeCalibration returns c as calibration.json holds it.
func EncodeCalibration(c Calibration) ([]byte, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	b, err := json.MarshalIndent(c, "", "  ")
	return append(b, '\n'), err
}

// ParseCalibration reads what EncodeCalibration writes.
func ParseCalibration(b []byte) (Calibration, error) { return decodeCalibration(b) }

// decodeCalibration reads what EncodeCalibration writes.
func decodeCalibration(b []byte) (Calibration, error) {
	var c Calibration
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return Calibration{}, fmt.Errorf("builtin: calibration: %w", err)
	}
	return c, c.Validate()
}

// Features are the raw, uncalibrated signals of one candidate (see Scorer).
type Features struct {
	Cos, Lex, Soft, Facet float64
	// Barred: the candidate disagrees with what the query asks for (its
	// kind, its place, or a name it lacks; see asks) and cannot match,
	// whatever its other features.
	Barred bool
}

// Linear is the first step of the calibration: the linear score s of f.
func (c Calibration) Linear(f Features) float64 {
	return c.Cos*f.Cos + c.Lex*f.Lex + c.Soft*f.Soft + c.Facet*f.Facet
}

// Fused is the second step of the calibration: the fused score of a
// candidate of linear score s in a window of statistics mean, sd and top,
// whose logistic is its relevance.
func (c Calibration) Fused(s, mean, sd, top float64) float64 {
	return c.Bias + s + c.Spread*(s-mean)/sd + c.Rank*(s-top)
}

// windowTopRank is the rank, from the best, of the window statistic top.
const windowTopRank = 10

// windowPrior is the window size at which the window's own statistics and
// the priors weigh the same.
const windowPrior = 20

// windowStats returns the mean, standard deviation and windowTopRank-th
// highest value of s, blended with the priors for small windows.
func (c Calibration) windowStats(s []float64) (mean, sd, top float64) {
	if len(s) == 0 {
		return c.PriorMean, c.PriorSD, c.PriorTop
	}
	mean, sd, top = WindowStats(s)
	n := float64(len(s))
	w := n / (n + windowPrior)
	mean = w*mean + (1-w)*c.PriorMean
	sd = w*sd + (1-w)*c.PriorSD
	top = w*top + (1-w)*c.PriorTop
	return mean, math.Max(sd, 1e-9), top
}

// WindowStats returns the mean, standard deviation and 10th highest value of
// the linear scores s of a non-empty window, without priors.
func WindowStats(s []float64) (mean, sd, top float64) {
	n := float64(len(s))
	for _, x := range s {
		mean += x
	}
	mean /= n
	for _, x := range s {
		sd += (x - mean) * (x - mean)
	}
	sd = math.Sqrt(sd / n)
	sorted := slices.Clone(s)
	slices.Sort(sorted)
	return mean, sd, sorted[len(s)-min(len(s), windowTopRank)]
}

// relevance applies the calibration to the features of a whole window.
//
// The window statistics are those of the candidates that are not barred:
// a query that asks for funding is judged against the funding signals.
func (c Calibration) relevance(fs []Features) []float64 {
	out := make([]float64, len(fs))
	open := make([]float64, 0, len(fs))
	for i, f := range fs {
		out[i] = c.Linear(f)
		if !f.Barred {
			open = append(open, out[i])
		}
	}
	mean, sd, top := c.windowStats(open)
	for i, s := range out {
		out[i] = search.Logistic(c.Fused(s, mean, sd, top))
	}
	return out
}
