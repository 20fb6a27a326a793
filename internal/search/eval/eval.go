// Package eval measures semantic-search scorers on labelled query sets and
// fits their calibrations: the work behind signals eval-search.
package eval

import (
	"bytes"
	"cmp"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"maps"
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

// Query is one query and the signals that answer it, graded by reading
// them: Relevant are grade 2 (clearly about what is asked), Acceptable grade
// 1 (partly about it, or borderline). A query with neither is off topic:
// nothing should match it.
type Query struct {
	Query    string   `json:"query"`
	Relevant []string `json:"relevant"`
	// Acceptable lists the signals of grade 1: returning them is no false
	// match, missing them no miss, and they weigh a third of a grade-2
	// signal in nDCG.
	Acceptable []string `json:"acceptable,omitempty"`
	// Kind describes the query: "keyword" (shares words with its signals),
	// "paraphrase" (shares few content words), "near_miss" (close to signals
	// that do not answer it), "french", "off_topic"; eval-asks.json adds
	// "kind", "place", "region", "name" and "contradiction";
	// eval-natural.json "conversational" and "constraints".
	Kind string `json:"kind"`
	// Language is the language the query is asked in: "fr", or "" for
	// English.
	Language string `json:"language,omitempty"`
	Note     string `json:"note,omitempty"`
}

// language is the query's language key: "en" or "fr".
func (q Query) language() string { return cmp.Or(q.Language, "en") }

// grade returns the grade of the signal id for q: 2, 1 or 0.
func (q Query) grade(id string) int {
	switch {
	case slices.Contains(q.Relevant, id):
		return 2
	case slices.Contains(q.Acceptable, id):
		return 1
	}
	return 0
}

// label is the fitting label of the signal id for q: 1 for grade 2, 0 for
// grade 0, and -1 for grade 1, a pair left out of fits.
func (q Query) label(id string) float64 {
	return [...]float64{0, -1, 1}[q.grade(id)]
}

//go:embed testdata/eval.json
var demoSet []byte

//go:embed testdata/eval-asks.json
var asksSet []byte

//go:embed testdata/eval-unseen.json
var unseenSet []byte

//go:embed testdata/eval-natural.json
var naturalSet []byte

// DemoSet returns the evaluation set written over the demo data set.
func DemoSet() io.Reader { return bytes.NewReader(demoSet) }

// AsksSet returns the evaluation set of queries that ask for kinds of
// signal, places and names, written over the demo data set.
func AsksSet() io.Reader { return bytes.NewReader(asksSet) }

// Named is an evaluation set with the name of its file.
type Named struct {
	Name string
	Set  Set
}

// Sets returns every bundled set, in the order eval-search reports them:
// eval.json and eval-asks.json, on half of whose queries the builtin
// calibration is fitted, then eval-unseen.json and eval-natural.json, in no
// fit and written before they were run.
func Sets() ([]Named, error) {
	var out []Named
	for _, f := range []struct {
		name string
		data []byte
	}{{"eval.json", demoSet}, {"eval-asks.json", asksSet}, {"eval-unseen.json", unseenSet}, {"eval-natural.json", naturalSet}} {
		s, err := ReadSet(bytes.NewReader(f.data))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.name, err)
		}
		out = append(out, Named{f.name, s})
	}
	return out, nil
}

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

