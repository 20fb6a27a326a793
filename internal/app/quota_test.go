package app_test

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"signals/internal/app/apptest"
	"signals/internal/auth"
	"signals/internal/failure"
	"signals/internal/model"
	"signals/internal/problem"
	"signals/internal/reads"
)

func TestMinuteCapIsExactUnderConcurrency(t *testing.T) {
	t.Parallel()
	ta, clk := apptest.StartAt(t, apptest.Noon)
	var wg sync.WaitGroup
	var mu sync.Mutex
	statuses := map[int]int{}
	for range 45 {
		wg.Go(func() {
			req, _ := http.NewRequest(http.MethodGet, ta.URL+"/api/v1/signals", nil)
			req.Header.Set("Authorization", "Bearer "+ta.Key)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			mu.Lock()
			statuses[resp.StatusCode]++
			mu.Unlock()
		})
	}
	wg.Wait()
	if statuses[200] != 30 || statuses[429] != 15 {
		t.Fatalf("45 simultaneous requests: %v, want 30 × 200 and 15 × 429", statuses)
	}
	// The usage endpoint would itself be refused now; ask the store.
	u, err := ta.Store().Usage(context.Background(), 1, clk.Now())
	if err != nil || u.MinuteUsed != 30 || u.DayUsed != 30 {
		t.Errorf("usage after the burst = %+v, %v; refused requests must not count", u, err)
	}
}

func TestRateLimitHeadersAnd429(t *testing.T) {
	t.Parallel()
	ta, clk := apptest.StartAt(t, apptest.Noon)
	for i := 1; i <= 30; i++ {
		resp, body := ta.Get("/api/v1/signals")
		apptest.WantStatus(t, resp, body, http.StatusOK)
		if got, want := resp.Header.Get("RateLimit"), `"minute";r=`+strconv.Itoa(30-i)+`;t=45`; got != want {
			t.Fatalf("request %d: RateLimit = %q, want %q", i, got, want)
		}
		if got := resp.Header.Get("RateLimit-Policy"); got != `"minute";q=30;w=60` {
			t.Fatalf("RateLimit-Policy = %q", got)
		}
	}
	resp, body := ta.Get("/api/v1/signals")
	apptest.WantStatus(t, resp, body, http.StatusTooManyRequests)
	apptest.Golden(t, "error_minute_limit_reached", body)
	if resp.Header.Get("Retry-After") != "45" || resp.Header.Get("RateLimit") != `"minute";r=0;t=45` {
		t.Errorf("429 headers: Retry-After=%q RateLimit=%q", resp.Header.Get("Retry-After"), resp.Header.Get("RateLimit"))
	}

	clk.Set(apptest.Noon.Add(45 * time.Second)) // the next UTC minute
	resp, body = ta.Get("/api/v1/signals")
	apptest.WantStatus(t, resp, body, http.StatusOK)
	if got := resp.Header.Get("RateLimit"); got != `"minute";r=29;t=60` {
		t.Errorf("after the minute reset RateLimit = %q", got)
	}

	resp, body = ta.Get("/api/v1/signals", "Authorization", "")
	apptest.WantStatus(t, resp, body, http.StatusUnauthorized)
	if resp.Header.Get("RateLimit-Policy") == "" || resp.Header.Get("RateLimit") != "" {
		t.Errorf("401: RateLimit-Policy=%q RateLimit=%q; want the policy and no remaining count",
			resp.Header.Get("RateLimit-Policy"), resp.Header.Get("RateLimit"))
	}
}

func TestDailyCapAndSecondKey(t *testing.T) {
	t.Parallel()
	ta, clk := apptest.StartAt(t, time.Date(2026, 11, 21, 23, 59, 0, 0, time.UTC))
	ctx := context.Background()
	acct, _ := ta.Store().AccountByEmail(ctx, "dev@example.com")
	limits := model.Limits{DailyRequests: 3, MinuteRequests: 30, DailySearches: 10, ConcurrentSearches: 1}
	if err := ta.Store().SetLimits(ctx, acct.ID, limits); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		resp, body := ta.Get("/api/v1/signals")
		apptest.WantStatus(t, resp, body, http.StatusOK)
		if got := resp.Header.Get("RateLimit-Policy"); got != `"minute";q=30;w=60` {
			t.Errorf("policy = %q", got)
		}
	}
	second, _, err := auth.Issue(ctx, ta.Store(), acct.ID, "second", clk.Now())
	if err != nil {
		t.Fatal(err)
	}
	resp, body := ta.Get("/api/v1/signals", "Authorization", "Bearer "+second)
	apptest.WantStatus(t, resp, body, http.StatusTooManyRequests)
	p := apptest.Decode[problem.Problem](t, body)
	if p.Code != failure.CodeDailyLimitReached || *p.RetryAfterSeconds != 60 || *p.RetryAfterSecondsAlias != 60 {
		t.Errorf("a second key of the same account: %+v; usage belongs to the account", p)
	}
	if resp.Header.Get("Retry-After") != "60" {
		t.Errorf("Retry-After = %q, want 60 (seconds to midnight UTC)", resp.Header.Get("Retry-After"))
	}
	clk.Set(time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC))
	resp, body = ta.Get("/api/v1/signals", "Authorization", "Bearer "+second)
	apptest.WantStatus(t, resp, body, http.StatusOK)
}

