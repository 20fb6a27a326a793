package api_test

import (
	"context"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"signals/internal/apptest"
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
