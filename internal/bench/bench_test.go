// Package bench measures the service at the sizes its targets name:
// 100,000 signals in SQLite on this machine. Run with
//
//	go test -run '^$' -bench 'ListFiltered|ListSubstring$|ListConcurrent|Get|Quota' -benchtime 2000x ./internal/bench/
//	go test -run '^$' -bench Import -benchtime 3x ./internal/bench/
//
// Latencies are measured at the server (the handler, no network), and the
// medians are reported as p50-ms next to Go's mean ns/op.
package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"signals/internal/app"
	"signals/internal/auth"
	"signals/internal/demo"
	"signals/internal/importer"
	"signals/internal/model"
)

const archiveSize = 100_000

// corpus is the synthetic archive as JSON Lines, built once.
var corpus = sync.OnceValue(func() []byte {
	var buf bytes.Buffer
	if err := demo.WriteSynthetic(&buf, archiveSize, 1); err != nil {
		panic(err)
	}
	return buf.Bytes()
})

// fixture is a served database with the archive and one account.
type fixture struct {
	app  *app.App
	key  string
	ids  []string
	path string
}

var shared struct {
	once sync.Once
	f    *fixture
	err  error
}

func loadFixture(b *testing.B) *fixture {
	b.Helper()
	shared.once.Do(func() {
		dir, err := os.MkdirTemp("", "signals-bench")
		if err != nil {
			shared.err = err
			return
		}
		shared.f, shared.err = newFixture(filepath.Join(dir, "bench.db"), "", corpus(), true)
	})
	if shared.err != nil {
		b.Fatal(shared.err)
	}
	return shared.f
}

// benchSearch is the benchmarks' scorer: the bundled sentence model when
// SIGNALS_BENCH_ONNXRUNTIME names ONNX Runtime, else the builtin scorer.
func benchSearch() app.SearchConfig {
	if lib := os.Getenv("SIGNALS_BENCH_ONNXRUNTIME"); lib != "" {
		return app.SearchConfig{Provider: "onnx", ONNXRuntime: lib}
	}
	return app.SearchConfig{Provider: "builtin"}
}

// newFixture opens the database at path (a file, or a PostgreSQL URL with
// the folder outbox for its mail), imports data and creates the account.
func newFixture(path, outbox string, data []byte, index bool) (*fixture, error) {
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	a, err := app.New(ctx, app.Config{BaseURL: "http://bench", Database: path, Mail: app.MailConfig{Outbox: outbox},
		Search: benchSearch()}, log)
	if err != nil {
		return nil, err
	}
	if _, err := importer.Import(ctx, bytes.NewReader(data), a.Store(), importer.Options{}); err != nil {
		return nil, err
	}
	acct, err := a.Store().CreateAccount(ctx, "bench@example.com", time.Now())
	if err != nil {
		return nil, err
	}
	unlimited := model.Limits{DailyRequests: 1 << 30, MinuteRequests: 1 << 30, DailySearches: 10, ConcurrentSearches: 1}
	if err := a.Store().SetLimits(ctx, acct.ID, unlimited); err != nil {
		return nil, err
	}
	key, _, err := auth.Issue(ctx, a.Store(), acct.ID, "bench", time.Now())
	if err != nil {
		return nil, err
	}
	// The server fills the substring index after an import; measure the
	// steady state it reaches.
	if ix, ok := a.Store().(interface {
		IndexSubstrings(context.Context) (int, error)
	}); ok && index {
		start := time.Now()
		n, err := ix.IndexSubstrings(ctx)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(os.Stderr, "substring index: %d times in %v\n", n, time.Since(start).Round(time.Millisecond))
	}
	f := &fixture{app: a, key: key, path: path}
	for page := 1; len(f.ids) < 2000; page++ {
		list, _, err := a.Store().ListSignals(ctx, model.ListQuery{Page: page * 20, PageSize: 50})
		if err != nil {
			return nil, err
		}
		if len(list) == 0 { // an archive smaller than the pages read
			break
		}
		for _, s := range list {
			f.ids = append(f.ids, s.ID)
		}
	}
	return f, nil
}

// serve runs one request through the whole handler and fails on non-200.
func (f *fixture) serve(b *testing.B, target string) {
	req := httptest.NewRequest(http.MethodGet, target, nil)
	req.Header.Set("Authorization", "Bearer "+f.key)
	rec := httptest.NewRecorder()
	f.app.Handler().ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		b.Fatalf("%s: %d %s", target, rec.Code, rec.Body)
	}
}

