package app_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"signals/internal/app"
	"signals/internal/apptest"
	"signals/internal/benchtest"
	"signals/internal/demo"
	"signals/internal/model"
)

// BenchmarkMetricsCostOnList lists signals through the whole handler chain
// of two apps on the same demo data, one with metrics on and one without,
// side by side in one run, and reports what recording adds (target: under
// 2% of list throughput).
//
//	go test -run '^$' -bench MetricsCostOnList -benchtime 2000x -count 3 ./internal/app/
func BenchmarkMetricsCostOnList(b *testing.B) {
	plain, measured := benchListApp(b), benchListApp(b, withMetrics())
	list := func(h http.Handler, key string) func() {
		return func() {
			req := httptest.NewRequest(http.MethodGet, "/api/v1/signals?tags=funding,job&page_size=20", nil)
			req.Header.Set("Authorization", "Bearer "+key)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				b.Fatalf("status %d\n%s", rec.Code, rec.Body)
			}
		}
	}
	without, with := benchtest.SideBySide(b, list(plain.Handler(), plain.key), list(measured.Handler(), measured.key))
	n := float64(b.N)
	overhead := 100 * (float64(with) - float64(without)) / float64(without)
	b.ReportMetric(float64(without.Nanoseconds())/n, "off-ns/list")
	b.ReportMetric(float64(with.Nanoseconds())/n, "on-ns/list")
	b.ReportMetric(overhead, "overhead-%")
}

type benchApp struct {
	*app.App
	key string
}

// benchListApp is an app on the demo data whose demo key has no limits in
// the way.
func benchListApp(b *testing.B, opts ...app.Option) benchApp {
	b.Helper()
	ctx := context.Background()
	log := apptest.Discard()
	a, err := app.New(ctx, app.Config{BaseURL: "http://bench.example", Database: filepath.Join(b.TempDir(), "signals.db")}, log, opts...)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { a.Close() })
	var out strings.Builder
	if err := app.LoadDemo(ctx, a.Store(), demo.Records(), &out, "signals", log); err != nil {
		b.Fatal(err)
	}
	if err := a.Store().SetLimits(ctx, 1, model.Limits{DailyRequests: 1 << 30, MinuteRequests: 1 << 30, DailySearches: 10, ConcurrentSearches: 1}); err != nil {
		b.Fatal(err)
	}
	return benchApp{a, regexp.MustCompile(`sig_[0-9A-Za-z]+`).FindString(out.String())}
}
