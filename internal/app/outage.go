package app

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"signals/internal/store/postgres"
	"signals/internal/store/redis"
)

// dependency is a server the service needs (the database, Redis) as the
// log and the metrics tell it: up, until an error that means it cannot be
// reached; then down, until a ping answers again. Each outage is two log
// lines: one when it starts, with the cause as the last attempt saw it,
// and one when it ends, with how long it lasted. Requests during it are
// answered 503 service_unavailable without a line each, and a background
// job that fails because of it logs once per outage.
type dependency struct {
	name        string
	ping        func(context.Context) error
	unreachable func(error) bool
	log         *slog.Logger
	setUp       func(bool) // the metric, or nil
	now         func() time.Time

	mu    sync.Mutex
	down  bool
	since time.Time
	last  error
	jobs  map[string]bool // background jobs that logged a failure in this outage
}

// How often a dependency is pinged: while it answers, so that an outage
// with no traffic is seen too; and while it does not, so that its end is
// seen within a fraction of a second.
const (
	pingUpEvery   = 2 * time.Second
	pingDownEvery = 250 * time.Millisecond
	pingTimeout   = 2 * time.Second
)

// failed reports whether err means the dependency cannot be reached; if it
// does, the dependency is down from now (said once) and err is the cause
// the outage's line gives.
func (d *dependency) failed(err error) bool {
	var slow *timedOut
	if err == nil || !errors.As(err, &slow) && (d.unreachable == nil || !d.unreachable(err)) {
		return false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.last = err
	if d.down {
		return true
	}
	d.down, d.since, d.jobs = true, d.now(), map[string]bool{}
	d.log.Error(d.name+" unreachable", "cause", cause(err))
	if d.setUp != nil {
		d.setUp(false)
	}
	return true
}

// back ends an outage, if one is on.
func (d *dependency) back() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.down {
		return
	}
	d.down = false
	d.log.Info(d.name+" back", "outage", d.now().Sub(d.since).Round(time.Millisecond).String(),
		"last_cause", cause(d.last))
	if d.setUp != nil {
		d.setUp(true)
	}
}

// firstFailure reports whether a background job op that failed because of
// the dependency (failed said so) is the first to do so in this outage,
// which it logs.
func (d *dependency) firstFailure(op string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	first := !d.jobs[op]
	d.jobs[op] = true
	return first
}

// isDown reports whether an outage is on.
func (d *dependency) isDown() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.down
}

// watch pings the dependency until ctx ends: every pingUpEvery while it
// answers, every pingDownEvery while it does not.
func (d *dependency) watch(ctx context.Context) {
	if d.setUp != nil {
		d.setUp(true)
	}
	for {
		every := pingUpEvery
		if d.isDown() {
			every = pingDownEvery
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(every):
		}
		pctx, cancel := context.WithTimeout(ctx, pingTimeout)
		err := d.ping(pctx)
		cancel()
		switch {
		case ctx.Err() != nil:
			return
		case err == nil:
			d.back()
		case d.failed(err):
		case errors.Is(err, context.DeadlineExceeded):
			// A ping that runs out of time is an outage too: the server
			// may be up yet unable to answer.
			d.failed(&timedOut{err})
		}
	}
}

// timedOut marks a ping that ran out of time as the dependency's failure.
type timedOut struct{ err error }

func (e *timedOut) Error() string {
	return "no answer within " + pingTimeout.String() + ": " + e.err.Error()
}
func (e *timedOut) Unwrap() error { return e.err }

// cause says why the last attempt failed, in its own words: of a failed
// PostgreSQL connection, the last address tried (pgx lists each attempt,
// and the first is often a TLS probe that the server refused, which is
// not why it failed).
func cause(err error) string {
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) {
		msg := ce.Error()
		lines := strings.Split(strings.TrimSpace(msg), "\n")
		if last := strings.TrimSpace(lines[len(lines)-1]); len(lines) > 1 && last != "" {
			return last
		}
		if inner := ce.Unwrap(); inner != nil {
			return inner.Error()
		}
		return msg
	}
	return err.Error()
}

// Background jobs, as signals_background_failures_total{op} and the log
// name them.
const (
	jobEmbed      = "embed signals"
	jobSubstrings = "index substrings"
	jobUsage      = "record daily usage"
	jobDigests    = "send digests"
	jobSessions   = "sweep expired sessions"
	jobOAuth      = "sweep ended oauth grants and unused clients"
)

// backgroundJobs are the jobs a serving app runs.
var backgroundJobs = []string{jobEmbed, jobSubstrings, jobUsage, jobDigests, jobSessions, jobOAuth}

// watchDependencies makes the dependencies the app needs (PostgreSQL;
// Redis when the counters live there) and hooks their outages into the
// answers to requests. SQLite is a file, never out of reach.
func (a *App) watchDependencies() {
	if db, ok := a.store.(*postgres.DB); ok {
		d := &dependency{name: "database", ping: db.Ping, unreachable: postgres.Unreachable, log: a.log, now: time.Now}
		if a.metrics != nil {
			d.setUp = a.metrics.DependencyUp("database")
		}
		a.deps = append(a.deps, d)
	}
	if r, ok := a.counters.(*redis.Store); ok {
		d := &dependency{name: "redis", ping: r.PingRedis, unreachable: redis.Unreachable, log: a.log, now: time.Now}
		if a.metrics != nil {
			d.setUp = a.metrics.DependencyUp("redis")
		}
		a.deps = append(a.deps, d)
	}
	if a.metrics != nil {
		a.metrics.BackgroundJobs(backgroundJobs...)
	}
	a.problems.Outage = func(err error) { a.outage(err) }
}

// outage tells the dependency that err is about, if any, that it failed;
// it reports whether one was.
func (a *App) outage(err error) bool {
	for _, d := range a.deps {
		if d.failed(err) {
			return true
		}
	}
	return false
}

// jobFailed records a failed run of a background job: counted, and logged
// as "background job failed op=…", except that a job failing because a
// dependency is out logs once per outage (the outage has its own lines).
func (a *App) jobFailed(op string, err error) {
	if a.metrics != nil {
		a.metrics.BackgroundFailed(op)
	}
	for _, d := range a.deps {
		if d.failed(err) {
			if d.firstFailure(op) {
				a.log.Error("background job failed", "op", op, "err", cause(err),
					"note", "the "+d.name+" is unreachable; this job logs again once it is back")
			}
			return
		}
	}
	a.log.Error("background job failed", "op", op, "err", err)
}

// startWatching pings the dependencies beside serving.
func (a *App) startWatching(ctx context.Context) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for _, d := range a.deps {
		wg.Go(func() { d.watch(ctx) })
	}
	return func() { cancel(); wg.Wait() }
}
