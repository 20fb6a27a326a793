// Package searchtest is a test double of the model behind an OpenAI-compatible
// embeddings server, for tests of the openai provider. It stands in for a paid
// or remote service only; everything else in those tests is real.
package searchtest

import (
	"encoding/json"
	"hash/fnv"
	"net/http"
	"strings"
	"unicode"
)

// Dims is the length of a BagOfWords vector.
const Dims = 4096

// BagOfWords embeds text as the counts of its lowercase words of four letters
// or more, hashed into Dims dimensions: texts that share words have a high
// cosine, as with a weak real model. A small constant component keeps a text
// without such words from being the zero vector.
func BagOfWords(text string) []float32 {
	v := make([]float32, Dims)
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if len(w) < 4 {
			continue // a crude stop list
		}
		h := fnv.New32a()
		h.Write([]byte(w))
		v[h.Sum32()%Dims]++
	}
	v[0] += 0.01
	return v
}

// WriteEmbeddings answers an embeddings request for inputs as an
// OpenAI-compatible server does, embedding each with embed. It lists the
// vectors in reverse order, as the protocol allows: clients must read each
// one's index.
func WriteEmbeddings(w http.ResponseWriter, inputs []string, embed func(string) []float32) {
	type item struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	out := struct {
		Object string `json:"object"`
		Data   []item `json:"data"`
	}{Object: "list", Data: []item{}}
	for i := len(inputs) - 1; i >= 0; i-- {
		out.Data = append(out.Data, item{"embedding", i, embed(inputs[i])})
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(out)
}
