package sentence_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"

	"signals/internal/demo"
	"signals/internal/model"
	"signals/internal/search"
	"signals/internal/search/sentence"
	"signals/internal/search/sentence/bundled"
)

// reference is one text of testdata/reference.json, written by
// testdata/reference.py with sentence-transformers and onnxruntime.
type reference struct {
	Text string    `json:"text"`
	IDs  []int     `json:"ids"`
	ONNX []float32 `json:"onnx"`
	ST   []float32 `json:"st"`
}

func references(t *testing.T) []reference {
	t.Helper()
	b, err := os.ReadFile("testdata/reference.json")
	if err != nil {
		t.Fatal(err)
	}
	var refs []reference
	if err := json.Unmarshal(b, &refs); err != nil {
		t.Fatal(err)
	}
	if len(refs) < 10 {
		t.Fatalf("%d references, want the 10 or more of texts.json", len(refs))
	}
	return refs
}

// TestReferenceTokens checks that the tokenizer gives exactly the ids
// sentence-transformers feeds the model: the BERT normaliser (lower case,
// accents stripped, CJK split, control characters dropped), WordPiece,
// [CLS] and [SEP], and the cut at 256 tokens (the last text is longer).
func TestReferenceTokens(t *testing.T) {
	enc, err := sentence.NewTokenizerOnly(bundled.Spec())
	if err != nil {
		t.Fatal(err)
	}
	long := false
	for _, r := range references(t) {
		got, err := enc.Tokens(r.Text, "")
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, r.IDs) {
			t.Errorf("%q:\n got %v\nwant %v", r.Text, got, r.IDs)
		}
		long = long || len(r.IDs) == 256
	}
	if !long {
		t.Error("no reference text reaches the 256-token cut")
	}
}

// TestSpecialTokens checks that the tokens put around a text are those of
// the tokenizer's post-processor: BERT's template of [CLS] and [SEP], and
// the <s> and </s> of MPNet's and RoBERTa's processors (here pointed at
// two other tokens of the same vocabulary, so that the test tells them
// from the default).
func TestSpecialTokens(t *testing.T) {
	spec := bundled.Spec()
	var config map[string]any
	if err := json.Unmarshal(spec.Tokenizer, &config); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		post        any
		first, last int
	}{
		{config["post_processor"], 101, 102},
		{map[string]any{"type": "RobertaProcessing", "cls": []any{"[MASK]", 103}, "sep": []any{"[PAD]", 0}, "trim_offsets": true, "add_prefix_space": false}, 103, 0},
		{map[string]any{"type": "BertProcessing", "cls": []any{"[PAD]", 0}, "sep": []any{"[MASK]", 103}}, 0, 103},
	}
	for _, c := range cases {
		config["post_processor"] = c.post
		var err error
		if spec.Tokenizer, err = json.Marshal(config); err != nil {
			t.Fatal(err)
		}
		enc, err := sentence.NewTokenizerOnly(spec)
		if err != nil {
			t.Fatal(err)
		}
		ids, err := enc.Tokens("hello world", "")
		if err != nil {
			t.Fatal(err)
		}
		if len(ids) != 4 || ids[0] != c.first || ids[3] != c.last {
			t.Errorf("post-processor %v: ids %v, want %d … %d", c.post, ids, c.first, c.last)
		}
	}
}

// runtime loads ONNX Runtime from SIGNALS_ONNXRUNTIME or the usual places,
// or skips the test; under CI it fails instead, unless the run is the one
// that proves the fallback (SIGNALS_TEST_NO_ONNXRUNTIME=1).
func runtime(t *testing.T) {
	t.Helper()
	if _, err := sentence.Load(os.Getenv(sentence.EnvRuntime)); err != nil {
		if os.Getenv("CI") != "" && os.Getenv("SIGNALS_TEST_NO_ONNXRUNTIME") == "" {
			t.Fatalf("CI requires ONNX Runtime for the model's tests: %v", err)
		}
		t.Skipf("no ONNX Runtime (set %s): %v", sentence.EnvRuntime, errors.Unwrap(err))
	}
}

func bundledEncoder(t *testing.T) *sentence.Encoder {
	t.Helper()
	runtime(t)
	enc, err := sentence.Open(bundled.Spec(), 1)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { enc.Close() })
	return enc
}

