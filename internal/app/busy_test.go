package app_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"signals/internal/app"
	"signals/internal/apptest"
	"signals/internal/failure"
	"signals/internal/model"
	"signals/internal/problem"
)

// withListTimeout sets the listings' deadline, as SIGNALS_LIST_TIMEOUT does.
func withListTimeout(d time.Duration) app.Option {
	return app.WithConfig(func(c *app.Config) { c.ListTimeout = d })
}

// docs/api.md: a listing that cannot finish within its deadline is 503
// service_busy with Retry-After, wherever a listing is served: the API,
// list_signals, the feed pages (a page that offers to try again) and the
// feeds. It counts as a request and as a 5xx, as other 503s do. A
// deadline of 1ns passes before any store read can finish.
func TestListingPastItsDeadlineIsBusy(t *testing.T) {
	t.Parallel()
	clk := apptest.NewClock(apptest.Noon)
	ta := apptest.Start(t, app.WithClock(clk.Now), withMetrics(), withListTimeout(time.Nanosecond))
	ta.Put(apptest.Fixtures()...)
	ctx := context.Background()
	if err := ta.Store().CreateHub(ctx, model.Hub{Slug: "jobs", Title: "Jobs", Description: "Hiring.", Filter: "tags=job"}); err != nil {
		t.Fatal(err)
	}

	for _, path := range []string{"/api/v1/signals", "/api/v1/signals?q=robot&page_size=5"} {
		resp, body := ta.Get(path)
		apptest.WantStatus(t, resp, body, http.StatusServiceUnavailable)
		p := apptest.Decode[problem.Problem](t, body)
		if p.Code != failure.CodeServiceBusy || p.RetryAfterSeconds == nil || *p.RetryAfterSeconds != 2 ||
			resp.Header.Get("Retry-After") != "2" {
			t.Errorf("%s: %s Retry-After=%q", path, body, resp.Header.Get("Retry-After"))
		}
		if resp.Header.Get("RateLimit") == "" {
			t.Errorf("%s: a busy listing was counted but says nothing of the allowance left", path)
		}
	}

	res, b := apptest.CallTool(t, ta.MCPSession(""), "list_signals", map[string]any{"q": "robot"})
	if p := problemOf(t, res, b); p["status"] != 503.0 || p["code"] != "service_busy" || p["retry_after_seconds"] != 2.0 {
		t.Errorf("list_signals past its deadline: %s", b)
	}

	u, err := ta.Store().Usage(ctx, 1, clk.Now())
	if err != nil || u.DayUsed != 3 {
		t.Errorf("usage = %+v, %v; want the 3 busy listings counted, as other 503s are", u, err)
	}
	m := scrape(t, ta.App)
	if got := sample(t, m, `signals_http_requests_total{method="GET",route="/api/v1/signals",status="5xx"}`); got != 2 {
		t.Errorf("busy listings counted as %v 5xx, want 2", got)
	}

	for _, path := range []string{"/?q=robot", "/hubs/jobs?page=2"} {
		resp, body := ta.Get(path, "Authorization", "")
		page := string(body)
		if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") != "2" ||
			resp.Header.Get("Content-Type") != "text/html; charset=utf-8" {
			t.Fatalf("%s: %d Retry-After=%q %s", path, resp.StatusCode, resp.Header.Get("Retry-After"), resp.Header.Get("Content-Type"))
		}
		retry := `<a href="` + strings.ReplaceAll(path, "&", "&amp;") + `">try again</a>`
		for _, want := range []string{"<h1>Service busy</h1>", "wait 2 seconds, then " + retry, "<code>service_busy</code>"} {
			if !strings.Contains(page, want) {
				t.Errorf("%s: the page lacks %q:\n%s", path, want, page)
			}
		}
	}
	_, md := ta.Get("/?q=robot", "Authorization", "", "Accept", "text/markdown")
	if !strings.Contains(string(md), "wait 2 seconds, then try again: <"+ta.Config.BaseURL+"/?q=robot>") {
		t.Errorf("Markdown:\n%s", md)
	}

	resp, body := ta.Get("/feed.json?q=robot", "Authorization", "")
	apptest.WantStatus(t, resp, body, http.StatusServiceUnavailable)
	if p := apptest.Decode[problem.Problem](t, body); p.Code != failure.CodeServiceBusy || resp.Header.Get("Retry-After") != "2" {
		t.Errorf("feed past its deadline: %s", body)
	}
}
