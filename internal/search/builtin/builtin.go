// Package builtin is the default semantic-search scorer: offline, pure Go,
// with word vectors embedded in the binary (see [Scorer]).
package builtin

import (
	"context"
	"math"
	"slices"
	"sync"

	"signals/internal/model"
	"signals/internal/search"
)

// Scorer is the default scorer: offline, pure Go, with word vectors embedded
// in the binary.
//
// Document and query vectors are SIF sentence vectors (Arora et al., 2017):
// the sum of the word vectors weighted by a/(a+p(w)), where p(w) is estimated
// from the word's frequency rank by Zipf's law, minus their projection on the
// common component of generic English sentences (computed by tools/vecpack
// over synthetic Zipf-sampled sentences of the vocabulary, see there), then
// L2-normalised.
//
// A query is first extended with the domain terms of the descriptive
// paraphrases it contains (see tables/phrases.txt): "shaped like people" adds
// "humanoid robots".
//
// Before scoring, a query is read for what it plainly asks (see asks.go): a
// kind of signal, a place, names. A candidate that disagrees is barred below
// the cutoff; a query that asks nothing else is answered like a browse; the
// features below score the rest of the query, its subject, over the
// candidates that agree.
//
// Score fuses four features per candidate into a linear score and calibrates
// it with a logistic function of the score and of where it stands in the
// window's distribution for the query (see [Calibration]):
//   - cos: cosine of the query and document sentence vectors after both are
//     centred on the window's mean document vector (shrunk by n/(n+20) for
//     a window of n, so small windows are barely centred): every signal is
//     about AI, and the shared direction would otherwise dominate; 0 when
//     the query or the document has no word with a vector;
//   - lex: BM25 over the candidate window (window IDF, k1=1.2, b=0.75), as the
//     IDF-weighted share of the query terms the document matches, each term's
//     saturated frequency capped at 1;
//   - soft: for each query word, its best match among the document's words
//     (word-vector cosine mapped linearly from SoftFloor..SoftFull to 0..1;
//     words of one concept group, see tables/concepts.txt, and inflections
//     of one word, "launched" and "launches", match fully, and so does the
//     signal's tag for the words of its kind), averaged
//     with the word's SIF weight times its IDF over the window, counting soft
//     matches as fractional document frequency; so "recruiting" answers
//     "hiring" and words every candidate shares weigh little;
//   - facet: the weakest of those matches among the query words that belong
//     to a concept group, so that a query about funding needs a document
//     about funding, not only one about its subject.
type Scorer struct {
	tables *tables
	model  string
	vec    *wordVectors
	an     *analyzer
	rd     *reader
	groups []uint8 // vocabulary index -> 1 + concept group, 0 if none
	roots  []int32 // vocabulary index -> first vocabulary index of its root
	cache  *termCache
	phr    phraseIndex
	cal    Calibration
	names  *vocabNames
	// enc, when set, gives the document and query vectors of the Cos
	// feature in place of the word vectors' (see WithEncoder), for the
	// queries in one of encLangs (any, when empty). words is the scorer
	// without enc, which scores the others.
	enc      Encoder
	encLangs []string
	words    *Scorer
}

// Encoder is a sentence-embedding model: unit vectors of texts, of Dims
// numbers, under a Name that changes with anything that changes them.
type Encoder interface {
	Name() string
	Dims() int
	EmbedQueries(ctx context.Context, texts []string) ([][]float32, error)
	EmbedDocuments(ctx context.Context, texts []string) ([][]float32, error)
}

// Languages is what an Encoder implements when it was trained to read
// some languages only: the languages it reads ("en"), nil for any.
type Languages interface {
	Languages() []string
}

// WithEncoder returns a copy of b whose Cos feature is the cosine of enc's
// vectors of the query and of each document, centred as the word vectors
// are, scored under cal (fitted for enc by eval.FitBuiltin). Everything
// else stays: what the query asks for still bars and browses, and the
// lexical and soft word matches still count. Its Model is b's followed by
// enc's name: its stored vectors are enc's.
//
// When enc reads some languages only (Languages), a query asked in
// another (see reader.language) is scored as b scores it: by the word
// vectors, computed from each candidate's text, under b's calibration.
func (b *Scorer) WithEncoder(enc Encoder, cal Calibration) (*Scorer, error) {
	withEnc := *b
	if b.enc != nil {
		withEnc.words = b.words
	} else {
		withEnc.words = b
	}
	withEnc.enc, withEnc.encLangs = enc, nil
	if l, ok := enc.(Languages); ok {
		withEnc.encLangs = l.Languages()
	}
	return withEnc.WithCalibration(cal)
}

