// Package eval measures semantic-search scorers on labelled query sets and
// fits their calibrations: the work behind signals eval-search.
package eval

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"signals/internal/model"
	"signals/internal/search"
)

// Doc is one searchable signal given to Evaluate.
type Doc struct {
	ID      string
	Text    string
	Tag     string
	Country string
}

// Set is a labelled set of queries (testdata/eval.json).
type Set struct {
	Description string  `json:"description"`
	Queries     []Query `json:"queries"`
}

// Query is one query and the ids of the signals that answer it. An empty
// Relevant list means nothing should match (an off-topic query).
type Query struct {
	Query    string   `json:"query"`
	Relevant []string `json:"relevant"`
	// Acceptable lists signals that may match without counting either way:
	// borderline answers, or answers in a language the scorer is not meant
	// to read. They are left out of the nDCG ranking.
	Acceptable []string `json:"acceptable,omitempty"`
	// Kind describes the query: "keyword" (shares words with its signals),
	// "paraphrase" (shares no content word), "near_miss" (close to signals
	// that do not answer it), "french", "off_topic"; eval-asks.json adds
	// "kind", "place", "region", "name" and "contradiction".
	Kind string `json:"kind"`
	Note string `json:"note,omitempty"`
}

// label is the fitting label of the signal id for q: 1 if it answers q, 0
// if it does not, and -1 if it is acceptable, a pair left out of fits.
func (q Query) label(id string) float64 {
	switch {
	case slices.Contains(q.Relevant, id):
		return 1
	case slices.Contains(q.Acceptable, id):
		return -1
	}
	return 0
}

//go:embed testdata/eval.json
var demoSet []byte

//go:embed testdata/eval-asks.json
var asksSet []byte

// DemoSet returns the evaluation set written over the demo data set.
func DemoSet() io.Reader { return bytes.NewReader(demoSet) }

// AsksSet returns the evaluation set of queries that ask for kinds of
// signal, places and names, written over the demo data set.
func AsksSet() io.Reader { return bytes.NewReader(asksSet) }

// BundledSet returns the queries of the two sets the builtin calibration is
// fitted on (each on its fit half, see halves): DemoSet and AsksSet.
// testdata/eval-unseen.json is in no fit.
func BundledSet() (Set, error) {
	var out Set
	for _, r := range []io.Reader{DemoSet(), AsksSet()} {
		s, err := ReadSet(r)
		if err != nil {
			return Set{}, err
		}
		out.Queries = append(out.Queries, s.Queries...)
	}
	out.Description = "eval.json and eval-asks.json"
	return out, nil
}

// ReadSet decodes an evaluation set.
func ReadSet(r io.Reader) (Set, error) {
	var s Set
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return Set{}, fmt.Errorf("eval: evaluation set: %w", err)
	}
	for i, q := range s.Queries {
		if strings.TrimSpace(q.Query) == "" {
			return Set{}, fmt.Errorf("eval: evaluation set: query %d is empty", i+1)
		}
	}
	return s, nil
}

// Report is the outcome of Evaluate. Matches are candidates with relevance at
// or above search.Cutoff.
type Report struct {
	Model   string
	Docs    int
	Queries int
	// Recall is the share of labelled (query, signal) pairs that match.
	Recall float64
	// Precision is the share of matches, over all queries including the
	// off-topic ones, that are labelled relevant.
	Precision float64
	// NDCG10 is the mean nDCG@10 (binary gains, ranked by relevance) over the
	// queries that have relevant signals.
	NDCG10 float64
	// OffTopicMatches counts matches of queries labelled with no signal.
	OffTopicMatches int
	Labelled        int // labelled pairs among the given docs
	Matches         int
	Hits            int // matches that are labelled relevant
	// Unknown lists labelled ids that are not among the given docs; they are
	// left out of every figure.
	Unknown []string
	Results []QueryResult
}

// QueryResult is the outcome of one query.
type QueryResult struct {
	Query  string
	Kind   string
	NDCG10 float64
	Hits   []string // labelled and matched
	Missed []string // labelled, not matched
	False  []string // matched, not labelled
	// Scores holds the relevance of the labelled signals and of the false
	// matches.
	Scores map[string]float64
}

// Evaluate embeds docs with s, scores every doc against every query of the
// set read from r, and reports recall and precision at search.Cutoff and nDCG@10.
// All docs form one candidate window, in the given order (which should be
// newest first); callers keep at most search.WindowSize.
func Evaluate(ctx context.Context, s search.Scorer, docs []Doc, r io.Reader) (Report, error) {
	set, err := ReadSet(r)
	if err != nil {
		return Report{}, err
	}
	return EvaluateSet(ctx, s, docs, set)
}

