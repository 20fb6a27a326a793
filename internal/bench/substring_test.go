package bench

import (
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"
)

// substrings are q values from common to absent, short and long.
var substrings = []string{
	"robot",                                 // common
	"autonomous truck",                      // common phrase
	"seattle",                               // a city
	"97%",                                   // with a LIKE metacharacter
	"zqxjv",                                 // absent
	"fine-tuning. zq",                       // common words, absent as a whole
	"operators now supervise the robot arm", // long, absent
	"ro",                                    // shorter than a trigram, common
}

var unindexed struct {
	once sync.Once
	f    *fixture
	err  error
}

// BenchmarkListSubstringEvery lists the first page for each of substrings,
// alternating between the served archive with its trigram index filled
// and the same archive with no signal indexed yet (every q then scans, as
// before the index existed).
func BenchmarkListSubstringEvery(b *testing.B) {
	indexed := loadFixture(b)
	unindexed.once.Do(func() {
		dir, err := os.MkdirTemp("", "signals-bench")
		if err != nil {
			unindexed.err = err
			return
		}
		unindexed.f, unindexed.err = newFixture(filepath.Join(dir, "bench.db"), false)
	})
	if unindexed.err != nil {
		b.Fatal(unindexed.err)
	}
	per := map[string][]time.Duration{}
	var with, without []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		q := substrings[(i/2)%len(substrings)]
		f := indexed
		if i%2 == 1 {
			f = unindexed.f
		}
		start := time.Now()
		f.serve(b, "/api/v1/signals?page_size=20&q="+url.QueryEscape(q))
		d := time.Since(start)
		if i%2 == 0 {
			with = append(with, d)
			per[q] = append(per[q], d)
		} else {
			without = append(without, d)
		}
	}
	b.StopTimer()
	if len(without) == 0 {
		return
	}
	for _, q := range substrings {
		d := per[q]
		if len(d) == 0 {
			continue
		}
		slices.Sort(d)
		b.Logf("indexed q=%-40q p50 %7.2f ms  p99 %7.2f ms", q, float64(d[len(d)/2])/1e6, float64(d[len(d)*99/100])/1e6)
	}
	for _, m := range []struct {
		name string
		d    []time.Duration
	}{{"indexed", with}, {"unindexed", without}} {
		slices.Sort(m.d)
		b.ReportMetric(float64(m.d[len(m.d)/2])/1e6, m.name+"-p50-ms")
		b.ReportMetric(float64(m.d[len(m.d)*99/100])/1e6, m.name+"-p99-ms")
	}
}