// Report is the outcome of Evaluate: the figures of what a search returns,
// the matches with relevance at or above search.Cutoff, best first, at most
// search.MaxMatches (or, for the BM25 baseline, its top 10).
type Report struct {
	Model   string
	Docs    int
	Queries int
	// OnTopic counts the queries with a grade-2 signal among the docs,
	// OffTopic those with no graded signal.
	OnTopic, OffTopic int
	// Recall is the share of grade-2 (query, signal) pairs that are returned.
	Recall float64
	// Precision is the share of returned matches, over all queries, that
	// are graded 1 or 2; 1 when nothing is returned.
	Precision float64
	// NoMatch counts the on-topic queries that return nothing.
	NoMatch int
	// NDCG10 is the mean over the on-topic queries of the nDCG@10 of what
	// is returned, with gains 3 for grade 2 and 1 for grade 1: a query that
	// returns nothing scores 0.
	NDCG10 float64
	// RankedNDCG10 is the same over the whole ranking, cutoff ignored: what
	// the order alone is worth.
	RankedNDCG10 float64
	// CutRecall is the recall that no calibration of this ranking can beat
	// at a precision of cutPrecision: for each question, the cut placed with
	// its labels in hand that returns the most grade-2 signals while what it
	// returns keeps that precision (at most search.MaxMatches).
	CutRecall float64
	// OffTopicMatches counts what the off-topic queries return.
	OffTopicMatches int
	Labelled        int // grade-2 pairs among the given docs
	Matches         int // returned, over all queries
	Hits            int // returned grade-2 pairs
	CutHits         int // grade-2 pairs above the labelled cut of each query
	Partial         int // returned grade-1 pairs
	// Unknown lists labelled ids that are not among the given docs; they are
	// left out of every figure.
	Unknown []string
	Results []QueryResult
	// ByLanguage holds the same figures over the queries asked in each
	// language ("en", "fr").
	ByLanguage map[string]*Report
}

// QueryResult is the outcome of one query.
type QueryResult struct {
	Query string
	Kind  string
	// NDCG10 is of what is returned, RankedNDCG10 of the whole ranking.
	NDCG10, RankedNDCG10 float64
	Hits                 []string // grade 2, returned
	Missed               []string // grade 2, not returned
	Partial              []string // grade 1, returned
	False                []string // returned, not graded
	// Scores holds the relevance of the grade-2 signals and of what is
	// returned.
	Scores map[string]float64
}

// Evaluate embeds docs with s, scores every doc against every query of the
// set read from r, and reports on what a search returns (see Report).
// All docs form one candidate window, in the given order (which should be
// newest first); callers keep at most search.WindowSize.
func Evaluate(ctx context.Context, s search.Scorer, docs []Doc, r io.Reader) (Report, error) {
	set, err := ReadSet(r)
	if err != nil {
		return Report{}, err
	}
	return EvaluateSet(ctx, s, docs, set)
}

// Candidates returns docs as search sees them: cut to search.CandidateChars
// and embedded by s, all in one call, as an indexing pass embeds them.
func Candidates(ctx context.Context, s search.Scorer, docs []Doc) ([]search.Candidate, error) {
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
	cands, err := Candidates(ctx, s, docs)
	if err != nil {
		return Report{}, err
	}
	return EvaluateCandidates(ctx, s, cands, set)
}

// EvaluateCandidates is EvaluateSet over the candidates that Candidates
// gave for s, so that several sets are scored over one embedding.
func EvaluateCandidates(ctx context.Context, s search.Scorer, cands []search.Candidate, set Set) (Report, error) {
	return evaluate(s.Model(), cands, set, func(q int) ([]float64, error) {
		return s.Score(ctx, set.Queries[q].Query, cands)
	})
}

// ranking is what one query gives: signal ids best first with their
// scores, of which the first returned are what a search returns.
type ranking struct {
	ids      []string
	scores   []float64
	returned int
}

// evaluate reports on set over cands, with score giving the relevance of
// every candidate to the query at index q of the set: a search returns
// those at or above the cutoff, at most search.MaxMatches.
func evaluate(modelName string, cands []search.Candidate, set Set, score func(q int) ([]float64, error)) (Report, error) {
	ids := make([]string, len(cands))
	for i, c := range cands {
		ids[i] = c.ID
	}
	return evaluateRankings(modelName, ids, set, func(q int) (ranking, error) {
		scores, err := score(q)
		if err != nil {
			return ranking{}, err
		}
		order := make([]int, len(cands))
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(a, b int) bool { return scores[order[a]] > scores[order[b]] })
		r := ranking{ids: make([]string, len(order)), scores: make([]float64, len(order))}
		for k, i := range order {
			r.ids[k], r.scores[k] = cands[i].ID, scores[i]
			if scores[i] >= search.Cutoff && r.returned < search.MaxMatches {
				r.returned++
			}
		}
		return r, nil
	})
}

