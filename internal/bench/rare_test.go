package bench

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"signals/internal/demo"
	"signals/internal/store/postgres/pgtest"
)

// BenchmarkRareSubstring imports SIGNALS_BENCH_RARE_SIGNALS synthetic
// signals (100,000 by default) into each engine, indexes them as the
// server does after an import, and then asks, through the whole handler,
// 20 substrings no signal holds (q=zqxjvw0 … zqxjvw19, each once, and
// further numbers in further rounds), each in turn with the same plain
// filtered list (which the list cache answers). It reports both medians and
// their ratio. PostgreSQL runs only with SIGNALS_TEST_POSTGRES:
//
//	SIGNALS_TEST_POSTGRES=postgres://postgres@127.0.0.1:5432/test?sslmode=disable \
//	  go test -run '^$' -bench RareSubstring -benchtime 5x ./internal/bench/
func BenchmarkRareSubstring(b *testing.B) {
	n := 100_000
	if s := os.Getenv("SIGNALS_BENCH_RARE_SIGNALS"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil || n <= 0 {
			b.Fatalf("SIGNALS_BENCH_RARE_SIGNALS=%q: not a count", s)
		}
	}
	data := corpus()
	if n != archiveSize {
		var buf bytes.Buffer
		if err := demo.WriteSynthetic(&buf, n, 1); err != nil {
			b.Fatal(err)
		}
		data = buf.Bytes()
	}
	b.Run("sqlite", func(b *testing.B) {
		rareSubstring(b, filepath.Join(b.TempDir(), "rare.db"), "", data)
	})
	b.Run("postgres", func(b *testing.B) {
		if os.Getenv("SIGNALS_TEST_POSTGRES") == "" {
			b.Skip("SIGNALS_TEST_POSTGRES is not set")
		}
		rareSubstring(b, pgtest.FreshSchema(b), b.TempDir(), data)
	})
}

// rareSubstring measures the rare substrings against a plain list over the
// database at path (see newFixture), filled with data.
func rareSubstring(b *testing.B, path, outbox string, data []byte) {
	start := time.Now()
	f, err := newFixture(path, outbox, data, true)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { f.app.Close() })
	b.Logf("imported and indexed in %v", time.Since(start).Round(time.Second))
	const plain = "/api/v1/signals?page_size=20&tags=funding"
	f.serve(b, plain)
	var rare, list []time.Duration
	took := func(target string) time.Duration {
		start := time.Now()
		f.serve(b, target)
		return time.Since(start)
	}
	round := 0
	for b.Loop() {
		for i := range 20 {
			list = append(list, took(plain))
			rare = append(rare, took(fmt.Sprintf("/api/v1/signals?page_size=20&q=zqxjvw%d", round*20+i)))
		}
		round++
	}
	median := func(d []time.Duration) float64 {
		slices.Sort(d)
		return float64(d[len(d)/2]) / 1e6
	}
	r, p := median(rare), median(list)
	b.ReportMetric(r, "rare-ms")
	b.ReportMetric(p, "plain-ms")
	b.ReportMetric(r/p, "ratio")
}
