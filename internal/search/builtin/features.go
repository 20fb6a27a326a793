package builtin

import (
	"context"
	"hash/maphash"
	"math"
	"slices"
	"sync"

	"signals/internal/search"
)

// The features of each candidate for a query (see Scorer): the query is
// analysed (analyzeQuery), the candidates' terms counted (countTerms), then
// each feature computed over the window: Lex (bm25), Cos (centredCosines),
// Soft and Facet (softScores, from bestMatches).

// queryTerms is the analysed query.
type queryTerms struct {
	lex     map[uint64]int // hash of a lexical key -> index
	lexQF   []int          // occurrences of each lexical key
	words   []int32        // distinct vocabulary words
	weights []float64      // SIF weight of each word
	unit    [][]float32    // unit vector of each word
	vec     []float32      // sentence vector
	text    string         // what the sentence vector is of
}

// analyzeQuery analyses text, the subject of query (see asks), extended
// with the domain terms of the phrases of the whole query.
func (b *Scorer) analyzeQuery(text, query string) *queryTerms {
	q := &queryTerms{lex: map[uint64]int{}}
	if t := b.phr.expand(query); t != "" {
		text += " " + t
	}
	query = text
	acc := make([]float64, b.vec.dims)
	b.an.analyze(query, nil, func(lex []byte, v int32) {
		if lex != nil {
			h := maphash.Bytes(termSeed, lex)
			if i, ok := q.lex[h]; ok {
				q.lexQF[i]++
			} else {
				q.lex[h] = len(q.lexQF)
				q.lexQF = append(q.lexQF, 1)
			}
		}
		if v >= 0 {
			b.vec.addWeighted(acc, v)
			if !slices.Contains(q.words, v) {
				q.words = append(q.words, v)
				q.weights = append(q.weights, float64(b.vec.sif[v]))
				q.unit = append(q.unit, b.vec.wordVec(nil, v))
			}
		}
	})
	q.vec = b.finish(acc)
	q.text = query
	return q
}

const (
	bm25K1 = 1.2
	bm25B  = 0.75
	// centrePrior is the window size at which query and document vectors
	// are centred on half the window's mean.
	centrePrior = 20
)

