// Package app wires the service together: it opens the store, builds the
// handlers and serves them. The command line and the end-to-end tests both
// start the service through it.
package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"signals/internal/api"
	"signals/internal/auth"
	"signals/internal/discovery"
	"signals/internal/mcp"
	"signals/internal/problem"
	"signals/internal/quota"
	"signals/internal/search"
	"signals/internal/store"
	"signals/internal/store/postgres"
	"signals/internal/store/sqlite"
	"signals/internal/web"
)

// Config is the operator's configuration (flags and SIGNALS_* variables).
type Config struct {
	Addr     string
	BaseURL  string
	Database string
	Search   SearchConfig
}

// SearchConfig chooses and tunes the semantic search scorer.
type SearchConfig struct {
	// Provider is "builtin" (default) or "openai".
	Provider string
	// URL, Model and APIKey address an OpenAI-compatible embeddings server.
	URL, Model, APIKey string
	// Calibration maps that server's cosines to relevance; the zero value
	// is search.DefaultOpenAICalibration.
	Calibration search.OpenAICalibration
	// Timeout bounds one fresh search (default 10s).
	Timeout time.Duration
	// Capacity is how many fresh searches one process scores at once
	// (default 4).
	Capacity int
}

// App is one running service.
type App struct {
	cfg      Config
	log      *slog.Logger
	store    store.Store
	now      func() time.Time
	problems problem.Renderer
	auth     *auth.Authenticator
	limiter  *quota.Limiter
	api      *api.API
	search   *search.Service
	handler  http.Handler

	discovery *discovery.Handler
	site      *web.Site
	mcp       *mcp.Server
	// table is the route table, as routes registered it.
	table []route
}

// Option changes how an App is built (tests inject a clock).
type Option func(*App)

// WithClock replaces the wall clock.
func WithClock(now func() time.Time) Option { return func(a *App) { a.now = now } }

// New opens the store named by cfg.Database and builds the service.
func New(ctx context.Context, cfg Config, log *slog.Logger, opts ...Option) (*App, error) {
	st, err := OpenStore(ctx, cfg.Database)
	if err != nil {
		return nil, err
	}
	a := &App{cfg: cfg, log: log, store: st, now: time.Now}
	for _, o := range opts {
		o(a)
	}
	a.problems = problem.Renderer{BaseURL: cfg.BaseURL, Log: log}
	a.auth = &auth.Authenticator{Store: st, Problems: a.problems, Challenge: auth.APIChallenge, Now: a.now}
	a.limiter = &quota.Limiter{Store: st, Now: a.now, Problems: a.problems}
	scorer, err := NewScorer(cfg.Search)
	if err != nil {
		st.Close()
		return nil, err
	}
	a.search = &search.Service{Store: st, Scorer: scorer, Now: a.now, Log: log,
		Timeout: cfg.Search.Timeout, CacheTTL: searchCacheTTL, Capacity: cfg.Search.Capacity}
	if a.search.Timeout <= 0 {
		a.search.Timeout = 10 * time.Second
	}
	if a.search.Capacity <= 0 {
		a.search.Capacity = 4
	}
	a.api = &api.API{Store: st, Searcher: a.search, Problems: a.problems, BaseURL: cfg.BaseURL}
	a.mcp = mcp.New(mcp.Config{BaseURL: cfg.BaseURL, Authenticate: a.auth.Authenticate, Limiter: a.limiter,
		API: a.api, Problems: a.problems, Log: log})
	if a.site, err = web.New(cfg.BaseURL, a.problems); err != nil {
		st.Close()
		return nil, err
	}
	a.discovery = discovery.New(discovery.Config{BaseURL: cfg.BaseURL, Problems: a.problems, Store: st, Log: log})
	a.handler = a.routes()
	return a, nil
}

// indexEvery is how often the server embeds signals that became public
// since (imported by another process, or published by an editor).
const indexEvery = 15 * time.Second

// searchCacheTTL is how long a search result serves identical searches.
const searchCacheTTL = 15 * time.Minute

// NewScorer builds the configured semantic search scorer.
func NewScorer(c SearchConfig) (search.Scorer, error) {
	switch c.Provider {
	case "", "builtin":
		return search.NewBuiltin()
	case "openai":
		if c.URL == "" || c.Model == "" {
			return nil, errors.New("the openai search provider needs SIGNALS_SEARCH_URL and SIGNALS_SEARCH_MODEL")
		}
		cal := c.Calibration
		if cal == (search.OpenAICalibration{}) {
			cal = search.DefaultOpenAICalibration
		}
		return search.NewOpenAI(c.URL, c.Model, c.APIKey, 30*time.Second, cal)
	}
	return nil, fmt.Errorf("unknown search provider %q: use builtin or openai", c.Provider)
}

// Search returns the app's search service.
func (a *App) Search() *search.Service { return a.search }

// OpenStore opens the store a database setting names: a postgres:// URL or
// a SQLite file path.
func OpenStore(ctx context.Context, database string) (store.Store, error) {
	if strings.HasPrefix(database, "postgres://") || strings.HasPrefix(database, "postgresql://") {
		return postgres.Open(ctx, database)
	}
	return sqlite.Open(ctx, database)
}

// Store returns the app's store.
func (a *App) Store() store.Store { return a.store }

// Handler returns the service's HTTP handler.
func (a *App) Handler() http.Handler { return a.handler }

// ClaimServing makes this process the only server of a store whose state
// must live in one process (SQLite's quota counters); a store shared by
// replicas (PostgreSQL) needs no claim.
func (a *App) ClaimServing() error {
	if c, ok := a.store.(interface{ ClaimServing() error }); ok {
		return c.ClaimServing()
	}
	return nil
}

// Serve serves HTTP on ln until ctx is done, then shuts down gracefully.
func (a *App) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{
		Handler:           a.handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(a.log.Handler(), slog.LevelWarn),
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	indexCtx, stopIndex := context.WithCancel(ctx)
	indexed := make(chan struct{})
	go func() { defer close(indexed); a.search.Index(indexCtx, indexEvery) }()
	defer func() { stopIndex(); <-indexed }()
	a.log.Info("serving", "addr", ln.Addr().String(), "base_url", a.cfg.BaseURL)
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.WithoutCancel(ctx), 15*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// Close releases the store.
func (a *App) Close() error { return a.store.Close() }
