// Package apptest runs the whole service for the tests of the packages it
// wires: a fresh database with one account and its API key, served over
// real HTTP by the real route table and middleware. The website, the API
// and the editor's desk (internal/web, internal/api, internal/desk) test
// their pages and handlers through it, in their own folders; internal/app
// tests the wiring through it.
//
// Every helper says what it checks beyond its name: App.Do validates each
// /api exchange against the OpenAPI document the service serves,
// WantStatus checks the media type and the request id, WantPage the HTML
// type and no-store, and the fixtures name the fields they set.
package apptest

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
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"signals/internal/app"
	"signals/internal/auth"
	"signals/internal/discovery/oastest"
	goldenfile "signals/internal/golden"
	"signals/internal/model"
	"signals/internal/store/postgres/pgtest"
	"signals/internal/store/redis/redistest"
	"signals/internal/store/storetest"
)

// BaseURL is the public address test apps are configured with. It is
// https, so session cookies are Secure; the test server itself is http.
const BaseURL = "https://signals.example"

// Email is the address of the account every test app starts with (id 1).
const Email = "dev@example.com"

// App is a running service on a fresh database with one account (Email,
// id 1) and its API key.
type App struct {
	*app.App
	// URL is the test server's address, Key the account's API key, Config
	// what the app was built with and Log where it logs.
	URL    string
	Key    string
	Config app.Config
	Log    *slog.Logger

	t       testing.TB
	srv     *httptest.Server
	oasOnce sync.Once
	oas     *oastest.Validator
}

// Database is a fresh database for one test: an SQLite file, or with
// SIGNALS_TEST_BACKEND=postgres (or postgres+redis) a fresh PostgreSQL
// schema, so that every HTTP test runs against both engines.
func Database(t testing.TB) string {
	t.Helper()
	if b := os.Getenv("SIGNALS_TEST_BACKEND"); b == "postgres" || b == "postgres+redis" {
		return pgtest.FreshSchema(t)
	}
	return filepath.Join(t.TempDir(), "signals.db")
}

// Config is the configuration of a test app: BaseURL, a fresh Database,
// mail written to a fresh outbox with digests at 07:00, the scorer of
// Search, and with SIGNALS_TEST_BACKEND=postgres+redis the counters in a
// Redis database of the test's own.
func Config(t testing.TB) app.Config {
	t.Helper()
	cfg := app.Config{BaseURL: BaseURL, Database: Database(t),
		Mail:   app.MailConfig{Outbox: filepath.Join(t.TempDir(), "outbox"), DigestHour: 7},
		Search: Search()}
	if os.Getenv("SIGNALS_TEST_BACKEND") == "postgres+redis" {
		cfg.RedisURL = redistest.URL(t)
	}
	return cfg
}

// Search is the scorer of the HTTP tests: the bundled sentence model when
// SIGNALS_TEST_ONNXRUNTIME names ONNX Runtime (CI's model step runs every
// HTTP test so), else the builtin scorer.
func Search() app.SearchConfig {
	if lib := os.Getenv("SIGNALS_TEST_ONNXRUNTIME"); lib != "" {
		return app.SearchConfig{Provider: "onnx", ONNXRuntime: lib}
	}
	return app.SearchConfig{Provider: "builtin"}
}

// Discard is a logger that writes nothing.
func Discard() *slog.Logger { return slog.New(slog.DiscardHandler) }

// Start serves an app of Config(t) that logs nothing.
func Start(t testing.TB, opts ...app.Option) *App {
	t.Helper()
	return StartWith(t, Config(t), Discard(), opts...)
}

