package app_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"signals/internal/app"
	"signals/internal/apptest"
	"signals/internal/model"
	"signals/internal/store/storetest"
)

// withMetrics turns metrics on, as SIGNALS_METRICS_ADDR does.
func withMetrics() app.Option {
	return app.WithConfig(func(c *app.Config) { c.MetricsAddr = "127.0.0.1:0" })
}

// scrape reads the metrics in the Prometheus text format.
func scrape(t *testing.T, a *app.App) string {
	t.Helper()
	h := a.MetricsHandler()
	if h == nil {
		t.Fatal("metrics are off")
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("scrape: status %d\n%s", rec.Code, rec.Body)
	}
	return rec.Body.String()
}

// sample is the value of the sample named series (labels in the sorted
// order the text format writes them), 0 when it is absent.
func sample(t *testing.T, metrics, series string) float64 {
	t.Helper()
	for line := range strings.Lines(metrics) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), series+" "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			return f
		}
	}
	return 0
}

// The build serving is one series of value 1, labelled as Prometheus
// exporters label theirs.
func TestMetricsNameTheBuild(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t, withMetrics())
	re := regexp.MustCompile(`(?m)^signals_build_info\{goversion="(go[^"]+)",revision="([^"]+)",schema="([^"]+)",version="([^"]+)"\} 1$`)
	got := scrape(t, ta.App)
	m := re.FindStringSubmatch(got)
	if m == nil {
		t.Fatalf("no signals_build_info{goversion,revision,schema,version} 1 in the metrics:\n%s", got)
	}
	if m[1] != runtime.Version() {
		t.Errorf("goversion %q, want %q", m[1], runtime.Version())
	}
	if m[3] != app.SchemaVersion(ta.Config.Database) {
		t.Errorf("schema %q, want %q", m[3], app.SchemaVersion(ta.Config.Database))
	}
}

func TestMetricsCountTraffic(t *testing.T) {
	t.Parallel()
	clk := apptest.NewClock(apptest.Noon) // the whole test runs in one UTC minute
	ta := apptest.Start(t, app.WithClock(clk.Now), withMetrics())
	ctx := context.Background()
	acct, err := ta.Store().AccountByEmail(ctx, "dev@example.com")
	if err != nil {
		t.Fatal(err)
	}
	limits := acct.Limits
	limits.MinuteRequests = 12
	if err := ta.Store().SetLimits(ctx, acct.ID, limits); err != nil {
		t.Fatal(err)
	}
	ta.Put(storetest.Sig("secret-id-1", 1), storetest.Sig("secret-id-2", 2),
		storetest.Sig("hidden", 3, func(s *model.Signal) { s.Status = model.StatusHidden }))
	before := scrape(t, ta.App)
	if got := sample(t, before, "signals_embedding_waiting"); got != 2 {
		t.Errorf("waiting to embed before indexing = %v, want 2", got)
	}
	if _, err := ta.Search().IndexOnce(ctx); err != nil {
		t.Fatal(err)
	}

	for range 3 {
		resp, body := ta.Get("/api/v1/signals")
		apptest.WantStatus(t, resp, body, http.StatusOK)
	}
	resp, body := ta.Get("/api/v1/signals/secret-id-missing")
	apptest.WantStatus(t, resp, body, http.StatusNotFound)
	resp, body = ta.Get("/api/v1/signals", "Authorization", "")
	apptest.WantStatus(t, resp, body, http.StatusUnauthorized)
	query := `{"query":"AI funding in Canada"}`
	resp, body = ta.SearchSignals(query) // fresh
	apptest.WantStatus(t, resp, body, http.StatusOK)
	resp, body = ta.SearchSignals(query) // cache hit
	apptest.WantStatus(t, resp, body, http.StatusOK)
	// 6 requests counted so far; 6 more reach the minute cap, 2 are refused.
	for range 6 {
		ta.Get("/api/v1/usage")
	}
	for range 2 {
		resp, body = ta.Get("/api/v1/usage")
		apptest.WantStatus(t, resp, body, http.StatusTooManyRequests)
	}
	b := apptest.NewBrowser(ta)
	b.Post("/sign-in", url.Values{"email": {"someone@example.com"}})
	req, _ := http.NewRequest("BREW", ta.URL+"/api/v1/signals", nil)
	ta.Send(req)

	m := scrape(t, ta.App)
	tests := []struct {
		series string
		want   float64
	}{
		{`signals_http_requests_total{method="GET",route="/api/v1/signals",status="2xx"}`, 3},
		{`signals_http_requests_total{method="GET",route="/api/v1/signals",status="4xx"}`, 1},
		{`signals_http_requests_total{method="GET",route="/api/v1/signals/",status="4xx"}`, 1},
		{`signals_http_requests_total{method="POST",route="/api/v1/signals/search",status="2xx"}`, 2},
		{`signals_http_requests_total{method="GET",route="/api/v1/usage",status="2xx"}`, 6},
		{`signals_http_requests_total{method="GET",route="/api/v1/usage",status="4xx"}`, 2},
		{`signals_http_requests_total{method="POST",route="/sign-in",status="2xx"}`, 1},
		{`signals_http_requests_total{method="other",route="/api/v1/signals",status="4xx"}`, 1},
		{`signals_http_request_duration_seconds_count{route="/api/v1/signals"}`, 5},
		{`signals_quota_refusals_total{code="minute_limit_reached"}`, 2},
		{`signals_quota_refusals_total{code="daily_limit_reached"}`, 0},
		{`signals_searches_total{outcome="fresh"}`, 1},
		{`signals_searches_total{outcome="cache_hit"}`, 1},
		{`signals_searches_total{outcome="joined"}`, 0},
		{`signals_searches_total{outcome="refused"}`, 0},
		{`signals_search_fresh_duration_seconds_count`, 1},
		{`signals_embedded_total`, 2},
		{`signals_embedding_waiting`, 0},
		{`signals_mails_total{kind="sign_in",result="sent"}`, 1},
		{`signals_mails_total{kind="sign_in",result="failed"}`, 0},
	}
	for _, tt := range tests {
		if got := sample(t, m, tt.series); got != tt.want {
			t.Errorf("%s = %v, want %v", tt.series, got, tt.want)
		}
	}
	for _, family := range []string{"signals_db_pool_connections", "go_goroutines", "process_cpu_seconds_total"} {
		if !strings.Contains(m, "\n"+family) {
			t.Errorf("no %s in the scrape", family)
		}
	}
	for _, secret := range []string{"secret-id", "example.com", ta.Key, "sig_"} {
		if strings.Contains(m, secret) {
			t.Errorf("the scrape holds %q", secret)
		}
	}
}

func TestMetricsAreOffByDefault(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t)
	if ta.MetricsHandler() != nil {
		t.Error("metrics on without SIGNALS_METRICS_ADDR")
	}
	resp, body := ta.Get("/metrics")
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET /metrics on the public address: %d\n%s", resp.StatusCode, body)
	}
}

func TestServeMetricsOnItsOwnListener(t *testing.T) {
	t.Parallel()
	ta := apptest.Start(t, withMetrics())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ta.ServeMetrics(ctx, ln) }()
	resp, err := http.Get("http://" + ln.Addr().String() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "signals_http_requests_total") &&
		!strings.Contains(string(body), "go_goroutines") {
		t.Errorf("status %d\n%s", resp.StatusCode, body)
	}
	cancel()
	if err := <-done; err != nil {
		t.Error(err)
	}
}