// timed runs fn b.N times and reports the median latency.
func timed(b *testing.B, fn func(i int)) {
	b.Helper()
	d := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		fn(i)
		d = append(d, time.Since(start))
	}
	b.StopTimer()
	reportMedian(b, d)
}

func reportMedian(b *testing.B, d []time.Duration) {
	slices.Sort(d)
	b.ReportMetric(float64(d[len(d)/2])/1e6, "p50-ms")
	b.ReportMetric(float64(d[len(d)*99/100])/1e6, "p99-ms")
}

var filters = []string{
	"tags=funding",
	"tags=job,events&language=en",
	"sources=microblog",
	"country=canada",
	"language=fr&sources=professional_network",
	"tags=physical_ai&country=united_states",
	"",
	"page=40",
}

func BenchmarkListFiltered(b *testing.B) {
	f := loadFixture(b)
	timed(b, func(i int) {
		f.serve(b, "/api/v1/signals?page_size=20&"+filters[i%len(filters)])
	})
}

func BenchmarkListSubstring(b *testing.B) {
	f := loadFixture(b)
	timed(b, func(i int) {
		f.serve(b, "/api/v1/signals?page_size=20&q=robot")
	})
}

// BenchmarkListSubstringRare is the worst case of q: a substring no signal
// has, so every public signal is scanned.
func BenchmarkListSubstringRare(b *testing.B) {
	f := loadFixture(b)
	timed(b, func(i int) {
		f.serve(b, "/api/v1/signals?page_size=20&q=zqxjv")
	})
}

func BenchmarkGetSignal(b *testing.B) {
	f := loadFixture(b)
	timed(b, func(i int) {
		f.serve(b, "/api/v1/signals/"+url.PathEscape(f.ids[i%len(f.ids)]))
	})
}

// BenchmarkImport imports the archive into a fresh database per run and
// reports signals per second (parse, validate, fold and write, one
// transaction).
func BenchmarkImport(b *testing.B) {
	data := corpus()
	var total time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		f, err := newEmptyApp(filepath.Join(b.TempDir(), fmt.Sprint("import", i, ".db")))
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start := time.Now()
		res, err := importer.Import(context.Background(), bytes.NewReader(data), f.Store(), importer.Options{})
		total += time.Since(start)
		if err != nil || res.Imported != archiveSize {
			b.Fatalf("import: %+v %v", res, err)
		}
		b.StopTimer()
		f.Close()
	}
	b.ReportMetric(float64(archiveSize*b.N)/total.Seconds(), "signals/s")
}

func newEmptyApp(path string) (*app.App, error) {
	return app.New(context.Background(), app.Config{BaseURL: "http://bench", Database: path},
		slog.New(slog.NewTextHandler(io.Discard, nil)))
}

// BenchmarkListGzip is the cost of compression: the same 20-signal list
// (about 15 KB) answered plainly and gzipped, alternating in one run.
func BenchmarkListGzip(b *testing.B) {
	f := loadFixture(b)
	var plain, gz []time.Duration
	var plainBytes, gzBytes int
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		req := httptest.NewRequest(http.MethodGet, "/api/v1/signals?page_size=20&tags=funding,job", nil)
		req.Header.Set("Authorization", "Bearer "+f.key)
		if i%2 == 1 {
			req.Header.Set("Accept-Encoding", "gzip")
		}
		rec := httptest.NewRecorder()
		start := time.Now()
		f.app.Handler().ServeHTTP(rec, req)
		d := time.Since(start)
		if rec.Code != http.StatusOK || (i%2 == 1) != (rec.Header().Get("Content-Encoding") == "gzip") {
			b.Fatalf("%d, Content-Encoding %q", rec.Code, rec.Header().Get("Content-Encoding"))
		}
		if i%2 == 1 {
			gz, gzBytes = append(gz, d), rec.Body.Len()
		} else {
			plain, plainBytes = append(plain, d), rec.Body.Len()
		}
	}
	b.StopTimer()
	if len(gz) == 0 {
		return
	}
	slices.Sort(plain)
	slices.Sort(gz)
	b.ReportMetric(float64(plain[len(plain)/2])/1e6, "plain-p50-ms")
	b.ReportMetric(float64(gz[len(gz)/2])/1e6, "gzip-p50-ms")
	b.ReportMetric(float64(plain[len(plain)*99/100])/1e6, "plain-p99-ms")
	b.ReportMetric(float64(gz[len(gz)*99/100])/1e6, "gzip-p99-ms")
	b.ReportMetric(float64(plainBytes), "plain-bytes")
	b.ReportMetric(float64(gzBytes), "gzip-bytes")
}