// StartWith serves an app of cfg logging to log over HTTP, creates the
// account Email (id 1) and issues its key.
func StartWith(t testing.TB, cfg app.Config, log *slog.Logger, opts ...app.Option) *App {
	t.Helper()
	ctx := context.Background()
	ta := Serve(t, cfg, log, opts...)
	acct, err := ta.Store().CreateAccount(ctx, Email, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if ta.Key, _, err = auth.Issue(ctx, ta.Store(), acct.ID, "test", time.Now()); err != nil {
		t.Fatal(err)
	}
	return ta
}

// Replica serves another app on ta's database (and Redis), as a second
// replica of the service would; it shares ta's key.
func (ta *App) Replica(t testing.TB, opts ...app.Option) *App {
	t.Helper()
	r := Serve(t, ta.Config, ta.Log, opts...)
	r.Key = ta.Key
	return r
}

// Serve serves an app of cfg logging to log over HTTP, without creating
// an account (Key is empty): a replica of a service whose database exists.
func Serve(t testing.TB, cfg app.Config, log *slog.Logger, opts ...app.Option) *App {
	t.Helper()
	a, err := app.New(context.Background(), cfg, log, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	srv := httptest.NewServer(a.Handler())
	t.Cleanup(srv.Close)
	return &App{App: a, URL: srv.URL, Config: cfg, Log: log, t: t, srv: srv}
}

// Clock is a settable time source for app.WithClock.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// Now is the clock's time.
func (c *Clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

// Set moves the clock to t.
func (c *Clock) Set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }

// Noon is the time StartAt's tests usually start at: 12:00:15 UTC, so a
// minute's window and a day's are far from their edges.
var Noon = time.Date(2026, 11, 21, 12, 0, 15, 0, time.UTC)

// StartAt is Start with the app's clock at at, and the clock.
func StartAt(t testing.TB, at time.Time) (*App, *Clock) {
	t.Helper()
	c := &Clock{t: at}
	return Start(t, app.WithClock(c.Now)), c
}

// Put stores signals (see storetest.Put).
func (ta *App) Put(signals ...model.Signal) { storetest.Put(ta.t, ta.Store(), signals...) }

// Do sends a request with the account's key (unless a header overrides
// it) and returns the response with its body read. It also validates the
// request and the response against the OpenAPI document the service
// serves (see CheckOpenAPI): every test of the API through Do, Get or
// SearchSignals checks the contract as well.
func (ta *App) Do(method, path string, body io.Reader, header ...string) (*http.Response, []byte) {
	ta.t.Helper()
	req, err := http.NewRequest(method, ta.URL+path, body)
	if err != nil {
		ta.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+ta.Key)
	resp, b := ta.Send(req, header...)
	ta.CheckOpenAPI(req, resp, b)
	return resp, b
}

// Get is Do with GET: it also validates /api exchanges against OpenAPI.
func (ta *App) Get(path string, header ...string) (*http.Response, []byte) {
	ta.t.Helper()
	return ta.Do(http.MethodGet, path, nil, header...)
}

// SearchSignals posts body to /api/v1/signals/search as JSON (and
// validates the exchange against OpenAPI, as Do does).
func (ta *App) SearchSignals(body string, header ...string) (*http.Response, []byte) {
	ta.t.Helper()
	h := append([]string{"Content-Type", "application/json"}, header...)
	return ta.Do(http.MethodPost, "/api/v1/signals/search", strings.NewReader(body), h...)
}

// Send applies header pairs to req (an empty value removes the header;
// "Host" sets the request's host) and returns the response with its body.
// It checks nothing.
func (ta *App) Send(req *http.Request, header ...string) (*http.Response, []byte) {
	ta.t.Helper()
	return ta.SendWith(http.DefaultClient, req, header...)
}

// SendWith is Send through client.
func (ta *App) SendWith(client *http.Client, req *http.Request, header ...string) (*http.Response, []byte) {
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

// Outbox lists the messages the app wrote to its outbox, oldest first.
func (ta *App) Outbox() []string {
	ta.t.Helper()
	files, err := filepath.Glob(filepath.Join(ta.Config.Mail.Outbox, "*.eml"))
	if err != nil {
		ta.t.Fatal(err)
	}
	slices.Sort(files)
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			ta.t.Fatal(err)
		}
		out = append(out, string(b))
	}
	return out
}

// WantStatus checks a response's status, and more: an error's
// Content-Type is application/problem+json, a success's JSON or text, and
// every response carries an X-Request-Id.
func WantStatus(t testing.TB, resp *http.Response, body []byte, status int) {
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

// Decode decodes a JSON body into a T, failing the test when it is not one.
func Decode[T any](t testing.TB, body []byte) T {
	t.Helper()
	var v T
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decode %T: %v\n%s", v, err, body)
	}
	return v
}

// Golden compares a JSON body (indented) with testdata/golden/name.json of
// the calling test's package; -update rewrites it.
func Golden(t testing.TB, name string, body []byte) {
	t.Helper()
	goldenfile.JSON(t, filepath.Join("testdata", "golden", name+".json"), body)
}

// GoldenText compares a text body with testdata/golden/name of the calling
// test's package; -update rewrites it.
func GoldenText(t testing.TB, name string, body []byte) {
	t.Helper()
	goldenfile.Text(t, filepath.Join("testdata", "golden", name), body)
}

// NewClock is a clock at t.
func NewClock(t time.Time) *Clock { return &Clock{t: t} }
