package app

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"

	"signals/internal/mail"
	"signals/internal/metrics"
	"signals/internal/store"
)

// Metrics, when cfg.MetricsAddr is set: every request, quota refusal,
// search, embedding and mail is counted, and the counts are served on a
// listener of their own so that the public address never exposes them.
// With metrics off nothing is wrapped and nothing is recorded.

// newMetrics builds the collectors for st and the scorer's vectorModel.
func (a *App) newMetrics(st store.Store, vectorModel string) {
	if a.cfg.MetricsAddr == "" {
		return
	}
	ops, _ := st.(store.Operations)
	a.metrics = metrics.New(ops, vectorModel, SchemaVersion(a.cfg.Database))
}

// measured counts quota refusals of st when metrics are on.
func (a *App) measured(st store.Store) store.Store {
	if a.metrics == nil {
		return st
	}
	return a.metrics.Store(st)
}

// measuredMail counts the mail of one kind that s sends when metrics are on.
func (a *App) measuredMail(kind string, s mail.Sender) mail.Sender {
	if a.metrics == nil {
		return s
	}
	return a.metrics.Mail(kind, s)
}

// measuredRequests counts and times requests by route when metrics are on.
func (a *App) measuredRequests(h http.Handler) http.Handler {
	if a.metrics == nil {
		return h
	}
	return a.metrics.Middleware(h)
}

// MetricsHandler serves the metrics in the Prometheus text format, or is
// nil when metrics are off.
func (a *App) MetricsHandler() http.Handler {
	if a.metrics == nil {
		return nil
	}
	return a.metrics.Handler()
}

// ServeMetrics serves GET /metrics on ln until ctx is done.
func (a *App) ServeMetrics(ctx context.Context, ln net.Listener) error {
	if a.metrics == nil {
		return errors.New("metrics are off: set SIGNALS_METRICS_ADDR")
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", a.metrics.Handler())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second,
		ErrorLog: slog.NewLogLogger(a.log.Handler(), slog.LevelWarn)}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	a.log.Info("serving metrics", "addr", ln.Addr().String(), "path", "/metrics")
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	return srv.Shutdown(shutdown)
}
