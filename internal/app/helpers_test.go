package app

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"signals/internal/auth"
	goldenfile "signals/internal/golden"
	"signals/internal/model"
	"signals/internal/store/postgres/pgtest"
	"signals/internal/store/storetest"
)

// testApp is a running service on a fresh SQLite file with one account.
type testApp struct {
	*App
	srv *httptest.Server
	key string
	t   testing.TB
}

// testDatabase is a fresh database for one test: an SQLite file, or with
// SIGNALS_TEST_BACKEND=postgres a fresh PostgreSQL schema, so that every
// HTTP test runs against both backends (postgres+redis: with the counters
// in Redis, see withTestRedis).
func testDatabase(t testing.TB) string {
	t.Helper()
	if b := os.Getenv("SIGNALS_TEST_BACKEND"); b == "postgres" || b == "postgres+redis" {
		return pgtest.FreshSchema(t)
	}
	return filepath.Join(t.TempDir(), "signals.db")
}

func newTestApp(t testing.TB, opts ...Option) *testApp {
	t.Helper()
	return newLoggingTestApp(t, slog.New(slog.NewTextHandler(io.Discard, nil)), opts...)
}

// newLoggingTestApp is newTestApp logging to log.
func newLoggingTestApp(t testing.TB, log *slog.Logger, opts ...Option) *testApp {
	t.Helper()
	return serveTestApp(t, testConfig(t), log, opts...)
}

// serveTestApp serves an app of cfg over HTTP, with one account (id 1) and
// its key.
func serveTestApp(t testing.TB, cfg Config, log *slog.Logger, opts ...Option) *testApp {
	t.Helper()
	ctx := context.Background()
	a, err := New(ctx, cfg, log, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	acct, err := a.Store().CreateAccount(ctx, "dev@example.com", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	key, _, err := auth.Issue(ctx, a.Store(), acct.ID, "test", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(a.Handler())
	t.Cleanup(srv.Close)
	return &testApp{App: a, srv: srv, key: key, t: t}
}

func (ta *testApp) put(signals ...model.Signal) { storetest.Put(ta.t, ta.Store(), signals...) }

// do sends a request with the app's key (unless a header overrides it) and
// returns the response with its body read. It also validates the request
// and the response against the OpenAPI document (checkOpenAPI): every test
// of the API through do, get or search checks the contract as well.
func (ta *testApp) do(method, path string, body io.Reader, header ...string) (*http.Response, []byte) {
	ta.t.Helper()
	req, err := http.NewRequest(method, ta.srv.URL+path, body)
	if err != nil {
		ta.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+ta.key)
	resp, b := ta.send(req, header...)
	ta.checkOpenAPI(req, resp, b)
	return resp, b
}

func (ta *testApp) get(path string, header ...string) (*http.Response, []byte) {
	ta.t.Helper()
	return ta.do(http.MethodGet, path, nil, header...)
}

// golden compares body (indented) with testdata/golden/name.json.
func golden(t *testing.T, name string, body []byte) {
	t.Helper()
	goldenfile.JSON(t, filepath.Join("testdata", "golden", name+".json"), body)
}

func decode[T any](t *testing.T, body []byte) T {
	t.Helper()
	var v T
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decode %T: %v\n%s", v, err, body)
	}
	return v
}

// wantStatus checks a response's status, and more: an error's
// Content-Type is application/problem+json, a success's JSON or text, and
// every response carries an X-Request-Id.
func wantStatus(t *testing.T, resp *http.Response, body []byte, status int) {
	t.Helper()
	if resp.StatusCode != status {
		t.Fatalf("status %d, want %d\n%s", resp.StatusCode, status, body)
	}
	ct := resp.Header.Get("Content-Type")
	if status >= 400 && ct != "application/problem+json" {
		t.Errorf("error Content-Type = %q", ct)
	}
	if status < 400 && !strings.HasPrefix(ct, "application/json") && !strings.HasPrefix(ct, "text/") {
		t.Errorf("Content-Type = %q", ct)
	}
	if resp.Header.Get("X-Request-Id") == "" {
		t.Error("no X-Request-Id")
	}
}

// send applies header pairs to req (an empty value removes the header;
// "Host" sets the request's host) and returns the response with its body.
func (ta *testApp) send(req *http.Request, header ...string) (*http.Response, []byte) {
	ta.t.Helper()
	return ta.sendWith(http.DefaultClient, req, header...)
}

// sendWith is send through client.
func (ta *testApp) sendWith(client *http.Client, req *http.Request, header ...string) (*http.Response, []byte) {
	ta.t.Helper()
	for i := 0; i+1 < len(header); i += 2 {
		switch {
		case header[i] == "Host":
			req.Host = header[i+1]
		case header[i+1] == "":
			req.Header.Del(header[i])
		default:
			req.Header.Set(header[i], header[i+1])
		}
	}
	resp, err := client.Do(req)
	if err != nil {
		ta.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		ta.t.Fatal(err)
	}
	return resp, b
}
