package sentence

import (
	"context"
	"fmt"

	"signals/internal/model"
	"signals/internal/search"
)

// Scorer scores by the model alone: the cosine of the query's and each
// candidate's vectors, under a search.Calibration. It reads nothing of
// what a query asks for (kinds, places, names); the builtin scorer with
// this model as its encoder does.
type Scorer struct {
	enc *Encoder
	cal search.Calibration
}

var _ search.Scorer = (*Scorer)(nil)

// NewScorer returns a scorer of enc's cosines under cal.
func NewScorer(enc *Encoder, cal search.Calibration) (*Scorer, error) {
	if err := cal.Validate(); err != nil {
		return nil, err
	}
	return &Scorer{enc: enc, cal: cal}, nil
}

// Model implements search.Scorer: the encoder's name.
func (s *Scorer) Model() string { return "sentence/" + s.enc.Name() }

// Calibration returns the calibration s scores with.
func (s *Scorer) Calibration() search.Calibration { return s.cal }

// WithCalibration returns a copy of s that scores with cal.
func (s *Scorer) WithCalibration(cal search.Calibration) (*Scorer, error) {
	return NewScorer(s.enc, cal)
}

// EmbedDocuments implements search.Scorer.
func (s *Scorer) EmbedDocuments(ctx context.Context, texts []string) ([][]float32, error) {
	cut := make([]string, len(texts))
	for i, t := range texts {
		cut[i] = model.Cut(t, search.CandidateChars)
	}
	return s.enc.EmbedDocuments(ctx, cut)
}

// Score implements search.Scorer.
func (s *Scorer) Score(ctx context.Context, query string, cands []search.Candidate) ([]float64, error) {
	cos, err := s.Cosines(ctx, query, cands)
	if err != nil {
		return nil, err
	}
	for i, c := range cos {
		cos[i] = s.cal.Relevance(c)
	}
	return cos, nil
}

// Cosines returns the cosine of the query's vector with each candidate's.
// Candidates without a vector of the model's length are embedded here.
func (s *Scorer) Cosines(ctx context.Context, query string, cands []search.Candidate) ([]float64, error) {
	qv, err := s.enc.EmbedQueries(ctx, []string{query})
	if err != nil {
		return nil, err
	}
	var missing []int
	var texts []string
	for i, c := range cands {
		if len(c.Vector) != s.enc.Dims() {
			missing = append(missing, i)
			texts = append(texts, c.Text)
		}
	}
	var fill [][]float32
	if len(texts) > 0 {
		if fill, err = s.EmbedDocuments(ctx, texts); err != nil {
			return nil, err
		}
	}
	out := make([]float64, len(cands))
	k := 0
	for i, c := range cands {
		v := c.Vector
		if k < len(missing) && missing[k] == i {
			v = fill[k]
			k++
		}
		out[i] = search.Cosine(qv[0], v)
	}
	if len(out) != len(cands) {
		return nil, fmt.Errorf("sentence: %d cosines for %d candidates", len(out), len(cands))
	}
	return out, nil
}