// forQuery returns the scorer that scores query: b, or the scorer without
// its encoder when the query is asked in a language the encoder does not
// read.
func (b *Scorer) forQuery(query string) *Scorer {
	if b.enc == nil || len(b.encLangs) == 0 || slices.Contains(b.encLangs, b.rd.language(query)) {
		return b
	}
	return b.words
}

// UsesEncoder reports whether b scores query with its encoder: false
// without one, and for a query in a language the encoder does not read.
func (b *Scorer) UsesEncoder(query string) bool { return b.enc != nil && b.forQuery(query) == b }

// Encoder returns the sentence-embedding model b scores with, nil for the
// word vectors alone.
func (b *Scorer) Encoder() Encoder { return b.enc }

// Release implements search.Releaser: it releases what the encoder holds
// for indexing passes, if it holds anything (sentence.Encoder.Release).
func (b *Scorer) Release() error {
	if r, ok := b.enc.(search.Releaser); ok {
		return r.Release()
	}
	return nil
}

// dims is the length of b's document vectors.
func (b *Scorer) dims() int {
	if b.enc != nil {
		return b.enc.Dims()
	}
	return b.vec.dims
}

var (
	_ search.Scorer    = (*Scorer)(nil)
	_ search.Explainer = (*Scorer)(nil)
	_ search.Releaser  = (*Scorer)(nil)
)

var (
	once      sync.Once
	shared    *Scorer
	sharedErr error
)

// New returns the builtin scorer with the default calibration. The embedded
// vectors are decoded on the first call only.
func New() (*Scorer, error) {
	once.Do(func() {
		t, err := defaultTables()
		if err != nil {
			sharedErr = err
			return
		}
		shared, sharedErr = load(t)
	})
	return shared, sharedErr
}

// load builds a scorer from t.
func load(t tables) (*Scorer, error) {
	// The model name's checksum of the vectors (2 ms) runs beside the
	// decoding, so start-up takes no longer for it.
	name := make(chan string, 1)
	go func() { name <- t.model() }()
	v, err := decodeVectors(t.vectors)
	if err != nil {
		return nil, err
	}
	cal, err := decodeCalibration(t.calibration)
	if err != nil {
		return nil, err
	}
	return &Scorer{tables: &t, vec: v, an: newAnalyzer(v, &t), rd: &reader{t: &t, vec: v}, groups: conceptGroups(v, t.concepts),
		roots: wordRoots(v), cache: &termCache{m: map[termKey]*docTerms{}},
		phr: newPhraseIndex(t.phrases), cal: cal, names: &vocabNames{}, model: <-name}, nil
}

// WithCalibration returns a copy of b that scores with c, under the model
// name it would have if it shipped with c.
func (b *Scorer) WithCalibration(c Calibration) (*Scorer, error) {
	file, err := EncodeCalibration(c)
	if err != nil {
		return nil, err
	}
	nb := *b
	nb.cal = c
	t := *b.tables // the word tables stay shared with b's reader and analyzer
	t.calibration = file
	nb.tables = &t
	nb.model = t.model()
	if nb.enc != nil {
		nb.model += "+" + nb.enc.Name()
	}
	return &nb, nil
}

// Calibration returns the calibration b scores with.
func (b *Scorer) Calibration() Calibration { return b.cal }

// Model implements Scorer.
//
// The name ends with a digest of every table that shapes a vector or a score
// (see tables), so stored vectors and cached results of other tables are not
// used.
func (b *Scorer) Model() string { return b.model }

