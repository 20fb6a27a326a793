package storetest

import (
	"context"
	"sync"
	"testing"
	"time"

	"signals/internal/model"
	"signals/internal/store"
)

func newAccount(t *testing.T, st store.Store, email string) model.Account {
	t.Helper()
	a, err := st.CreateAccount(context.Background(), email, base)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// Decisions makes n calls at once, the i-th through stores[i%len(stores)]
// (several stores stand for several processes sharing a database), and
// counts the usages they return by Denied ("" for a call that counted).
func Decisions(t *testing.T, stores []store.Store, n int, call func(st store.Store) (model.Usage, error)) map[string]int {
	t.Helper()
	var wg sync.WaitGroup
	var mu sync.Mutex
	denied := map[string]int{}
	start := make(chan struct{})
	for i := range n {
		st := stores[i%len(stores)]
		wg.Go(func() {
			<-start
			u, err := call(st)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			denied[u.Denied]++
			mu.Unlock()
		})
	}
	close(start)
	wg.Wait()
	return denied
}

func testQuotaExactUnderConcurrency(t *testing.T, st store.Store) {
	a := newAccount(t, st, "q@example.com")
	now := base.Add(10 * time.Second)
	denied := Decisions(t, []store.Store{st}, 45, func(st store.Store) (model.Usage, error) {
		return st.TakeRequest(context.Background(), a.ID, model.InitialLimits, now)
	})
	if denied[""] != 30 || denied[model.LimitMinute] != 15 {
		t.Errorf("45 simultaneous requests: %v, want 30 counted and 15 denied by the minute limit", denied)
	}
	u, err := st.Usage(context.Background(), a.ID, now)
	if err != nil || u.MinuteUsed != 30 || u.DayUsed != 30 {
		t.Errorf("usage = %+v, %v; want 30 used (denied requests do not count)", u, err)
	}
}

func testQuotaWindows(t *testing.T, st store.Store) {
	ctx := context.Background()
	a := newAccount(t, st, "w@example.com")
	l := model.Limits{DailyRequests: 5, MinuteRequests: 2, DailySearches: 1, ConcurrentSearches: 1}
	day := time.Date(2026, 11, 20, 23, 57, 30, 0, time.UTC)
	steps := []struct {
		at     time.Time
		denied string
		minute int
		dayN   int
	}{
		{day, "", 1, 1},
		{day.Add(10 * time.Second), "", 2, 2},
		{day.Add(29 * time.Second), model.LimitMinute, 2, 2},
		{day.Add(30 * time.Second), "", 1, 3}, // next UTC minute
		{day.Add(31 * time.Second), "", 2, 4},
		{day.Add(90 * time.Second), "", 1, 5},
		{day.Add(91 * time.Second), model.LimitDay, 1, 5},
		{day.Add(149 * time.Second), model.LimitDay, 1, 5},
		{day.Add(150 * time.Second), "", 1, 1}, // next UTC day
	}
	for i, s := range steps {
		u, err := st.TakeRequest(ctx, a.ID, l, s.at)
		if err != nil {
			t.Fatal(err)
		}
		if u.Denied != s.denied || u.MinuteUsed != s.minute || u.DayUsed != s.dayN {
			t.Errorf("step %d at %s: denied=%q minute=%d day=%d; want %q %d %d",
				i, s.at.Format(time.TimeOnly), u.Denied, u.MinuteUsed, u.DayUsed, s.denied, s.minute, s.dayN)
		}
	}
	both := newAccount(t, st, "both@example.com")
	tight := model.Limits{DailyRequests: 2, MinuteRequests: 2}
	st.TakeRequest(ctx, both.ID, tight, day)
	st.TakeRequest(ctx, both.ID, tight, day)
	if u, _ := st.TakeRequest(ctx, both.ID, tight, day); u.Denied != model.LimitDay {
		t.Errorf("with both limits reached, denied = %q; want the day limit", u.Denied)
	}
	other := newAccount(t, st, "other@example.com")
	if u, _ := st.Usage(ctx, other.ID, day); u.DayUsed != 0 || u.MinuteUsed != 0 {
		t.Errorf("another account's usage = %+v; usage is per account", u)
	}
}

func testReturnRequest(t *testing.T, st store.Store) {
	ctx := context.Background()
	a := newAccount(t, st, "r@example.com")
	l := model.Limits{DailyRequests: 5, MinuteRequests: 2, DailySearches: 1, ConcurrentSearches: 1}
	day := time.Date(2026, 11, 20, 23, 58, 10, 0, time.UTC)
	check := func(step string, u model.Usage, err error, minute, dayN int) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		if u.MinuteUsed != minute || u.DayUsed != dayN {
			t.Errorf("%s: minute=%d day=%d; want %d %d", step, u.MinuteUsed, u.DayUsed, minute, dayN)
		}
	}
	u, err := st.ReturnRequest(ctx, a.ID, day, day)
	check("return with nothing counted", u, err, 0, 0)
	st.ReserveSearch(ctx, a.ID, 1, day)
	st.TakeRequest(ctx, a.ID, l, day)
	u, err = st.TakeRequest(ctx, a.ID, l, day.Add(time.Second))
	check("two counted", u, err, 2, 2)
	u, err = st.ReturnRequest(ctx, a.ID, day.Add(time.Second), day.Add(2*time.Second))
	check("one returned in the same minute", u, err, 1, 1)
	if u.SearchesUsed != 1 {
		t.Errorf("a returned request gave back a search: %+v", u)
	}
	u, err = st.TakeRequest(ctx, a.ID, l, day.Add(3*time.Second))
	check("the returned request is free again", u, err, 2, 2)
	if u, _ := st.Usage(ctx, a.ID, day.Add(3*time.Second)); u.MinuteUsed != 2 {
		t.Errorf("usage after return and take: %+v", u)
	}
	// A request counted in the last minute, returned in the next one: the
	// day gives it back, the new minute has nothing of it.
	next := day.Add(time.Minute)
	st.TakeRequest(ctx, a.ID, l, next)
	u, err = st.ReturnRequest(ctx, a.ID, day.Add(4*time.Second), next)
	check("returned in the next minute", u, err, 1, 2)
	// Counted yesterday, returned today: nothing of today changes.
	tomorrow := day.Add(2 * time.Minute)
	st.TakeRequest(ctx, a.ID, l, tomorrow)
	u, err = st.ReturnRequest(ctx, a.ID, next, tomorrow)
	check("returned the next day", u, err, 1, 1)
}

