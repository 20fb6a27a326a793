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
	"signals/internal/store"
	"signals/internal/store/postgres"
	"signals/internal/store/sqlite"
)

// Config is the operator's configuration (flags and SIGNALS_* variables).
type Config struct {
	Addr     string
	BaseURL  string
	Database string
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
	handler  http.Handler

	discovery *discovery.Handler
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
	a.api = &api.API{Store: st, Problems: a.problems, BaseURL: cfg.BaseURL}
	a.mcp = mcp.New(mcp.Config{BaseURL: cfg.BaseURL, Authenticate: a.auth.Authenticate, Limiter: a.limiter,
		API: a.api, Problems: a.problems, Log: log})
	a.discovery = discovery.New(discovery.Config{BaseURL: cfg.BaseURL, Problems: a.problems, Store: st, Log: log})
	a.handler = a.routes()
	return a, nil
}

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
