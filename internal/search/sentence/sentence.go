// Package sentence embeds text with a sentence-embedding model: a BERT-style
// encoder in ONNX form, its WordPiece tokenizer (the model's own
// tokenizer.json) and the pooling of its sentence-transformers
// configuration, run by ONNX Runtime.
//
// ONNX Runtime is a shared library loaded at run time (see [Load]); a build
// without cgo compiles and reports that the runtime cannot be loaded, so
// that the caller falls back to the builtin scorer.
//
// Texts are tokenized as sentence-transformers does: the tokenizer's
// normalisation and WordPiece, truncated to the model's MaxTokens including
// [CLS] and [SEP], then the token vectors are pooled (the mean over the
// attention mask, or [CLS]) and L2-normalised. Batches group texts of
// similar length, so that padding costs little.
package sentence

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/sugarme/tokenizer"
	"github.com/sugarme/tokenizer/pretrained"
	"golang.org/x/text/unicode/norm"
)

// Pooling is how token vectors become one sentence vector.
type Pooling int

const (
	// Mean averages the token vectors under the attention mask
	// (all-MiniLM-L6-v2, e5).
	Mean Pooling = iota
	// CLS takes the vector of the [CLS] token (bge).
	CLS
)

// Spec describes a model: its files and how sentence-transformers runs it.
type Spec struct {
	// Name is the model's short name, for example "all-minilm-l6-v2-q".
	Name string
	// ONNX is the model graph with its weights. Its inputs are input_ids,
	// attention_mask and (when the graph has it) token_type_ids, int64
	// [batch, tokens]; its first output the token vectors, float32
	// [batch, tokens, Dims].
	ONNX []byte
	// Tokenizer is the model's tokenizer.json (a WordPiece model).
	Tokenizer []byte
	// MaxTokens is the sentence-transformers max_seq_length: the most tokens
	// of a text, [CLS] and [SEP] included.
	MaxTokens int
	// Dims is the length of a sentence vector.
	Dims    int
	Pooling Pooling
	// QueryPrefix and DocumentPrefix are put before each query and each
	// document, for models trained with them ("query: ", "passage: ").
	QueryPrefix, DocumentPrefix string
	// TokenTypes says whether the graph takes token_type_ids.
	TokenTypes bool
	// Languages are the languages the model was trained to read ("en"),
	// empty for any. They do not change its vectors.
	Languages []string
}

// BatchSize is the most texts run through the model at once. On a CPU one
// text a run is the fastest and the lightest, and pads nothing: on one
// core, embedding the archive's 512 long texts (BenchmarkEmbedArchive)
// runs at 45–47 signals/s with a peak of 161–182 MB resident, against
// 44 and 186–189 MB two at a time and 40–42 and 219–223 MB four at a time;
// the demo's texts (BenchmarkEmbedDemo) run at 101–103 signals/s either
// way, peaking at 174–184 MB against 212–229 MB. Larger batches are slower
// still: 99 signals/s on the demo's texts in batches of 8, 80 in batches of
// 32. A call's texts run shortest first, so that a larger batch would pad
// to about its own length.
const BatchSize = 1

// smallCall is the most texts of a call that runs in the session without
// an arena: a query, or the few candidates a search finds without a
// vector.
const smallCall = 4

// Encoder embeds texts with one model. It is safe for concurrent use.
//
// It runs the model in two ONNX Runtime sessions. Calls of at most
// smallCall texts (a query, a candidate a search finds without a vector)
// run in one that takes each run's memory from the C library's malloc and
// gives it back when the run ends. Longer calls (an indexing pass) run in a
// second one, opened on first use, whose memory arena keeps what a run
// took for the next: it saves the page faults of mapping each batch's
// activations afresh (a third of the time on long texts), and holds that
// memory until Release closes it.
type Encoder struct {
	spec     Spec
	tok      *tokenizer.Tokenizer
	tokMu    sync.Mutex // the tokenizer keeps state between calls
	cls, sep int
	run      runner
	name     string
	threads  int
	// bulk is the session of long calls, nil until one comes and after
	// Release; bulkMu is held for reading by each long call, for writing
	// to open or close it.
	bulk   runner
	bulkMu sync.RWMutex
	// stripAccents: the normaliser strips accents, which this package does
	// itself before the tokenizer (see bertAccents).
	stripAccents bool
}

// runner runs the graph on one padded batch. ids, mask and types hold
// batch×tokens values; out receives batch×tokens×dims token vectors.
type runner interface {
	run(ids, mask, types []int64, batch, tokens int, out []float32) error
	close() error
}

