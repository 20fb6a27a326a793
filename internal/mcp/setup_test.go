package mcp_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"signals/internal/api"
	"signals/internal/auth"
	goldenfile "signals/internal/golden"
	"signals/internal/mcp"
	"signals/internal/model"
	"signals/internal/problem"
	"signals/internal/quota"
	"signals/internal/search"
	"signals/internal/search/builtin"
	"signals/internal/store"
	"signals/internal/store/sqlite"
	"signals/internal/store/storetest"
)

const baseURL = "https://signals.example"

// env is an MCP endpoint on a fresh SQLite file with one account, served
// over real HTTP.
type env struct {
	t     *testing.T
	store store.Store
	acct  model.Account
	key   string
	srv   *httptest.Server
}

func newEnv(t *testing.T) *env {
	t.Helper()
	return newEnvWith(t, slog.New(slog.NewTextHandler(io.Discard, nil)), nil)
}

// newEnvWith is newEnv logging to log, with the API reading through
// wrap(store) when wrap is not nil.
func newEnvWith(t *testing.T, log *slog.Logger, wrap func(store.Store) store.Store) *env {
	t.Helper()
	ctx := context.Background()
	var st store.Store
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "signals.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	acct, err := st.CreateAccount(ctx, "dev@example.com", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	key, _, err := auth.Issue(ctx, st, acct.ID, "test", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	problems := problem.Renderer{BaseURL: baseURL, Log: log}
	scorer, err := builtin.New()
	if err != nil {
		t.Fatal(err)
	}
	searcher := &search.Service{Store: st, Scorer: scorer, Now: time.Now, Log: log, Timeout: 10 * time.Second, CacheTTL: time.Minute, Capacity: 2}
	authn := &auth.Authenticator{Store: st, Problems: problems, Challenge: auth.APIChallenge, Now: time.Now}
	reads := st
	if wrap != nil {
		reads = wrap(st)
	}
	h := mcp.New(mcp.Config{
		BaseURL:      baseURL,
		Authenticate: authn.Authenticate,
		Limiter:      &quota.Limiter{Store: st, Now: time.Now, Problems: problems},
		API:          &api.API{Store: reads, Searcher: searcher, Problems: problems, BaseURL: baseURL},
		Problems:     problems,
		Log:          log,
	})
	mux := http.NewServeMux()
	mux.Handle(mcp.Path, h)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	e := &env{t: t, store: st, acct: acct, key: key, srv: srv}
	storetest.Put(t, st, storetest.Sig("mb-1", 1), storetest.Sig("mb-2", 2, func(s *model.Signal) { s.Tag = "job" }))
	if _, err := searcher.IndexOnce(ctx); err != nil {
		t.Fatal(err)
	}
	return e
}

// bearer adds the key to every request of the SDK's client.
type bearer struct{ key string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.key)
	return http.DefaultTransport.RoundTrip(r)
}

// connect opens a session of the SDK's own client; version is the protocol
// version it asks for ("" for the SDK's default, the newest it supports).
func (e *env) connect(version ...string) *sdk.ClientSession {
	e.t.Helper()
	var opts *sdk.ClientSessionOptions
	if len(version) > 0 {
		opts = &sdk.ClientSessionOptions{ProtocolVersion: version[0]}
	}
	c := sdk.NewClient(&sdk.Implementation{Name: "signals-test", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{
		Endpoint:   e.srv.URL + mcp.Path,
		HTTPClient: &http.Client{Transport: bearer{e.key}},
	}, opts)
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { cs.Close() })
	return cs
}

func (e *env) call(cs *sdk.ClientSession, tool string, args any) *sdk.CallToolResult {
	e.t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		e.t.Fatalf("%s(%v): %v", tool, args, err)
	}
	return res
}

func (e *env) usage() model.Usage {
	e.t.Helper()
	u, err := e.store.Usage(context.Background(), e.acct.ID, time.Now())
	if err != nil {
		e.t.Fatal(err)
	}
	return u
}

// structured returns the structured content of a result as JSON.
func structured(t *testing.T, res *sdk.CallToolResult) []byte {
	t.Helper()
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// golden compares v, as indented JSON, with testdata/name.
func golden(t *testing.T, name string, v any) {
	t.Helper()
	got, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	goldenfile.JSON(t, filepath.Join("testdata", name), got)
}
