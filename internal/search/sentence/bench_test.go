package sentence_test

import (
	"bufio"
	"context"
	"os"
	"testing"

	"signals/internal/demo"
	"signals/internal/importer"
	"signals/internal/model"
	"signals/internal/search"
	"signals/internal/search/sentence"
	"signals/internal/search/sentence/bundled"
)

// BenchmarkEmbedDemo embeds the demo signals' texts (cut as a search cuts
// them) as the indexer does, one text a run on one core, and
// reports signals per second:
//
//	SIGNALS_ONNXRUNTIME=$(bash scripts/onnxruntime.sh) go test -run '^$' -bench EmbedDemo -benchtime 3x ./internal/search/sentence/
func BenchmarkEmbedDemo(b *testing.B) {
	enc := benchEncoder(b)
	texts := demoTexts(b)
	b.ResetTimer()
	for range b.N {
		if _, err := enc.EmbedDocuments(context.Background(), texts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(texts)*b.N)/b.Elapsed().Seconds(), "signals/s")
}

// BenchmarkEmbedArchive is BenchmarkEmbedDemo on 512 texts of the
// synthetic archive of the load tests (tools/synth), most of which reach
// the model's token cut:
//
//	SIGNALS_ONNXRUNTIME=$(bash scripts/onnxruntime.sh) go test -run '^$' -bench EmbedArchive -benchtime 2x ./internal/search/sentence/
func BenchmarkEmbedArchive(b *testing.B) {
	enc := benchEncoder(b)
	var texts []string
	for s := range demo.Synthetic(512, 1) {
		texts = append(texts, model.Cut(s.Text, search.CandidateChars))
	}
	b.ResetTimer()
	for range b.N {
		if _, err := enc.EmbedDocuments(context.Background(), texts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(texts)*b.N)/b.Elapsed().Seconds(), "signals/s")
}

// BenchmarkEmbedQuery embeds one short query, as a search does.
func BenchmarkEmbedQuery(b *testing.B) {
	enc := benchEncoder(b)
	for range b.N {
		if _, err := enc.EmbedQueries(context.Background(), []string{"who is hiring robotics engineers in Canada"}); err != nil {
			b.Fatal(err)
		}
	}
}

// benchEncoder opens the bundled model on one core, or skips without ONNX
// Runtime.
func benchEncoder(b *testing.B) *sentence.Encoder {
	b.Helper()
	if _, err := sentence.Load(os.Getenv(sentence.EnvRuntime)); err != nil {
		b.Skip(err)
	}
	enc, err := sentence.Open(bundled.Spec(), 1)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { enc.Close() })
	return enc
}

func demoTexts(b *testing.B) []string {
	b.Helper()
	var texts []string
	sc := bufio.NewScanner(demo.Records())
	sc.Buffer(make([]byte, 0, 1<<20), 1<<20)
	for sc.Scan() {
		s, problems := importer.Decode(sc.Bytes())
		if len(problems) > 0 {
			b.Fatalf("demo record: %v", problems)
		}
		texts = append(texts, model.Cut(s.Text, search.CandidateChars))
	}
	if err := sc.Err(); err != nil {
		b.Fatal(err)
	}
	return texts
}