// EmbedDocuments implements Scorer.
func (b *Scorer) EmbedDocuments(ctx context.Context, texts []string) ([][]float32, error) {
	if b.enc != nil {
		cut := make([]string, len(texts))
		for i, t := range texts {
			cut[i] = model.Cut(t, search.CandidateChars)
		}
		return b.enc.EmbedDocuments(ctx, cut)
	}
	out := make([][]float32, len(texts))
	acc := make([]float64, b.vec.dims)
	var buf []byte
	for i, t := range texts {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		clear(acc)
		buf = b.an.analyze(model.Cut(t, search.CandidateChars), buf, func(_ []byte, v int32) {
			if v >= 0 {
				b.vec.addWeighted(acc, v)
			}
		})
		out[i] = b.finish(acc)
	}
	return out, nil
}

// finish removes the common component from a summed vector and normalises it.
func (b *Scorer) finish(acc []float64) []float32 {
	var proj float64
	for j, x := range acc {
		proj += x * float64(b.vec.pc[j])
	}
	var n float64
	for j := range acc {
		acc[j] -= proj * float64(b.vec.pc[j])
		n += acc[j] * acc[j]
	}
	out := make([]float32, len(acc))
	if n == 0 {
		return out
	}
	inv := 1 / math.Sqrt(n)
	for j, x := range acc {
		out[j] = float32(x * inv)
	}
	return out
}

// Score implements Scorer. A query without a searchable word (only stop
// words, or only words neither in the vocabulary nor in any candidate)
// scores every candidate near 0.
//
// What the query asks for (see asks) decides last: when it asks only for a
// kind of signal and/or a place, the signals of that tag and place answer
// it at browseRelevance, newest first, and no other; otherwise a candidate
// that is barred (see Features) keeps at most barred times its relevance,
// which stays below the cutoff.
func (b *Scorer) Score(ctx context.Context, query string, cands []search.Candidate) ([]float64, error) {
	if s := b.forQuery(query); s != b {
		return s.Score(ctx, query, cands)
	}
	all, browse, err := b.FeaturesFor(ctx, query, cands, []SoftBounds{{b.cal.SoftFloor, b.cal.SoftFull}})
	if err != nil {
		return nil, err
	}
	fs := all[0]
	rel := b.cal.relevance(fs)
	for i, f := range fs {
		switch {
		case browse && !f.Barred:
			rel[i] = browseRelevance
		case f.Barred:
			rel[i] *= barred
		}
	}
	return rel, nil
}

// Browses reports whether query asks only for a kind of signal and/or a
// place, so that its matches are the signals of that tag and place.
func (b *Scorer) Browses(query string) bool { return b.rd.read(query).browse() }

const (
	// barred scales the relevance of a candidate that disagrees with what
	// the query asks for: below the cutoff, in its order, and below most of
	// the candidates that agree.
	barred = 0.5
	// browseRelevance is the relevance of the signals that answer a query
	// asking only for a kind and/or a place.
	browseRelevance = 0.9
)

// RelatedCosine is the least cosine between the stored vectors of two
// signals for one to be listed as related to the other. Measured over the
// 359 demo signals: 0.6 is about the 90th percentile of the cosines of all
// pairs (median 0.35); pairs from 0.50 to 0.55 read as unrelated (a
// warehouse robot pilot and a Rust engineer's job), pairs from 0.60 share a
// topic (that pilot and humanoid robots on a production line). Nine signals
// in ten have a neighbour at least this close.
const RelatedCosine = 0.6

// EncoderRelatedCosine is RelatedCosine for the vectors of the bundled
// sentence model (all-MiniLM-L6-v2), chosen as the word vectors' was, so
// that most signals have a neighbour this close. Measured over the 338
// demo signals with the model in full precision: the cosines of all pairs
// have a median of 0.14 and a 90th percentile of 0.32 (the model spreads
// unrelated texts far wider apart than the word vectors do); 94% of the
// signals have a neighbour at 0.45 or more, 83% at 0.5, 49% at 0.6.
const EncoderRelatedCosine = 0.45

// RelatedCosine implements search.Related: the least cosine between the
// stored vectors of two signals for one to be listed as related to the
// other.
func (b *Scorer) RelatedCosine() float64 {
	if b.enc != nil {
		return EncoderRelatedCosine
	}
	return RelatedCosine
}