// scratch is reused between searches.
type scratch struct {
	slot  []int32 // vocabulary index -> 1 + window slot, 0 if unseen
	toks  []int32 // window slots of each document's words, concatenated
	ends  []int   // end of each document in toks
	tf    []int32 // per document × lexical term
	dl    []int
	slots []int32 // vocabulary index of each window slot
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// SoftBounds are the word cosines of Calibration.SoftFloor and SoftFull.
type SoftBounds struct{ Floor, Full float64 }

// FeaturesFor returns the raw, uncalibrated features of each candidate for
// query, once for each of bounds (Score asks for the calibration's; a fit
// tries many), and whether query asks only for a kind, a place, names or an
// amount, which the candidates that agree answer whatever their features.
// Only the soft match and the facet depend on the bounds: the rest is
// computed once.
func (b *Scorer) FeaturesFor(ctx context.Context, query string, cands []search.Candidate, bounds []SoftBounds) ([][]Features, bool, error) {
	if s := b.forQuery(query); s != b {
		return s.FeaturesFor(ctx, query, cands, bounds)
	}
	a := b.rd.read(query)
	q := b.analyzeQuery(a.text, query)
	out := make([][]Features, len(bounds))
	for i := range out {
		out[i] = make([]Features, len(cands))
	}
	if len(cands) == 0 || len(bounds) == 0 {
		return out, a.browse(), ctx.Err()
	}
	base := out[0] // the features that do not depend on the bounds
	if len(q.lexQF) == 0 && len(q.words) == 0 {
		// Nothing to score; what the query asks for still bars.
		for d, c := range cands {
			base[d].agree(a, c, b.terms(c), nil, nil)
		}
		for _, fs := range out[1:] {
			copy(fs, base)
		}
		return out, a.browse(), ctx.Err()
	}
	s := scratchPool.Get().(*scratch)
	defer scratchPool.Put(s)
	if err := b.countTerms(ctx, s, a, q, cands, base); err != nil {
		return nil, false, err
	}
	bm25(s, q.lexQF, base)
	best := bestMatches(s, b.wordCosines(s.slots, q), b.wordKinds(q, query), cands)
	if err := b.centredCosines(ctx, q, cands, base); err != nil {
		return nil, false, err
	}
	for _, fs := range out[1:] {
		copy(fs, base)
	}
	b.softScores(q, best, bounds, out)
	return out, a.browse(), nil
}

// countTerms counts the query terms and words of each candidate, for BM25 and the soft matches.
func (b *Scorer) countTerms(ctx context.Context, s *scratch, a *asks, q *queryTerms, cands []search.Candidate, base []Features) error {
	// It fills s with the count of each lexical query term in each candidate
	// (tf), each candidate's length (dl), the window's distinct words with a
	// vector (slots) and each candidate's words as slots (toks, ending at
	// ends). It also bars the candidates that disagree with what the query
	// asks for (a), which takes the same counts for the names.
	names := make([]int, 0, len(a.names)) // lexical index of each name
	for _, h := range a.names {
		if i, ok := q.lex[h]; ok {
			names = append(names, i)
		}
	}
	if len(s.slot) < len(b.vec.weight) {
		s.slot = make([]int32, len(b.vec.weight))
	}
	nq := len(q.lexQF)
	s.toks, s.ends, s.slots = s.toks[:0], s.ends[:0], s.slots[:0]
	s.tf = slices.Grow(s.tf[:0], len(cands)*nq)[:len(cands)*nq]
	clear(s.tf)
	s.dl = slices.Grow(s.dl[:0], len(cands))[:len(cands)]
	clear(s.dl)
	defer b.resetSlots(s)
	for d, c := range cands {
		if d%64 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		tf := s.tf[d*nq : (d+1)*nq]
		t := b.terms(c)
		for _, h := range t.lex {
			if i, ok := q.lex[h]; ok {
				tf[i]++
			}
		}
		base[d].agree(a, c, t, tf, names)
		for _, v := range t.vecs {
			sl := s.slot[v]
			if sl == 0 {
				s.slots = append(s.slots, v)
				sl = int32(len(s.slots))
				s.slot[v] = sl
			}
			s.toks = append(s.toks, sl-1)
		}
		s.dl[d] = len(t.lex)
		s.ends = append(s.ends, len(s.toks))
	}
	return nil
}

// bm25 sets Lex, BM25 over the window, so that exact query terms count whatever their vectors.
func bm25(s *scratch, qf []int, base []Features) {
	// The IDF is the window's, each term's weighted by its occurrences in the
	// query (qf); Lex is the share of the query's IDF mass that the candidate
	// matches, each term's saturated frequency capped at 1.
	nq := len(qf)
	n := float64(len(base))
	var totalLen int
	for _, l := range s.dl {
		totalLen += l
	}
	avgdl := math.Max(1, float64(totalLen)/n)
	idf := make([]float64, nq)
	var idfSum float64
	for i := range nq {
		df := 0
		for d := range base {
			if s.tf[d*nq+i] > 0 {
				df++
			}
		}
		idf[i] = math.Log(1+(n-float64(df)+0.5)/(float64(df)+0.5)) * float64(qf[i])
		idfSum += idf[i]
	}
	if idfSum <= 0 {
		return // no lexical term
	}
	for d := range base {
		norm := bm25K1 * (1 - bm25B + bm25B*float64(s.dl[d])/avgdl)
		var acc float64
		for i := range nq {
			tf := float64(s.tf[d*nq+i])
			if tf > 0 {
				acc += idf[i] * math.Min(1, tf*(bm25K1+1)/(tf+norm))
			}
		}
		base[d].Lex = acc / idfSum
	}
}

// wordCosines returns the cosine of each window word with each query word, so that close words match.
func (b *Scorer) wordCosines(slots []int32, q *queryTerms) []float32 {
	// Indexed by slot*len(q.words) + query word. Words of one concept group
	// or of one root count as identical, cosine 1.
	nw := len(q.words)
	sims := make([]float32, len(slots)*nw)
	var wv []float32
	for k, v := range slots {
		wv = b.vec.wordVec(wv, v)
		g := b.groups[v]
		for j, u := range q.unit {
			var dot float32
			for x := range u {
				dot += u[x] * wv[x]
			}
			if g != 0 && b.groups[q.words[j]] == g || b.roots[v] == b.roots[q.words[j]] {
				dot = 1
			}
			sims[k*nw+j] = dot
		}
	}
	return sims
}

// wordKinds returns the tag each query word names, if any, so that the signals of that tag match it.
func (b *Scorer) wordKinds(q *queryTerms, query string) []string {
	kinds := make([]string, len(q.words))
	kindWords := b.rd.kindWords(query)
	for j, v := range q.words {
		if g := b.groups[v]; g != 0 {
			kinds[j] = b.tables.concepts[g-1].tag
		}
		if k, ok := kindWords[v]; ok {
			kinds[j] = k
		}
	}
	return kinds
}

// bestMatches returns each query word's best cosine in each candidate, its soft match before the bounds.
func bestMatches(s *scratch, sims []float32, kinds []string, cands []search.Candidate) []float32 {
	// Indexed by candidate*len(kinds) + query word: +Inf where the
	// candidate's tag is the kind the word names (a full match under any
	// bounds), -Inf where the candidate has no word (no match). The bounds
	// map cosines monotonically, so mapping the best cosine is mapping every
	// cosine and then taking the best.
	nw := len(kinds)
	best := make([]float32, len(cands)*nw)
	from := 0
	for d := range cands {
		row := best[d*nw : (d+1)*nw]
		for j := range row {
			row[j] = float32(math.Inf(-1))
		}
		for _, sl := range s.toks[from:s.ends[d]] {
			for j, x := range sims[int(sl)*nw : int(sl+1)*nw] {
				if x > row[j] {
					row[j] = x
				}
			}
		}
		// A signal classified under a query word's kind matches it.
		if t := cands[d].Tag; t != "" {
			for j, k := range kinds {
				if k == t {
					row[j] = float32(math.Inf(1))
				}
			}
		}
		from = s.ends[d]
	}
	return best
}

// centredCosines sets Cos on centred vectors, so that the direction all signals share does not dominate.
func (b *Scorer) centredCosines(ctx context.Context, q *queryTerms, cands []search.Candidate, base []Features) error {
	// The vectors are centred on the window's mean document vector, shrunk
	// for small windows. Candidates without a usable vector are embedded
	// here.
	n := float64(len(cands))
	dims := b.dims()
	docVecs := make([][]float32, len(cands))
	mu := make([]float64, dims)
	qvec := q.vec
	if b.enc != nil {
		vs, err := b.enc.EmbedQueries(ctx, []string{q.text})
		if err != nil {
			return err
		}
		qvec = vs[0]
	}
	for d, c := range cands {
		v := c.Vector
		if len(v) != dims {
			vs, err := b.EmbedDocuments(ctx, []string{c.Text})
			if err != nil {
				return err
			}
			v = vs[0]
		}
		docVecs[d] = v
		for j, x := range v {
			mu[j] += float64(x) / n
		}
	}
	shrink := n / (n + centrePrior)
	qc := make([]float32, dims)
	for j := range qc {
		qc[j] = qvec[j] - float32(shrink*mu[j])
	}
	dc := make([]float32, dims)
	qZero := isZero(qvec)
	for d, v := range docVecs {
		// A query or document without a word vector has no direction:
		// centring would turn both into the same -mean.
		if qZero || isZero(v) {
			continue
		}
		for j := range dc {
			dc[j] = v[j] - float32(shrink*mu[j])
		}
		base[d].Cos = search.Cosine(qc, dc)
	}
	return nil
}

// softScores sets Soft and Facet under each of bounds, the only features that depend on them.
func (b *Scorer) softScores(q *queryTerms, best []float32, bounds []SoftBounds, out [][]Features) {
	// Under each pair of bounds, a query word's best cosine in a candidate
	// maps linearly to its soft match, 0..1. Soft averages the matches, each
	// query word weighing its SIF weight times its IDF over the window, soft
	// matches counting as fractional document frequency; Facet is the
	// weakest match among the query words that belong to a concept group.
	nw := len(q.words)
	nd := len(out[0])
	n := float64(nd)
	match := make([]float32, nd*nw)
	sdf := make([]float64, nw)
	wq := make([]float64, nw)
	for bi, bd := range bounds {
		fs := out[bi]
		clear(sdf)
		for d := range nd {
			row := match[d*nw : (d+1)*nw]
			for j, x := range best[d*nw : (d+1)*nw] {
				m := (float64(x) - bd.Floor) / (bd.Full - bd.Floor)
				row[j] = float32(math.Max(0, math.Min(1, m)))
				sdf[j] += float64(row[j])
			}
		}
		var wSum float64
		for j := range wq {
			wq[j] = q.weights[j] * math.Log(1+(n-sdf[j]+0.5)/(sdf[j]+0.5))
			wSum += wq[j]
		}
		for d := range nd {
			f := &fs[d]
			row := match[d*nw : (d+1)*nw]
			f.Facet = 1
			for j, x := range row {
				if b.groups[q.words[j]] != 0 {
					f.Facet = math.Min(f.Facet, float64(x))
				}
			}
			if wSum > 0 {
				var acc float64
				for j, x := range row {
					acc += wq[j] * float64(x)
				}
				f.Soft = acc / wSum
			}
		}
	}
}

func (b *Scorer) resetSlots(s *scratch) {
	for _, v := range s.slots {
		s.slot[v] = 0
	}
}

func isZero(v []float32) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}