// ErrNoRuntime is returned by Open when ONNX Runtime cannot be loaded.
var ErrNoRuntime = errors.New("ONNX Runtime is not available")

// Open loads spec's model into ONNX Runtime, which Load must have loaded.
// threads is the most cores one run of the model uses.
func Open(spec Spec, threads int) (*Encoder, error) {
	if spec.MaxTokens < 3 || spec.Dims < 1 {
		return nil, fmt.Errorf("sentence: model %s: MaxTokens and Dims must be set", spec.Name)
	}
	e, err := newEncoder(spec)
	if err != nil {
		return nil, err
	}
	e.threads = threads
	if e.run, err = newRunner(spec, threads, false); err != nil {
		return nil, err
	}
	return e, nil
}

// newEncoder is an Encoder that tokenizes but cannot run the model yet.
func newEncoder(spec Spec) (*Encoder, error) {
	config, strip, err := bertAccents(spec.Tokenizer)
	if err != nil {
		return nil, fmt.Errorf("sentence: model %s: tokenizer.json: %w", spec.Name, err)
	}
	tok, err := pretrained.FromReader(bytes.NewReader(config))
	if err != nil {
		return nil, fmt.Errorf("sentence: model %s: tokenizer.json: %w", spec.Name, err)
	}
	// Truncation and padding are the encoder's: MaxTokens, and per batch.
	tok.WithTruncation(nil)
	tok.WithPadding(nil)
	clsName, sepName := specialTokens(config)
	vocab := tok.GetVocab(true)
	cls, okC := vocab[clsName]
	sep, okS := vocab[sepName]
	if !okC || !okS {
		return nil, fmt.Errorf("sentence: model %s: the vocabulary lacks %s or %s", spec.Name, clsName, sepName)
	}
	return &Encoder{spec: spec, tok: tok, cls: cls, sep: sep, name: spec.Name + "-" + Digest(spec)[:12], stripAccents: strip}, nil
}

// specialTokens returns the tokens the tokenizer's post-processor puts
// before and after a text: BERT's [CLS] and [SEP], or MPNet's and
// RoBERTa's <s> and </s>. A post-processor of another shape reads as
// BERT's.
func specialTokens(config []byte) (cls, sep string) {
	var doc struct {
		Post struct {
			Type     string `json:"type"`
			CLS, SEP []any  // ["<s>", 0]
			Single   []struct {
				SpecialToken *struct{ ID string } `json:"SpecialToken"`
			} `json:"single"`
		} `json:"post_processor"`
	}
	cls, sep = "[CLS]", "[SEP]"
	if json.Unmarshal(config, &doc) != nil {
		return cls, sep
	}
	p := doc.Post
	switch p.Type {
	case "BertProcessing", "RobertaProcessing":
		c, okC := first(p.CLS)
		s, okS := first(p.SEP)
		if okC && okS {
			cls, sep = c, s
		}
	case "TemplateProcessing":
		if n := len(p.Single); n == 3 && p.Single[0].SpecialToken != nil && p.Single[2].SpecialToken != nil {
			cls, sep = p.Single[0].SpecialToken.ID, p.Single[2].SpecialToken.ID
		}
	}
	return cls, sep
}

// first is the token of a post-processor's ["<s>", 0].
func first(token []any) (string, bool) {
	if len(token) == 0 {
		return "", false
	}
	s, ok := token[0].(string)
	return s, ok
}

// bertAccents returns tokenizer.json with the BERT normaliser's accent
// stripping turned off, and whether the reference tokenizer strips accents:
// explicitly, or when strip_accents is null and lowercase is on (an uncased
// model). The Go tokenizer's own stripping misses some marks, so the
// encoder strips them itself (stripAccents) before the tokenizer's
// lowercasing and splitting, which then find nothing more to strip.
func bertAccents(config []byte) ([]byte, bool, error) {
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(config, &doc); err != nil {
		return nil, false, err
	}
	var norm map[string]any
	if raw, ok := doc["normalizer"]; !ok || json.Unmarshal(raw, &norm) != nil || norm["type"] != "BertNormalizer" {
		return config, false, nil
	}
	strip, explicit := norm["strip_accents"].(bool)
	if !explicit {
		strip, _ = norm["lowercase"].(bool)
	}
	norm["strip_accents"] = false
	raw, err := json.Marshal(norm)
	if err != nil {
		return nil, false, err
	}
	doc["normalizer"] = raw
	out, err := json.Marshal(doc)
	return out, strip, err
}

