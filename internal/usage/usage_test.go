package usage

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"signals/internal/model"
	"signals/internal/store"
	"signals/internal/store/sqlite"
)

// flaky is a store whose AddDailyUsage fails while fail is set.
type flaky struct {
	store.Store
	fail bool
}

func (f *flaky) AddDailyUsage(ctx context.Context, add []store.DayUsage) error {
	if f.fail {
		return errors.New("unavailable")
	}
	return f.Store.AddDailyUsage(ctx, add)
}

var noon = time.Date(2026, 10, 1, 12, 0, 0, 0, time.UTC)

func TestRecorder(t *testing.T) {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "signals.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	st := &flaky{Store: db}
	rec := &Recorder{Store: st, Log: slog.New(slog.DiscardHandler)}
	acct, err := db.CreateAccount(ctx, "r@example.com", noon)
	if err != nil {
		t.Fatal(err)
	}
	tight := model.Limits{DailyRequests: 1000, MinuteRequests: 3, DailySearches: 1, ConcurrentSearches: 1}
	for range 5 { // 3 counted, 2 refused by the minute cap
		if _, err := rec.TakeRequest(ctx, acct.ID, tight, noon); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := rec.TakeRequest(ctx, acct.ID, tight, noon.Add(-24*time.Hour)); err != nil { // yesterday's window
		t.Fatal(err)
	}
	for range 2 { // 1 reserved, 1 refused
		if _, err := rec.ReserveSearch(ctx, acct.ID, tight.DailySearches, noon); err != nil {
			t.Fatal(err)
		}
	}
	st.fail = true
	if err := rec.Flush(ctx); err == nil {
		t.Fatal("flush into a failing store succeeded")
	}
	st.fail = false
	if err := rec.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if err := rec.Flush(ctx); err != nil { // nothing new: adds nothing
		t.Fatal(err)
	}
	day := model.DayOf(noon)
	got, err := db.DailyUsage(ctx, acct.ID, day.AddDate(0, 0, -1), day.AddDate(0, 0, 1))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Requests != 1 || got[1].Requests != 3 || got[1].Searches != 1 {
		t.Errorf("recorded %+v, want 1 request yesterday and 3 requests with 1 search today (kept through the failed flush)", got)
	}

	// Deleting the account forgets what was not flushed yet.
	if _, err := rec.TakeRequest(ctx, acct.ID, model.InitialLimits, noon.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := rec.DeleteAccount(ctx, acct.ID); err != nil {
		t.Fatal(err)
	}
	if len(rec.pending) != 0 {
		t.Errorf("pending after deletion: %v", rec.pending)
	}
}
