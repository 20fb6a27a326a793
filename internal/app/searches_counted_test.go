package app_test

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"signals/internal/apptest"
	"signals/internal/failure"
	"signals/internal/model"
	"signals/internal/problem"
	"signals/internal/reads"
)

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
