package app_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"signals/internal/app"
	"signals/internal/apptest"
	"signals/internal/benchtest"
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
	log := apptest.Discard()
	a, err := app.New(ctx, app.Config{BaseURL: "http://bench.example", Database: filepath.Join(b.TempDir(), "signals.db")}, log)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { a.Close() })
	var out strings.Builder
	if err := app.LoadDemo(ctx, a.Store(), demo.Records(), &out, "signals", log); err != nil {
		b.Fatal(err)
	}
	key := regexp.MustCompile(`sig_[0-9A-Za-z]+`).FindString(out.String())
	if err := a.Store().SetLimits(ctx, 1, model.Limits{DailyRequests: 1 << 30, MinuteRequests: 1 << 30, DailySearches: 10, ConcurrentSearches: 1}); err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(a.Handler())
	b.Cleanup(srv.Close)
	client := benchtest.Client()
	httpList := func() {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/api/v1/signals?tags=funding,job&page_size="+strconv.Itoa(pageSize), nil)
		req.Header.Set("Authorization", "Bearer "+key)
		benchtest.Send(b, client, req)
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
		benchtest.Send(b, client, req)
	}
	httpTime, mcpTime := benchtest.SideBySide(b, httpList, mcpList)
	n := float64(b.N)
	ratio := float64(mcpTime) / float64(httpTime)
	b.ReportMetric(float64(httpTime.Nanoseconds())/n, "http-ns/call")
	b.ReportMetric(float64(mcpTime.Nanoseconds())/n, "mcp-ns/call")
	b.ReportMetric(ratio, "mcp/http")
	if ratio > 1.5 {
		b.Logf("page_size=%d: a tools/call of list_signals costs %.2f× the HTTP listing (target: at most 1.5×)", pageSize, ratio)
	}
}
