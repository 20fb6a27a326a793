package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"signals/internal/model"
	"signals/internal/reads"
	"signals/internal/search"
)

// embedded makes sure every public signal of the archive has its vector,
// once per run, as a serving process's indexer would. With the sentence
// model (SIGNALS_BENCH_ONNXRUNTIME) only the newest 512, the window an
// unfiltered search scores, are embedded: the archive would take about 16
// minutes at 105 signals/s.
var embedded sync.Once

func searchFixture(b *testing.B) *fixture {
	f := loadFixture(b)
	embedded.Do(func() {
		ctx := context.Background()
		if benchSearch().Provider == "onnx" {
			if err := embedWindow(ctx, f); err != nil {
				b.Fatal(err)
			}
		} else if _, err := f.app.Search().IndexOnce(ctx); err != nil {
			b.Fatal(err)
		}
		acct, err := f.app.Store().AccountByEmail(ctx, "bench@example.com")
		if err != nil {
			b.Fatal(err)
		}
		l := acct.Limits
		l.DailySearches = 1 << 30
		if err := f.app.Store().SetLimits(ctx, acct.ID, l); err != nil {
			b.Fatal(err)
		}
	})
	return f
}

func (f *fixture) search(b *testing.B, query string) string {
	req := httptest.NewRequest(http.MethodPost, "/api/v1/signals/search",
		strings.NewReader(fmt.Sprintf(`{"query":%q}`, query)))
	req.Header.Set("Authorization", "Bearer "+f.key)
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	f.app.Handler().ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		b.Fatalf("search %q: %d %s", query, rec.Code, rec.Body)
	}
	return rec.Body.String()
}

// asked numbers fresh queries.
var asked atomic.Int64

var queries = []string{
	"humanoid robots raising money", "hiring machine learning engineers", "GPU shortage for training",
	"open weight language model release", "speech recognition for call centres", "AI regulation in Europe",
	"warehouse robots", "coding assistant feedback", "vector database launch", "AI conference in Paris",
}

// BenchmarkSearchFresh is a fresh semantic search through the whole handler
// over a full 512-candidate window of the 100,000-signal archive, with the
// builtin scorer (or the sentence model with SIGNALS_BENCH_ONNXRUNTIME) and
// stored vectors; every iteration asks something new:
//
//	SIGNALS_BENCH_ONNXRUNTIME=$(bash scripts/onnxruntime.sh) go test -run '^$' -bench SearchFresh -benchtime 200x ./internal/bench/
func BenchmarkSearchFresh(b *testing.B) { searchFresh(b, queries) }

// frenchQueries are asked in French: with the sentence model, which reads
// English only, the word vectors score them, from each candidate's text.
var frenchQueries = []string{
	"levées de fonds dans la robotique humanoïde", "qui recrute des ingénieurs en apprentissage automatique",
	"pénurie de GPU pour l'entraînement", "sortie d'un modèle de langage ouvert", "reconnaissance vocale pour les centres d'appels",
	"la régulation de l'IA en Europe", "robots dans les entrepôts", "avis sur les assistants de code",
	"lancement d'une base de données vectorielle", "conférence sur l'IA à Paris",
}

// BenchmarkSearchFreshFrench is BenchmarkSearchFresh with queries asked in
// French:
//
//	SIGNALS_BENCH_ONNXRUNTIME=$(bash scripts/onnxruntime.sh) go test -run '^$' -bench SearchFreshFrench -benchtime 200x ./internal/bench/
func BenchmarkSearchFreshFrench(b *testing.B) { searchFresh(b, frenchQueries) }

// searchFresh times fresh searches, each of one of qs with a number that
// makes it new.
func searchFresh(b *testing.B, qs []string) {
	f := searchFixture(b)
	timed(b, func(i int) {
		var r reads.SearchResponse
		n := asked.Add(1) // unique across the benchmark's runs
		body := f.search(b, fmt.Sprintf("%s %d", qs[n%int64(len(qs))], n))
		if err := json.Unmarshal([]byte(body), &r); err != nil || r.CacheHit || r.CandidatesConsidered != 512 {
			b.Fatalf("not a fresh search over 512 candidates: hit=%v considered=%d %v", r.CacheHit, r.CandidatesConsidered, err)
		}
	})
}

// BenchmarkSearchCacheHit repeats one search: every iteration after the
// first is answered from the cache.
func BenchmarkSearchCacheHit(b *testing.B) {
	f := searchFixture(b)
	f.search(b, "robots in warehouses")
	timed(b, func(i int) {
		var r reads.SearchResponse
		if err := json.Unmarshal([]byte(f.search(b, "robots in warehouses")), &r); err != nil || !r.CacheHit {
			b.Fatal("not a cache hit")
		}
	})
}

// embedWindow stores the vectors of the newest search.WindowSize public
// signals.
func embedWindow(ctx context.Context, f *fixture) error {
	scorer := f.app.Search().Scorer
	cands, err := f.app.Store().Candidates(ctx, model.Filter{}, scorer.Model(), search.CandidateChars, search.WindowSize)
	if err != nil {
		return err
	}
	texts := make([]string, len(cands))
	for i, c := range cands {
		texts[i] = c.Signal.Text
	}
	start := time.Now()
	vecs, err := scorer.EmbedDocuments(ctx, texts)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "embedded the newest %d signals with %s in %v\n", len(texts), scorer.Model(), time.Since(start).Round(time.Millisecond))
	byID := make(map[string][]float32, len(cands))
	for i, c := range cands {
		byID[c.Signal.ID] = vecs[i]
	}
	return f.app.Store().PutVectors(ctx, scorer.Model(), byID)
}