func testReturnSearch(t *testing.T, st store.Store) {
	ctx := context.Background()
	a := newAccount(t, st, "rs@example.com")
	day := time.Date(2026, 11, 20, 23, 58, 10, 0, time.UTC)
	tomorrow := day.Add(2 * time.Minute)
	if u, err := st.ReturnSearch(ctx, a.ID, day, day); err != nil || u.SearchesUsed != 0 {
		t.Fatalf("return with nothing reserved: %+v, %v", u, err)
	}
	st.ReserveSearch(ctx, a.ID, 2, day)
	st.ReserveSearch(ctx, a.ID, 2, day)
	st.TakeRequest(ctx, a.ID, model.InitialLimits, day)
	tests := []struct {
		name    string
		at, now time.Time
		want    int
	}{
		{"one returned the same day", day, day.Add(time.Second), 1},
		{"the other returned", day, day.Add(2 * time.Second), 0},
		{"never below zero", day, day.Add(3 * time.Second), 0},
	}
	for _, tt := range tests {
		u, err := st.ReturnSearch(ctx, a.ID, tt.at, tt.now)
		if err != nil || u.SearchesUsed != tt.want {
			t.Errorf("%s: %+v, %v; want %d searches used", tt.name, u, err, tt.want)
		}
		if u.MinuteUsed != 1 || u.DayUsed != 1 {
			t.Errorf("%s: %+v; a returned search gave back a request", tt.name, u)
		}
	}
	// Reserved yesterday, returned today: today's searches stay.
	st.ReserveSearch(ctx, a.ID, 2, tomorrow)
	if u, err := st.ReturnSearch(ctx, a.ID, day, tomorrow); err != nil || u.SearchesUsed != 1 {
		t.Errorf("returned the next day: %+v, %v; want today's 1 search kept", u, err)
	}
}
