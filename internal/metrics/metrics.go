// Package metrics measures the service for Prometheus: requests by route,
// quota refusals, searches, embedding, mail and the database pools, plus
// the Go runtime and the process. Labels are route patterns, methods,
// status classes and fixed codes: never a raw path, an id, an account, a
// key or an email.
package metrics

import (
	"context"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"signals/internal/build"
	"signals/internal/search"
	"signals/internal/store"
)

// Metrics holds the service's collectors in a registry of its own.
type Metrics struct {
	registry *prometheus.Registry

	requests      *prometheus.CounterVec
	duration      *prometheus.HistogramVec
	quotaRefusals *prometheus.CounterVec
	searches      *prometheus.CounterVec
	scoring       prometheus.Histogram
	embedded      prometheus.Counter
	mails         *prometheus.CounterVec
	background    *prometheus.CounterVec
}

// New registers the service's metrics, the Go runtime's and the process's.
// ops, when not nil, adds the database pools and the signals waiting to be
// embedded under vectorModel; schema is the schema version this build
// expects, a label of signals_build_info.
func New(ops store.Operations, vectorModel, schema string) *Metrics {
	m := &Metrics{
		registry: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "signals_http_requests_total",
			Help: "HTTP requests by route pattern, method and status class.",
		}, []string{"route", "method", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "signals_http_request_duration_seconds",
			Help:    "Time to answer HTTP requests, by route pattern.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"route"}),
		quotaRefusals: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "signals_quota_refusals_total",
			Help: "Requests and searches refused by an account limit, by error code.",
		}, []string{"code"}),
		searches: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "signals_searches_total",
			Help: "Semantic search requests by outcome.",
		}, []string{"outcome"}),
		scoring: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "signals_search_fresh_duration_seconds",
			Help:    "Time fresh semantic searches took to score their candidates.",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}),
		embedded: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "signals_embedded_total",
			Help: "Signals embedded for semantic search.",
		}),
		mails: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "signals_mails_total",
			Help: "Mail handed to SMTP or the outbox, by kind and result.",
		}, []string{"kind", "result"}),
		background: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "signals_background_failures_total",
			Help: "Failed runs of background jobs, by job.",
		}, []string{"op"}),
	}
	for _, o := range []search.Outcome{search.OutcomeFresh, search.OutcomeCacheHit, search.OutcomeJoined,
		search.OutcomeRefused, search.OutcomeFailed, search.OutcomeTimedOut} {
		m.searches.WithLabelValues(string(o)) // every outcome is exported from the start, at 0
	}
	m.registry.MustRegister(m.requests, m.duration, m.quotaRefusals, m.searches, m.scoring, m.embedded, m.mails, m.background,
		buildInfo(schema), collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if ops != nil {
		m.registry.MustRegister(&storeCollector{ops: ops, model: vectorModel})
	}
	return m
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	// A collector that cannot read the database (during an outage) leaves
	// out its own series, not every series: signals_database_up must be
	// scraped then most of all.
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError})
}

// Searched counts a search request by outcome (search.Observer).
func (m *Metrics) Searched(o search.Outcome) { m.searches.WithLabelValues(string(o)).Inc() }

// Scored records how long a fresh search ran (search.Observer).
func (m *Metrics) Scored(took time.Duration) { m.scoring.Observe(took.Seconds()) }

// Embedded counts embedded signals (search.Observer).
func (m *Metrics) Embedded(n int) { m.embedded.Add(float64(n)) }

var _ search.Observer = (*Metrics)(nil)

// storeCollector reads the store's pools and embedding backlog at each
// scrape.
type storeCollector struct {
	ops   store.Operations
	model string
}

var (
	poolConns = prometheus.NewDesc("signals_db_pool_connections",
		"Database connections by pool and state (in_use, idle), and the pool's maximum (max).", []string{"pool", "state"}, nil)
	poolWaits = prometheus.NewDesc("signals_db_pool_waits_total",
		"Times a query waited for a free database connection.", []string{"pool"}, nil)
	poolWaitSeconds = prometheus.NewDesc("signals_db_pool_wait_seconds_total",
		"Time queries waited for a free database connection.", []string{"pool"}, nil)
	waiting = prometheus.NewDesc("signals_embedding_waiting",
		"Public signals waiting to be embedded for semantic search.", nil, nil)
)

// scrapeTimeout bounds the count of signals waiting to be embedded.
const scrapeTimeout = 5 * time.Second

func (c *storeCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- poolConns
	ch <- poolWaits
	ch <- poolWaitSeconds
	ch <- waiting
}

func (c *storeCollector) Collect(ch chan<- prometheus.Metric) {
	for _, p := range c.ops.PoolUse() {
		ch <- prometheus.MustNewConstMetric(poolConns, prometheus.GaugeValue, float64(p.InUse), p.Name, "in_use")
		ch <- prometheus.MustNewConstMetric(poolConns, prometheus.GaugeValue, float64(p.Idle), p.Name, "idle")
		ch <- prometheus.MustNewConstMetric(poolConns, prometheus.GaugeValue, float64(p.Max), p.Name, "max")
		ch <- prometheus.MustNewConstMetric(poolWaits, prometheus.CounterValue, float64(p.WaitCount), p.Name)
		ch <- prometheus.MustNewConstMetric(poolWaitSeconds, prometheus.CounterValue, p.WaitDuration.Seconds(), p.Name)
	}
	ctx, cancel := context.WithTimeout(context.Background(), scrapeTimeout)
	defer cancel()
	n, err := c.ops.SignalsWithoutVectors(ctx, c.model)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(waiting, err)
		return
	}
	ch <- prometheus.MustNewConstMetric(waiting, prometheus.GaugeValue, float64(n))
}

// buildInfo is signals_build_info, a gauge of 1 whose labels say which
// build serves and the schema version it expects, as Prometheus exporters
// publish theirs: a dashboard joins it to see what changed when the other
// series did.
func buildInfo(schema string) prometheus.Gauge {
	b := build.This()
	g := prometheus.NewGauge(prometheus.GaugeOpts{
		Name:        "signals_build_info",
		Help:        "A metric with a constant '1' value labeled by version, revision, goversion and the schema version from which signals was built.",
		ConstLabels: prometheus.Labels{"version": b.Version, "revision": b.Commit, "goversion": b.Go, "schema": schema},
	})
	g.Set(1)
	return g
}

// DependencyUp returns the setter of signals_<name>_up, a gauge of 1
// while the dependency answers and 0 during an outage (name: database,
// redis), registered at the first call.
func (m *Metrics) DependencyUp(name string) func(bool) {
	g := prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "signals_" + name + "_up",
		Help: "1 while the " + name + " answers, 0 while it cannot be reached.",
	})
	g.Set(1)
	m.registry.MustRegister(g)
	return func(up bool) {
		if up {
			g.Set(1)
		} else {
			g.Set(0)
		}
	}
}

// BackgroundFailed counts one failed run of a background job.
func (m *Metrics) BackgroundFailed(op string) { m.background.WithLabelValues(op).Inc() }

// BackgroundJobs exports the failure count of each job at 0 from the start.
func (m *Metrics) BackgroundJobs(ops ...string) {
	for _, op := range ops {
		m.background.WithLabelValues(op)
	}
}
