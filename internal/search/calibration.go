package search

import (
	"fmt"
	"math"
)

// Calibration maps the cosine of a query's and a document's embeddings to
// relevance, for scorers whose score is that cosine (an embeddings server, a
// sentence-embedding model on its own):
//
//	relevance = logistic(Slope·(cos − Threshold) + logit(Cutoff))
//
// so a cosine of Threshold gives exactly Cutoff (0.85), higher cosines more,
// and Slope sets how fast relevance falls below it. Threshold is also the
// cosine at which two passages are taken to share a topic (a signal's
// related signals): they are at least as close as a query and a passage
// about it.
type Calibration struct {
	Threshold float64
	Slope     float64
}

// Validate reports whether c can calibrate: a threshold inside [-1, 1], the
// range of a cosine, and a positive, finite slope.
func (c Calibration) Validate() error {
	if math.IsNaN(c.Threshold) || c.Threshold < -1 || c.Threshold > 1 {
		return fmt.Errorf("calibration threshold must be a cosine between -1 and 1, got %v", c.Threshold)
	}
	if !(c.Slope > 0) || math.IsInf(c.Slope, 0) {
		return fmt.Errorf("calibration slope must be positive, got %v", c.Slope)
	}
	return nil
}

// Relevance is the relevance of a cosine.
func (c Calibration) Relevance(cos float64) float64 {
	return Logistic(c.Slope*(cos-c.Threshold) + math.Log(Cutoff/(1-Cutoff)))
}

// Related is a Scorer that says how close the stored vectors of two
// signals must be for a signal's page to list one as related to the other.
type Related interface {
	// RelatedCosine is the least cosine between two stored vectors of the
	// scorer's Model for the signals to be related.
	RelatedCosine() float64
}
