package usage

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync/atomic"
	"testing"

	"signals/internal/model"
	"signals/internal/store"
	"signals/internal/store/sqlite"
)

// BenchmarkTakeRequest measures what recording adds to counting a request:
// SQLite's in-memory counters alone, and through the recorder, with
// parallel clients on 200 accounts.
//
//	go test -run '^$' -bench TakeRequest -count 5 ./internal/usage/
func BenchmarkTakeRequest(b *testing.B) {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "signals.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	ids := make([]int64, 200)
	for i := range ids {
		a, err := db.CreateAccount(ctx, fmt.Sprintf("b%d@example.com", i), noon)
		if err != nil {
			b.Fatal(err)
		}
		ids[i] = a.ID
	}
	limits := model.Limits{DailyRequests: 1 << 30, MinuteRequests: 1 << 30}
	rec := &Recorder{Store: db, Log: slog.New(slog.DiscardHandler)}
	for _, tt := range []struct {
		name string
		st   store.Quotas
	}{
		{"counters", db},
		{"recorded", rec},
	} {
		b.Run(tt.name, func(b *testing.B) {
			var next atomic.Int64
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					id := ids[next.Add(1)%int64(len(ids))]
					if _, err := tt.st.TakeRequest(ctx, id, limits, noon); err != nil {
						b.Error(err)
					}
				}
			})
		})
	}
}
