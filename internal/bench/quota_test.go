package bench

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"signals/internal/auth"
	"signals/internal/model"
	"signals/internal/quota"
)

const clients = 200

// BenchmarkQuotaTake measures what counting adds to a request: the
// latency of Limiter.Take while 200 clients count at once, each on its own
// account (b.N takes in all).
func BenchmarkQuotaTake(b *testing.B) {
	f := loadFixture(b)
	ctx := context.Background()
	accounts := make([]model.Account, clients)
	for i := range accounts {
		a, err := f.app.Store().CreateAccount(ctx, auth.NewID("q")+"@example.com", time.Now())
		if err != nil {
			b.Fatal(err)
		}
		a.Limits = model.Limits{DailyRequests: 1 << 30, MinuteRequests: 1 << 30}
		accounts[i] = a
	}
	l := &quota.Limiter{Store: f.app.Store(), Now: time.Now}
	concurrently(b, func(c, _ int) {
		if _, err := l.Take(ctx, accounts[c]); err != nil {
			b.Error(err)
		}
	})
}

// BenchmarkListConcurrent200 is the whole list request, quota included,
// with 200 clients at once: the end-to-end view of the same cost.
func BenchmarkListConcurrent200(b *testing.B) {
	f := loadFixture(b)
	concurrently(b, func(c, i int) {
		f.serve(b, "/api/v1/signals?page_size=20&"+filters[(c+i)%len(filters)])
	})
}

// concurrently runs fn b.N times in all from 200 clients at once (fn gets
// the client and its iteration) and reports the median latency.
func concurrently(b *testing.B, fn func(client, i int)) {
	per := max(b.N/clients, 1)
	durations := make([][]time.Duration, clients)
	var wg sync.WaitGroup
	b.ResetTimer()
	for c := range clients {
		wg.Go(func() {
			d := make([]time.Duration, 0, per)
			for i := range per {
				start := time.Now()
				fn(c, i)
				d = append(d, time.Since(start))
			}
			durations[c] = d
		})
	}
	wg.Wait()
	b.StopTimer()
	reportMedian(b, slices.Concat(durations...))
}