// stripAccents is the BERT normaliser's: the text decomposed (NFD) without
// its non-spacing marks. Hangul syllables decompose into their letters.
func stripAccents(s string) string {
	d := norm.NFD.String(s)
	return strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Mn, r) {
			return -1
		}
		return r
	}, d)
}

// Digest is the SHA-256 of everything that shapes spec's vectors: the
// graph, the tokenizer, the token cap, the pooling and the prefixes.
func Digest(spec Spec) string {
	h := sha256.New()
	h.Write(spec.ONNX)
	h.Write(spec.Tokenizer)
	fmt.Fprintf(h, "\x00%d\x00%d\x00%d\x00%q\x00%q", spec.MaxTokens, spec.Dims, spec.Pooling, spec.QueryPrefix, spec.DocumentPrefix)
	return hex.EncodeToString(h.Sum(nil))
}

// Close releases the model.
func (e *Encoder) Close() error {
	return errors.Join(e.Release(), e.run.close())
}

// Release closes the session of long calls, and with it the memory its
// arena holds; the next long call opens it again. The indexer releases it
// after each pass.
func (e *Encoder) Release() error {
	e.bulkMu.Lock()
	defer e.bulkMu.Unlock()
	if e.bulk == nil {
		return nil
	}
	err := e.bulk.close()
	e.bulk = nil
	return err
}

// bulkRunner returns the session of long calls, opening it if need be,
// with bulkMu held for reading; the caller unlocks it when done.
func (e *Encoder) bulkRunner() (runner, error) {
	for {
		e.bulkMu.RLock()
		if e.bulk != nil {
			return e.bulk, nil
		}
		e.bulkMu.RUnlock()
		e.bulkMu.Lock()
		if e.bulk == nil {
			r, err := newRunner(e.spec, e.threads, true)
			if err != nil {
				e.bulkMu.Unlock()
				return nil, err
			}
			e.bulk = r
		}
		// A Release may close it before the read lock is taken again:
		// look again.
		e.bulkMu.Unlock()
	}
}

// Name is the model's name followed by the first 12 hex digits of its
// Digest: vectors of another model, tokenizer or pooling have another name.
func (e *Encoder) Name() string { return e.name }

// Dims is the length of the vectors.
func (e *Encoder) Dims() int { return e.spec.Dims }

// Languages are the languages the model reads (Spec.Languages), nil for
// any.
func (e *Encoder) Languages() []string { return e.spec.Languages }

// Spec returns the model's description.
func (e *Encoder) Spec() Spec { return e.spec }

// EmbedQueries returns the unit vector of each query.
func (e *Encoder) EmbedQueries(ctx context.Context, texts []string) ([][]float32, error) {
	return e.embed(ctx, texts, e.spec.QueryPrefix)
}

// EmbedDocuments returns the unit vector of each document.
func (e *Encoder) EmbedDocuments(ctx context.Context, texts []string) ([][]float32, error) {
	return e.embed(ctx, texts, e.spec.DocumentPrefix)
}

// Tokens returns the token ids the model reads for text, [CLS] and [SEP]
// included, after the prefix and the cap.
func (e *Encoder) Tokens(text, prefix string) ([]int, error) {
	text = prefix + text
	if e.stripAccents {
		text = stripAccents(text)
	}
	e.tokMu.Lock()
	enc, err := e.tok.EncodeSingle(text, false)
	e.tokMu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("sentence: tokenize: %w", err)
	}
	ids := enc.Ids
	if len(ids) > e.spec.MaxTokens-2 {
		ids = ids[:e.spec.MaxTokens-2]
	}
	out := make([]int, 0, len(ids)+2)
	out = append(out, e.cls)
	out = append(out, ids...)
	return append(out, e.sep), nil
}

