package app_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"signals/internal/app"
	"signals/internal/apptest"
	"signals/internal/auth"
)

// syncBuffer is a log sink safe for concurrent handlers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestKeysNeverReachTheLog(t *testing.T) {
	t.Parallel()
	var logs syncBuffer
	ctx := context.Background()
	a, err := app.New(ctx, apptest.Config(t),
		slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	acct, _ := a.Store().CreateAccount(ctx, "log@example.com", time.Now())
	key, _, _ := auth.Issue(ctx, a.Store(), acct.ID, "k", time.Now())
	srv := httptest.NewServer(a.Handler())
	defer srv.Close()
	for _, target := range []string{
		"/api/v1/signals",
		"/api/v1/signals?api_key=" + url.QueryEscape(key),
		"/api/v1/signals/" + key,
		"/api/v1/" + key,
		"/mcp?key=" + key,
	} {
		for _, header := range []string{"Bearer " + key, "Bearer " + key + "x", ""} {
			req, _ := http.NewRequest(http.MethodGet, srv.URL+target, nil)
			if header != "" {
				req.Header.Set("Authorization", header)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
		}
	}
	out := logs.String()
	if !strings.Contains(out, `"msg":"request"`) {
		t.Fatalf("no request was logged:\n%s", out)
	}
	secret := key[len(auth.KeyPrefix):]
	if strings.Contains(out, secret[:12]) {
		t.Errorf("the log holds the key:\n%s", out)
	}
}

// withLog replaces the app's logger.
func withLog(l *slog.Logger) app.Option { return app.WithLogger(l) }

func TestOneInfoLinePerMCPRequest(t *testing.T) {
	t.Parallel()
	var logs syncBuffer
	ta := apptest.Start(t, withLog(slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	start := len(logs.String())
	ta.MCPCall("list_signals", `{}`)
	var info, debug []string
	for line := range strings.Lines(logs.String()[start:]) {
		switch {
		case strings.Contains(line, `"level":"INFO"`):
			info = append(info, line)
		case strings.Contains(line, `"level":"DEBUG"`):
			debug = append(debug, line)
		}
	}
	if len(info) != 1 || !strings.Contains(info[0], `"msg":"request"`) {
		t.Errorf("INFO lines of one MCP request, want the access line alone:\n%s", strings.Join(info, ""))
	}
	if len(debug) == 0 {
		t.Error("the MCP SDK's lines are gone, not moved to DEBUG")
	}
}
