// Package searchtest helps the tests of semantic search: a test double of the
// model behind an OpenAI-compatible embeddings server, for tests of the
// openai provider (it stands in for a paid or remote service only;
// everything else in those tests is real), and the demo signals that the
// scorers are measured on.
package searchtest

import (
	"bufio"
	"encoding/json"
	"hash/fnv"
	"net/http"
	"strings"
	"testing"
	"unicode"

	"signals/internal/demo"
	"signals/internal/model"
)

// DemoSignals returns the searchable signals (public, not market-only) of
// the demo data set, in its order (newest last), with their id, text and
// tag.
func DemoSignals(t testing.TB) []model.Signal {
	t.Helper()
	var out []model.Signal
	sc := bufio.NewScanner(demo.Records())
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r struct {
			ID         string `json:"id"`
			Text       string `json:"text"`
			Tag        string `json:"tag"`
			Country    string `json:"country"`
			Status     string `json:"status"`
			MarketOnly bool   `json:"market_only"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("demo data: %v", err)
		}
		if r.Status == model.StatusPublic && !r.MarketOnly {
			out = append(out, model.Signal{ID: r.ID, Text: r.Text, Tag: r.Tag, Country: r.Country})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

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