func (e *Encoder) embed(ctx context.Context, texts []string, prefix string) ([][]float32, error) {
	toks := make([][]int, len(texts))
	for i, t := range texts {
		var err error
		if toks[i], err = e.Tokens(t, prefix); err != nil {
			return nil, err
		}
	}
	// Shortest first, so that each batch pads to about its own length.
	order := make([]int, len(texts))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return len(toks[a]) - len(toks[b]) })
	out := make([][]float32, len(texts))
	b := batch{run: e.run}
	if len(texts) > smallCall {
		var err error
		if b.run, err = e.bulkRunner(); err != nil {
			return nil, fmt.Errorf("sentence: model %s: %w", e.spec.Name, err)
		}
		defer e.bulkMu.RUnlock()
	}
	for start := 0; start < len(order); start += BatchSize {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		idx := order[start:min(start+BatchSize, len(order))]
		if err := e.runBatch(&b, toks, idx, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// batch is the buffers of one run, reused across a call's batches, and the
// session that runs them.
type batch struct {
	run              runner
	ids, mask, types []int64
	hidden           []float32
}

func (e *Encoder) runBatch(b *batch, toks [][]int, idx []int, out [][]float32) error {
	n, width := len(idx), 0
	for _, i := range idx {
		width = max(width, len(toks[i]))
	}
	size := n * width
	b.ids = slices.Grow(b.ids[:0], size)[:size]
	b.mask = slices.Grow(b.mask[:0], size)[:size]
	b.types = slices.Grow(b.types[:0], size)[:size]
	clear(b.ids)
	clear(b.mask)
	clear(b.types)
	for r, i := range idx {
		for c, id := range toks[i] {
			b.ids[r*width+c] = int64(id)
			b.mask[r*width+c] = 1
		}
	}
	dims := e.spec.Dims
	b.hidden = slices.Grow(b.hidden[:0], size*dims)[:size*dims]
	if err := b.run.run(b.ids, b.mask, b.types, n, width, b.hidden); err != nil {
		return fmt.Errorf("sentence: model %s: %w", e.spec.Name, err)
	}
	for r, i := range idx {
		out[i] = pool(b.hidden[r*width*dims:(r+1)*width*dims], len(toks[i]), dims, e.spec.Pooling)
	}
	return nil
}

// pool turns the token vectors of one text (its first n tokens are real)
// into its unit sentence vector.
func pool(hidden []float32, n, dims int, p Pooling) []float32 {
	acc := make([]float64, dims)
	if p == CLS {
		n = 1
	}
	for t := range n {
		for j, x := range hidden[t*dims : (t+1)*dims] {
			acc[j] += float64(x)
		}
	}
	var norm float64
	for j := range acc {
		acc[j] /= float64(n)
		norm += acc[j] * acc[j]
	}
	out := make([]float32, dims)
	// sentence-transformers' Normalize divides by max(norm, 1e-12).
	inv := 1 / math.Max(math.Sqrt(norm), 1e-12)
	for j, x := range acc {
		out[j] = float32(x * inv)
	}
	return out
}

// SpecFromFile reads a candidate model for measurement: an .onnx file and
// the tokenizer.json beside it (named tokenizer.json, or after the model
// with -tokenizer.json). How sentence-transformers runs it follows from
// the model family in its file name: bge pools [CLS] and prefixes queries
// with its retrieval instruction, e5 prefixes "query: " and "passage: ",
// others (MiniLM, MPNet) pool the mean; MiniLM reads 256 tokens, MPNet 384,
// the others 512. Whether the graph takes token_type_ids and the length of
// its vectors are read from the graph, which needs ONNX Runtime loaded.
func SpecFromFile(path string) (Spec, error) {
	onnx, err := os.ReadFile(path)
	if err != nil {
		return Spec{}, err
	}
	base := strings.TrimSuffix(filepath.Base(path), ".onnx")
	var tok []byte
	for _, name := range []string{base + "-tokenizer.json", "tokenizer.json"} {
		if tok, err = os.ReadFile(filepath.Join(filepath.Dir(path), name)); err == nil {
			break
		}
	}
	if err != nil {
		return Spec{}, fmt.Errorf("sentence: no tokenizer.json beside %s", path)
	}
	spec := Spec{Name: base, ONNX: onnx, Tokenizer: tok, MaxTokens: 512}
	if spec.TokenTypes, spec.Dims, err = graphShape(onnx); err != nil {
		return Spec{}, fmt.Errorf("sentence: %s: %w", path, err)
	}
	lower := strings.ToLower(base)
	switch {
	case strings.Contains(lower, "mpnet"):
		spec.MaxTokens = 384
	case strings.Contains(lower, "bge"):
		spec.Pooling = CLS
		spec.QueryPrefix = "Represent this sentence for searching relevant passages: "
	case strings.Contains(lower, "e5"):
		spec.QueryPrefix, spec.DocumentPrefix = "query: ", "passage: "
	case strings.Contains(lower, "minilm"):
		spec.MaxTokens = 256
	}
	return spec, nil
}