// evaluateRankings reports on set over the signals ids, with rank giving
// the ranking of the query at index q of the set.
func evaluateRankings(modelName string, ids []string, set Set, rank func(q int) (ranking, error)) (Report, error) {
	known := make(map[string]bool, len(ids))
	for _, id := range ids {
		known[id] = true
	}
	rep := Report{Model: modelName, Docs: len(ids), Queries: len(set.Queries), ByLanguage: map[string]*Report{}}
	unknown := map[string]bool{}
	for qi, q := range set.Queries {
		r, err := rank(qi)
		if err != nil {
			return Report{}, fmt.Errorf("query %q: %w", q.Query, err)
		}
		grades := q.grades(known, unknown)
		res := q.result(r, grades)
		rep.add(res, r, grades)
		lang := rep.ByLanguage[q.language()]
		if lang == nil {
			lang = &Report{Model: modelName, Docs: len(ids)}
			rep.ByLanguage[q.language()] = lang
		}
		lang.Queries++
		lang.add(res, r, grades)
	}
	rep.finish(unknown)
	for _, lang := range rep.ByLanguage {
		lang.finish(nil)
	}
	return rep, nil
}

// grades returns the grade of each signal q labels that is among the known
// ones, and adds the others to unknown.
func (q Query) grades(known, unknown map[string]bool) map[string]int {
	grades := map[string]int{}
	for _, id := range slices.Concat(q.Relevant, q.Acceptable) {
		if !known[id] {
			unknown[id] = true
		} else if _, ok := grades[id]; !ok {
			grades[id] = q.grade(id)
		}
	}
	return grades
}

// result sorts the signals of ranking r by their grades: returned grade-2
// signals are hits, the others missed; returned grade-1 signals are
// partial, returned ungraded ones false.
func (q Query) result(r ranking, grades map[string]int) QueryResult {
	res := QueryResult{Query: q.Query, Kind: q.Kind, Scores: map[string]float64{}}
	for k, id := range r.ids {
		returned := k < r.returned
		switch g := grades[id]; {
		case g == 2 && returned:
			res.Hits = append(res.Hits, id)
		case g == 2:
			res.Missed = append(res.Missed, id)
		case g == 1 && returned:
			res.Partial = append(res.Partial, id)
		case g == 0 && returned:
			res.False = append(res.False, id)
		default:
			continue
		}
		res.Scores[id] = r.scores[k]
	}
	// Grade-2 signals the ranking left out are missed too.
	for id, g := range grades {
		if g == 2 && !slices.Contains(res.Hits, id) && !slices.Contains(res.Missed, id) {
			res.Missed = append(res.Missed, id)
		}
	}
	return res
}

// add counts res, the result of one query ranked as r whose signals are
// graded grades, into rep, with its nDCG@10 for an on-topic query. rep's
// NDCG10 and RankedNDCG10 are sums until finish.
func (rep *Report) add(res QueryResult, r ranking, grades map[string]int) {
	relevant := 0
	for _, g := range grades {
		if g == 2 {
			relevant++
		}
	}
	rep.Labelled += relevant
	rep.Hits += len(res.Hits)
	rep.Partial += len(res.Partial)
	rep.Matches += r.returned
	switch {
	case relevant > 0:
		rep.OnTopic++
		if r.returned == 0 {
			rep.NoMatch++
		}
		rep.CutHits += bestCut(r.ids, grades)
		res.NDCG10 = ndcg10(r.ids[:r.returned], grades)
		res.RankedNDCG10 = ndcg10(r.ids, grades)
		rep.NDCG10 += res.NDCG10
		rep.RankedNDCG10 += res.RankedNDCG10
	case len(grades) == 0:
		rep.OffTopic++
		rep.OffTopicMatches += r.returned
	}
	rep.Results = append(rep.Results, res)
}