// candidates returns docs as search sees them: cut to search.CandidateChars
// and embedded by s.
func candidates(ctx context.Context, s search.Scorer, docs []Doc) ([]search.Candidate, error) {
	texts := make([]string, len(docs))
	for i, d := range docs {
		texts[i] = model.Cut(d.Text, search.CandidateChars)
	}
	vecs, err := s.EmbedDocuments(ctx, texts)
	if err != nil {
		return nil, err
	}
	cands := make([]search.Candidate, len(docs))
	for i, d := range docs {
		cands[i] = search.Candidate{ID: d.ID, Text: texts[i], Vector: vecs[i], Tag: d.Tag, Country: d.Country}
	}
	return cands, nil
}

// EvaluateSet is Evaluate with a decoded set.
func EvaluateSet(ctx context.Context, s search.Scorer, docs []Doc, set Set) (Report, error) {
	cands, err := candidates(ctx, s, docs)
	if err != nil {
		return Report{}, err
	}
	return evaluate(s.Model(), cands, set, func(q int) ([]float64, error) {
		return s.Score(ctx, set.Queries[q].Query, cands)
	})
}

// evaluate reports on set over cands, with score giving the relevance of
// every candidate to the query at index q of the set.
func evaluate(modelName string, cands []search.Candidate, set Set, score func(q int) ([]float64, error)) (Report, error) {
	known := make(map[string]bool, len(cands))
	for _, c := range cands {
		known[c.ID] = true
	}
	rep := Report{Model: modelName, Docs: len(cands), Queries: len(set.Queries)}
	var ndcgSum float64
	var ndcgN int
	unknown := map[string]bool{}
	for qi, q := range set.Queries {
		scores, err := score(qi)
		if err != nil {
			return Report{}, fmt.Errorf("query %q: %w", q.Query, err)
		}
		rel := map[string]bool{}
		for _, id := range q.Relevant {
			if known[id] {
				rel[id] = true
			} else {
				unknown[id] = true
			}
		}
		acceptable := map[string]bool{}
		for _, id := range q.Acceptable {
			if !known[id] {
				unknown[id] = true
			} else if !rel[id] {
				acceptable[id] = true
			}
		}
		res := QueryResult{Query: q.Query, Kind: q.Kind, Scores: map[string]float64{}}
		order := make([]int, 0, len(cands))
		for i, c := range cands {
			if !acceptable[c.ID] {
				order = append(order, i)
			}
		}
		sort.SliceStable(order, func(a, b int) bool { return scores[order[a]] > scores[order[b]] })
		for _, i := range order {
			id := cands[i].ID
			matched := scores[i] >= search.Cutoff
			switch {
			case rel[id] && matched:
				res.Hits = append(res.Hits, id)
				res.Scores[id] = scores[i]
			case rel[id]:
				res.Missed = append(res.Missed, id)
				res.Scores[id] = scores[i]
			case matched:
				res.False = append(res.False, id)
				res.Scores[id] = scores[i]
			}
		}
		rep.Labelled += len(rel)
		rep.Hits += len(res.Hits)
		rep.Matches += len(res.Hits) + len(res.False)
		if len(rel) == 0 {
			rep.OffTopicMatches += len(res.False)
		} else {
			var dcg, ideal float64
			for k, i := range order[:min(10, len(order))] {
				if rel[cands[i].ID] {
					dcg += 1 / math.Log2(float64(k+2))
				}
			}
			for k := range min(10, len(rel)) {
				ideal += 1 / math.Log2(float64(k+2))
			}
			res.NDCG10 = dcg / ideal
			ndcgSum += res.NDCG10
			ndcgN++
		}
		rep.Results = append(rep.Results, res)
	}
	if rep.Labelled > 0 {
		rep.Recall = float64(rep.Hits) / float64(rep.Labelled)
	}
	if rep.Matches > 0 {
		rep.Precision = float64(rep.Hits) / float64(rep.Matches)
	} else if rep.Labelled == 0 {
		rep.Precision = 1
	}
	if ndcgN > 0 {
		rep.NDCG10 = ndcgSum / float64(ndcgN)
	}
	for id := range unknown {
		rep.Unknown = append(rep.Unknown, id)
	}
	slices.Sort(rep.Unknown)
	return rep, nil
}

// String formats the report for a terminal: the summary, then one line per
// query with its counts of hits, misses and false matches.
func (r Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "model %s: %d queries over %d signals\n", r.Model, r.Queries, r.Docs)
	fmt.Fprintf(&b, "recall@%.2f %.3f (%d of %d)  precision %.3f (%d of %d matches)  nDCG@10 %.3f  off-topic matches %d\n",
		search.Cutoff, r.Recall, r.Hits, r.Labelled, r.Precision, r.Hits, r.Matches, r.NDCG10, r.OffTopicMatches)
	if len(r.Unknown) > 0 {
		fmt.Fprintf(&b, "labelled ids not among the signals (ignored): %s\n", strings.Join(r.Unknown, ", "))
	}
	tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "kind\thits\tmissed\tfalse\tnDCG@10\tquery")
	for _, q := range r.Results {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%.2f\t%s\n", q.Kind, len(q.Hits), len(q.Missed), len(q.False), q.NDCG10, q.Query)
	}
	tw.Flush()
	return b.String()
}
