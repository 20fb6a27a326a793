package bench

import (
	"fmt"
	"net/url"
	"slices"
	"testing"
	"time"

	"signals/internal/benchtest"
)

// BenchmarkListSubstringEvery lists the first page (page_size 20) for b.N
// values of q, each asked once so that no cache answers it, through the
// whole handler over the archive with its trigram index filled. The values
// are benchtest.Substrings: words, passages, passages with a letter
// changed, words swapped, random letters, one or two characters common and
// rare, parts of authors' names and headlines, dealt in turn.
//
//	go test -run '^$' -bench ListSubstringEvery -benchtime 400x -v ./internal/bench/
func BenchmarkListSubstringEvery(b *testing.B) {
	f := loadFixture(b)
	qs := benchtest.Substrings(b.N, 2)
	type timing struct {
		d time.Duration
		q benchtest.Substring
	}
	all := make([]timing, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		f.serve(b, "/api/v1/signals?page_size=20&q="+url.QueryEscape(qs[i].Q))
		all = append(all, timing{time.Since(start), qs[i]})
	}
	b.StopTimer()
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	quantile := func(d []time.Duration, q float64) time.Duration { return d[int(float64(len(d)-1)*q)] }
	per := map[benchtest.SubstringKind][]time.Duration{}
	var ds []time.Duration
	for _, t := range all {
		per[t.q.Kind] = append(per[t.q.Kind], t.d)
		ds = append(ds, t.d)
	}
	for _, k := range benchtest.SubstringKinds {
		d := per[k]
		if len(d) == 0 {
			continue
		}
		slices.Sort(d)
		b.Logf("%-13s %3d values  p50 %6.2f ms  p90 %6.2f ms  max %6.2f ms", k, len(d),
			ms(quantile(d, 0.5)), ms(quantile(d, 0.9)), ms(d[len(d)-1]))
	}
	slices.SortFunc(all, func(a, b timing) int { return int(b.d - a.d) })
	for _, t := range all[:min(len(all), 8)] {
		b.Logf("slowest %6.2f ms  %-13s %s", ms(t.d), t.q.Kind, fmt.Sprintf("%q", t.q.Q))
	}
	slices.Sort(ds)
	b.ReportMetric(ms(quantile(ds, 0.5)), "p50-ms")
	b.ReportMetric(ms(quantile(ds, 0.99)), "p99-ms")
	b.ReportMetric(ms(ds[len(ds)-1]), "max-ms")
}
