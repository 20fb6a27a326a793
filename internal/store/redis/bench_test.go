package redis_test

import (
	"context"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"signals/internal/model"
	"signals/internal/store/postgres"
	"signals/internal/store/postgres/pgtest"
	"signals/internal/store/redis"
	"signals/internal/store/redis/redistest"
)

// BenchmarkTakeRequest counts requests of 100,000 accounts from 64
// goroutines, on one Redis of its own, and reports what one count costs
// Redis: its CPU (network work included) and its commands, from its own
// statistics. One Redis core's capacity in counts per second is a million
// over redis-cpu-µs/op.
func BenchmarkTakeRequest(b *testing.B) {
	srv := redistest.Start(b, redistest.Options{})
	ctx := context.Background()
	pg, err := postgres.Open(ctx, pgtest.FreshSchema(b))
	if err != nil {
		b.Fatal(err)
	}
	st, err := redis.Open(ctx, srv.URL(), pg, redis.DefaultPrefix)
	if err != nil {
		pg.Close()
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	limits := model.Limits{DailyRequests: 1 << 30, MinuteRequests: 1 << 30}
	if _, err := srv.Do("CONFIG", "RESETSTAT"); err != nil {
		b.Fatal(err)
	}
	cpu := redisCPU(b, srv)
	var next atomic.Int64
	b.SetParallelism(32) // 64 goroutines on 2 cores
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			account := next.Add(1)%100_000 + 1
			if _, err := st.TakeRequest(ctx, account, limits, time.Now()); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.StopTimer()
	b.ReportMetric((redisCPU(b, srv)-cpu)*1e6/float64(b.N), "redis-cpu-µs/op")
	stats, err := srv.Do("INFO", "COMMANDSTATS")
	if err != nil {
		b.Fatal(err)
	}
	// cmdstat_hset:calls=N,usec=…: the commands the scripts ran, per count.
	for line := range strings.SplitSeq(stats, "\r\n") {
		name, rest, ok := strings.Cut(strings.TrimPrefix(line, "cmdstat_"), ":calls=")
		if !ok || name == "config|resetstat" || name == "info" || name == "hello" {
			continue
		}
		calls, _ := strconv.Atoi(rest[:strings.IndexByte(rest, ',')])
		b.ReportMetric(float64(calls)/float64(b.N), name+"/op")
	}
}

// redisCPU is the server's CPU seconds so far, user and system.
func redisCPU(b *testing.B, srv *redistest.Server) float64 {
	b.Helper()
	info, err := srv.Do("INFO", "CPU")
	if err != nil {
		b.Fatal(err)
	}
	var sum float64
	for line := range strings.SplitSeq(info, "\r\n") {
		if v, ok := strings.CutPrefix(line, "used_cpu_user:"); ok {
			f, _ := strconv.ParseFloat(v, 64)
			sum += f
		} else if v, ok := strings.CutPrefix(line, "used_cpu_sys:"); ok {
			f, _ := strconv.ParseFloat(v, 64)
			sum += f
		}
	}
	return sum
}
