package app

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"signals/internal/demo"
	"signals/internal/model"
)

// BenchmarkMCPListVersusHTTP compares a tools/call of list_signals with the
// same listing over HTTP, side by side on one app over loopback HTTP: each
// iteration sends one of each, alternating which goes first. It reports
// both latencies and their ratio (target: at most 1.5) for a small and a
// full default page of the demo data.
//
//	go test -run '^$' -bench MCPListVersusHTTP -benchtime 2000x ./internal/app/
func BenchmarkMCPListVersusHTTP(b *testing.B) {
	for _, size := range []int{1, 5, 20} {
		b.Run(fmt.Sprintf("page_size=%d", size), func(b *testing.B) { benchmarkMCPList(b, size) })
	}
}

func benchmarkMCPList(b *testing.B, pageSize int) {
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	a, err := New(ctx, Config{BaseURL: "http://bench.example", Database: filepath.Join(b.TempDir(), "signals.db")}, log)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { a.Close() })
	var out strings.Builder
	if err := LoadDemo(ctx, a.Store(), demo.Records(), &out, log); err != nil {
		b.Fatal(err)
	}
	key := regexp.MustCompile(`sig_[0-9A-Za-z]+`).FindString(out.String())
	if err := a.Store().SetLimits(ctx, 1, model.Limits{DailyRequests: 1 << 30, MinuteRequests: 1 << 30, DailySearches: 10, ConcurrentSearches: 1}); err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(a.Handler())
	b.Cleanup(srv.Close)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	send := func(req *http.Request) {
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || strings.Contains(string(body), `"isError":true`) {
			b.Fatalf("%s %s: %d %s", req.Method, req.URL.Path, resp.StatusCode, body)
		}
	}
	httpList := func() {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/api/v1/signals?tags=funding,job&page_size="+strconv.Itoa(pageSize), nil)
		req.Header.Set("Authorization", "Bearer "+key)
		send(req)
	}
	// What a stateless MCP client sends for one call: one POST.
	call := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"list_signals","arguments":{"tags":["funding","job"],"page_size":` +
		strconv.Itoa(pageSize) + `}}}`
	mcpList := func() {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/mcp", strings.NewReader(call))
		req.Header.Set("Authorization", "Bearer "+key)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2025-11-25")
		send(req)
	}
	for range 50 { // warm up connections, caches and the SQLite page cache
		httpList()
		mcpList()
	}
	var httpTime, mcpTime time.Duration
	timed := func(f func(), total *time.Duration) {
		start := time.Now()
		f()
		*total += time.Since(start)
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if i%2 == 0 {
			timed(httpList, &httpTime)
			timed(mcpList, &mcpTime)
		} else {
			timed(mcpList, &mcpTime)
			timed(httpList, &httpTime)
		}
	}
	n := float64(b.N)
	ratio := float64(mcpTime) / float64(httpTime)
	b.ReportMetric(float64(httpTime.Nanoseconds())/n, "http-ns/call")
	b.ReportMetric(float64(mcpTime.Nanoseconds())/n, "mcp-ns/call")
	b.ReportMetric(ratio, "mcp/http")
	if ratio > 1.5 {
		b.Logf("page_size=%d: a tools/call of list_signals costs %.2f× the HTTP listing (target: at most 1.5×)", pageSize, ratio)
	}
}