func TestUsageCountsItself(t *testing.T) {
	t.Parallel()
	ta, _ := apptest.StartAt(t, apptest.Noon)
	ta.Get("/api/v1/signals")
	ta.Get("/api/v1/signals?page_size=0") // invalid, but counted: it was authenticated
	resp, body := ta.Get("/api/v1/usage")
	apptest.WantStatus(t, resp, body, http.StatusOK)
	apptest.Golden(t, "usage", body)
	if resp.Header.Get("Deprecation") == "" {
		t.Error("usage carries camelCase aliases but no Deprecation header")
	}
	u := apptest.Decode[reads.UsageResponse](t, body)
	if u.DailyRequests.Used != 3 || u.DailyRequestsAlias != u.DailyRequests || u.ResetAtAlias != u.ResetAt {
		t.Errorf("usage = %+v", u)
	}
	resp, body = ta.Get("/api/v1/usage?x=1")
	apptest.WantStatus(t, resp, body, http.StatusBadRequest)
}

// TestRefusedSearchesDoNotCount: a search refused with 429 after its request
// was counted (the account's search is running, or its fresh searches of
// the day are used) gives the request back, over HTTP and MCP alike.
func TestRefusedSearchesDoNotCount(t *testing.T) {
	t.Parallel()
	ta, clk := apptest.StartAt(t, apptest.Noon)
	ta.Put(apptest.Fixtures()...)
	ctx := context.Background()
	acct, _ := ta.Store().AccountByEmail(ctx, "dev@example.com")
	used := func() model.Usage {
		t.Helper()
		u, err := ta.Store().Usage(ctx, acct.ID, clk.Now())
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	cs := ta.MCPSession("2025-11-25")

	// The account's one search slot is taken, as by a search running
	// elsewhere.
	release, ok, err := ta.Store().AcquireSearchSlot(ctx, acct.ID, 1, clk.Now(), time.Minute)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	for i := range 5 {
		resp, body := ta.SearchSignals(`{"query":"busy ` + strconv.Itoa(i) + `"}`)
		apptest.WantStatus(t, resp, body, http.StatusTooManyRequests)
		if p := apptest.Decode[problem.Problem](t, body); p.Code != failure.CodeSearchInProgress {
			t.Fatalf("code %s, want search_in_progress", p.Code)
		}
		if got := resp.Header.Get("RateLimit"); got != `"minute";r=30;t=45` {
			t.Errorf("RateLimit after a refused search = %q; nothing was counted", got)
		}
	}
	if res, b := apptest.CallTool(t, cs, "search_signals", map[string]any{"query": "busy over mcp"}); !res.IsError ||
		!strings.Contains(string(b), "search_in_progress") {
		t.Fatalf("MCP search with the slot taken: %s", b)
	}
	release()
	if u := used(); u.DayUsed != 0 || u.MinuteUsed != 0 {
		t.Fatalf("after 6 searches refused as in progress: %+v; refusals do not count", u)
	}

	limits := model.Limits{DailyRequests: 1000, MinuteRequests: 30, DailySearches: 1, ConcurrentSearches: 1}
	if err := ta.Store().SetLimits(ctx, acct.ID, limits); err != nil {
		t.Fatal(err)
	}
	resp, body := ta.SearchSignals(`{"query":"seed round"}`)
	apptest.WantStatus(t, resp, body, http.StatusOK)
	for i := range 3 {
		resp, body := ta.SearchSignals(`{"query":"another ` + strconv.Itoa(i) + `"}`)
		apptest.WantStatus(t, resp, body, http.StatusTooManyRequests)
		if p := apptest.Decode[problem.Problem](t, body); p.Code != failure.CodeSearchLimitReached {
			t.Fatalf("code %s, want search_limit_reached", p.Code)
		}
	}
	if res, b := apptest.CallTool(t, cs, "search_signals", map[string]any{"query": "over mcp"}); !res.IsError ||
		!strings.Contains(string(b), "search_limit_reached") {
		t.Fatalf("MCP search past the daily searches: %s", b)
	}
	resp, body = ta.Get("/api/v1/usage")
	apptest.WantStatus(t, resp, body, http.StatusOK)
	u := apptest.Decode[reads.UsageResponse](t, body)
	if u.DailyRequests.Used != 2 || u.MinuteRequests.Used != 2 || u.DailySearches.Used != 1 {
		t.Errorf("usage after 1 search, 4 refused searches and this request: %+v; want 2 requests and 1 search", u)
	}
	if err := ta.FlushUsage(ctx); err != nil {
		t.Fatal(err)
	}
	history, err := ta.Store().DailyUsage(ctx, acct.ID, model.DayOf(clk.Now()), model.DayOf(clk.Now()).Add(24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if len(history) != 1 || history[0].Requests != 2 || history[0].Searches != 1 {
		t.Errorf("recorded history %+v; want 2 requests and 1 search today", history)
	}
}