// finish turns the counts of rep into shares and means, and lists the
// unknown signals the set labels.
func (rep *Report) finish(unknown map[string]bool) {
	if rep.Labelled > 0 {
		rep.Recall = float64(rep.Hits) / float64(rep.Labelled)
		rep.CutRecall = float64(rep.CutHits) / float64(rep.Labelled)
	}
	rep.Precision = 1
	if rep.Matches > 0 {
		rep.Precision = float64(rep.Hits+rep.Partial) / float64(rep.Matches)
	}
	if rep.OnTopic > 0 {
		rep.NDCG10 /= float64(rep.OnTopic)
		rep.RankedNDCG10 /= float64(rep.OnTopic)
	}
	for id := range unknown {
		rep.Unknown = append(rep.Unknown, id)
	}
	slices.Sort(rep.Unknown)
}

// cutPrecision is the precision at which CutRecall places its cuts: the
// precision a caller is promised.
const cutPrecision = 0.8

// bestCut returns how many grade-2 signals the best cut of the ranked ids
// returns: the top k, k at most search.MaxMatches, with the most grade-2
// signals among those whose share of graded signals is at least
// cutPrecision.
func bestCut(ids []string, grades map[string]int) int {
	best, hits, graded := 0, 0, 0
	for k, id := range ids[:min(search.MaxMatches, len(ids))] {
		switch grades[id] {
		case 2:
			hits++
			graded++
		case 1:
			graded++
		}
		if float64(graded) >= cutPrecision*float64(k+1) {
			best = max(best, hits)
		}
	}
	return best
}

// ndcg10 is the nDCG@10 of the ranked ids under grades, with gain 2^g − 1.
func ndcg10(ids []string, grades map[string]int) float64 {
	var dcg float64
	for k, id := range ids[:min(10, len(ids))] {
		dcg += gain(grades[id]) / math.Log2(float64(k+2))
	}
	ideal := make([]int, 0, len(grades))
	for _, g := range grades {
		ideal = append(ideal, g)
	}
	slices.Sort(ideal)
	slices.Reverse(ideal)
	var best float64
	for k, g := range ideal[:min(10, len(ideal))] {
		best += gain(g) / math.Log2(float64(k+2))
	}
	if best == 0 {
		return 0
	}
	return dcg / best
}

func gain(grade int) float64 { return float64(int(1)<<grade - 1) }

// String formats the report for a terminal: the summary, then one line per
// query with its counts of hits, misses, partial and false matches.
func (r Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d queries over %d signals\n", r.Model, r.Queries, r.Docs)
	fmt.Fprintln(&b, r.Summary())
	if len(r.ByLanguage) > 1 {
		for _, lang := range slices.Sorted(maps.Keys(r.ByLanguage)) {
			fmt.Fprintf(&b, "  %s (%d queries): %s\n", cmp.Or(languageNames[lang], lang), r.ByLanguage[lang].Queries, r.ByLanguage[lang].Summary())
		}
	}
	if len(r.Unknown) > 0 {
		fmt.Fprintf(&b, "labelled ids not among the signals (ignored): %s\n", strings.Join(r.Unknown, ", "))
	}
	tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "kind\thits\tmissed\tpartial\tfalse\tnDCG@10\tquery")
	for _, q := range r.Results {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%.2f\t%s\n", q.Kind, len(q.Hits), len(q.Missed), len(q.Partial), len(q.False), q.NDCG10, q.Query)
	}
	tw.Flush()
	return b.String()
}

// languageNames name the languages of ByLanguage.
var languageNames = map[string]string{"en": "in English", "fr": "in French"}

// Summary is the report's figures on one line.
func (r Report) Summary() string {
	return fmt.Sprintf("recall %.3f (%d of %d)  precision %.3f (%d of %d)  no match %d of %d  off-topic matches %d  nDCG@10 %.3f  ranked nDCG@10 %.3f  labelled-cut recall %.3f",
		r.Recall, r.Hits, r.Labelled, r.Precision, r.Hits+r.Partial, r.Matches, r.NoMatch, r.OnTopic, r.OffTopicMatches, r.NDCG10, r.RankedNDCG10, r.CutRecall)
}
