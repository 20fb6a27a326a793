package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"signals/internal/reads"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// embedded makes sure every public signal of the archive has its vector,
// once per run, as a serving process's indexer would.
var embedded sync.Once

func searchFixture(b *testing.B) *fixture {
	f := loadFixture(b)
	embedded.Do(func() {
		ctx := context.Background()
		if _, err := f.app.Search().IndexOnce(ctx); err != nil {
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
// builtin scorer and stored vectors; every iteration asks something new.
func BenchmarkSearchFresh(b *testing.B) {
	f := searchFixture(b)
	timed(b, func(i int) {
		var r reads.SearchResponse
		n := asked.Add(1) // unique across the benchmark's runs
		body := f.search(b, fmt.Sprintf("%s %d", queries[n%int64(len(queries))], n))
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
