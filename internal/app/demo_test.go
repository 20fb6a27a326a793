package app

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"

	"signals/internal/demo"
)

// A second start with the demo names the command to make another key as
// the operator runs the program.
func TestDemoHintNamesTheCommandAsRun(t *testing.T) {
	t.Parallel()
	ta := newTestApp(t)
	ctx := context.Background()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	if err := LoadDemo(ctx, ta.Store(), demo.Records(), io.Discard, "go run ./cmd/signals", quiet); err != nil {
		t.Fatal(err)
	}
	var logged bytes.Buffer
	if err := LoadDemo(ctx, ta.Store(), demo.Records(), io.Discard, "go run ./cmd/signals", slog.New(slog.NewTextHandler(&logged, nil))); err != nil {
		t.Fatal(err)
	}
	if want := "create another key with: go run ./cmd/signals keys create --email demo@example.com"; !strings.Contains(logged.String(), want) {
		t.Errorf("the log lacks %q:\n%s", want, logged.String())
	}
}