// TestReferenceVectors checks the pooling and normalisation against the
// Python reference: one text at a time, the vectors are those onnxruntime
// gives for the same graph and ids, pooled as sentence-transformers pools;
// the int8 model stays close to the full-precision one that
// sentence-transformers runs; and a text embedded among others, as an
// indexing pass embeds it, has exactly the vector it has alone (int8
// activations are quantized per run, so a batch of several texts would
// move a vector a little).
func TestReferenceVectors(t *testing.T) {
	enc := bundledEncoder(t)
	ctx := context.Background()
	refs := references(t)
	texts := make([]string, len(refs))
	for i, r := range refs {
		texts[i] = r.Text
	}
	batched, err := enc.EmbedDocuments(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range refs {
		alone, err := enc.EmbedDocuments(ctx, []string{r.Text})
		if err != nil {
			t.Fatal(err)
		}
		v := alone[0]
		if len(v) != 384 {
			t.Fatalf("%q: %d dimensions", r.Text, len(v))
		}
		var worst float64
		for j := range v {
			worst = math.Max(worst, math.Abs(float64(v[j]-r.ONNX[j])))
		}
		if worst > 2e-5 {
			t.Errorf("%q: differs from the reference pipeline by up to %.2g in one dimension", r.Text, worst)
		}
		if c := search.Cosine(v, r.ST); c < 0.97 {
			t.Errorf("%q: cosine %.4f with sentence-transformers' full-precision vector", r.Text, c)
		}
		// An indexing pass runs one text at a time, so a text's vector is
		// its own, whatever is embedded beside it.
		for j := range v {
			if batched[i][j] != v[j] {
				t.Errorf("%q: embedded among others, dimension %d is %g, alone %g", r.Text, j, batched[i][j], v[j])
				break
			}
		}
	}
}

// TestQueriesAndDocuments: the model's vectors are unit vectors, a text
// is closer to its paraphrase than to an unrelated text, and an empty
// text still has a vector (of [CLS] and [SEP]).
func TestQueriesAndDocuments(t *testing.T) {
	enc := bundledEncoder(t)
	ctx := context.Background()
	q, err := enc.EmbedQueries(ctx, []string{"who is hiring robotics engineers"})
	if err != nil {
		t.Fatal(err)
	}
	docs, err := enc.EmbedDocuments(ctx, []string{
		"We are recruiting engineers for our humanoid robot team.",
		"A recipe for lemon cake with poppy seeds.",
		"",
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range append(q, docs...) {
		var n float64
		for _, x := range v {
			n += float64(x) * float64(x)
		}
		if math.Abs(n-1) > 1e-4 {
			t.Errorf("vector %d has norm² %.6f", i, n)
		}
	}
	if near, far := search.Cosine(q[0], docs[0]), search.Cosine(q[0], docs[1]); near <= far+0.2 {
		t.Errorf("paraphrase at cosine %.3f, unrelated text at %.3f", near, far)
	}
	if err := context.Canceled; err != nil {
		ctx, cancel := context.WithCancel(ctx)
		cancel()
		if _, err := enc.EmbedDocuments(ctx, []string{"a"}); !errors.Is(err, context.Canceled) {
			t.Errorf("a cancelled embedding: %v", err)
		}
	}
}

// TestBundledFiles checks the bundled model against the sums of the
// artifact it comes from, so that a changed file cannot pass for it.
func TestBundledFiles(t *testing.T) {
	spec := bundled.Spec()
	if got := sentence.Digest(spec); len(got) != 64 {
		t.Fatalf("digest %q", got)
	}
	sums, err := os.ReadFile("bundled/SHA256SUMS")
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"model.onnx": spec.ONNX, "tokenizer.json": spec.Tokenizer} {
		if want := sumOf(t, sums, name); want != sha256Hex(data) {
			t.Errorf("%s: sha256 %s, SHA256SUMS says %s", name, sha256Hex(data), want)
		}
	}
}

// TestEmbeddingGivesMemoryBack: ONNX Runtime allocates each run's
// activations through the C library's malloc. On Linux with glibc, once the
// runtime is loaded, what embedding long texts took is given back to the
// system when the pass ends (Encoder.Release closes the session of long
// calls, then sentence.TrimMemory, after Go's own heap), rather than kept in
// malloc's arenas for the life of the process.
func TestEmbeddingGivesMemoryBack(t *testing.T) {
	enc := bundledEncoder(t)
	if !glibc(t) {
		t.Skip("the C library is not glibc: its malloc is left as it is")
	}
	var texts []string
	for s := range demo.Synthetic(64, 1) {
		texts = append(texts, model.Cut(s.Text, search.CandidateChars))
	}
	ctx := context.Background()
	// A first pass: the runtime's kernels keep state of their own.
	if _, err := enc.EmbedDocuments(ctx, texts[:16]); err != nil {
		t.Fatal(err)
	}
	release(enc)
	before := anonymousMemory(t)
	for range 2 {
		if _, err := enc.EmbedDocuments(ctx, texts); err != nil {
			t.Fatal(err)
		}
	}
	release(enc)
	after := anonymousMemory(t)
	t.Logf("anonymous resident memory: %d MB before, %d MB after embedding %d long texts twice", before>>20, after>>20, len(texts))
	if grown := after - before; grown > 24<<20 {
		t.Errorf("embedding kept %d MB after the pass (%d MB before, %d MB after), want at most 24 MB", grown>>20, before>>20, after>>20)
	}
}

// release is what the server does after an indexing pass.
func release(enc *sentence.Encoder) {
	if err := enc.Release(); err != nil {
		panic(err)
	}
	debug.FreeOSMemory()
	sentence.TrimMemory()
}

// glibc reports whether this process runs on glibc, whose libc.so.6 it maps.
func glibc(t *testing.T) bool {
	t.Helper()
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return false
	}
	return strings.Contains(string(maps), "/libc.so.6")
}

// anonymousMemory is the process's resident anonymous memory (RssAnon), in
// bytes.
func anonymousMemory(t *testing.T) int64 {
	t.Helper()
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(status)) {
		if rest, ok := strings.CutPrefix(line, "RssAnon:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatal("no RssAnon in /proc/self/status")
	return 0
}
