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

// records is a log handler that passes each record on.
type records chan slog.Record

func (h records) Enabled(context.Context, slog.Level) bool { return true }
func (h records) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h records) WithGroup(string) slog.Handler            { return h }
func (h records) Handle(_ context.Context, r slog.Record) error {
	select {
	case h <- r.Clone():
	default: // a test that stopped reading does not block the service
	}
	return nil
}

// SQLite's quota counters are written behind; a failure to write them
// reaches the service's log.
func TestCounterFlushFailureIsLogged(t *testing.T) {
	if os.Getenv("SIGNALS_TEST_BACKEND") == "postgres" {
		t.Skip("PostgreSQL counts in the database: nothing is written behind")
	}
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "signals.db")
	logged := make(records, 64)
	a, err := New(ctx, Config{BaseURL: "https://signals.example", Database: path}, slog.New(logged))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	acct, err := a.Store().CreateAccount(ctx, "flush@example.com", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Store().TakeRequest(ctx, acct.ID, model.InitialLimits, time.Now()); err != nil {
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
	if _, err := a.Store().TakeRequest(ctx, acct.ID, model.InitialLimits, time.Now()); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(10 * time.Second)
	for {
		select {
		case r := <-logged:
			var msg string
			r.Attrs(func(at slog.Attr) bool {
				if at.Key == "err" {
					msg = at.Value.String()
				}
				return true
			})
			if r.Level == slog.LevelError && strings.HasPrefix(msg, "store: write usage counters: ") {
				return
			}
		case <-deadline:
			t.Fatal("the failed flush of the counters was not logged")
		}
	}
}
