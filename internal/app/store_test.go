package app

import (
	"context"
	"database/sql"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"signals/internal/model"
)

// SQLite's quota counters are written ahead of the requests they count; a
// request whose reservation cannot be written fails, rather than being
// served with a count a crash would lose.
func TestCounterWriteFailureFailsTheRequest(t *testing.T) {
	t.Parallel()
	if os.Getenv("SIGNALS_TEST_BACKEND") == "postgres" {
		t.Skip("PostgreSQL counts in the database: nothing is reserved ahead")
	}
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "signals.db")
	a, err := New(ctx, Config{BaseURL: "https://signals.example", Database: path}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	acct, err := a.Store().CreateAccount(ctx, "flush@example.com", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if _, err := a.Store().TakeRequest(ctx, acct.ID, model.InitialLimits, now); err != nil {
		t.Fatal(err)
	}
	// Another connection drops the table the counters are written to.
	other, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if _, err := other.Exec(`DROP TABLE usage`); err != nil {
		t.Fatal(err)
	}
	// The first reservation covers a few more requests; the one past it
	// must be written first, and fails.
	for i := 2; i <= model.InitialLimits.MinuteRequests; i++ {
		_, err := a.Store().TakeRequest(ctx, acct.ID, model.InitialLimits, now)
		if err == nil {
			continue
		}
		if !strings.HasPrefix(err.Error(), "store: take request: ") {
			t.Fatalf("request %d: %v; want the operation named", i, err)
		}
		return
	}
	t.Fatal("every request was answered although no count could be written")
}
