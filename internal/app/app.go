// Package app wires the service together: it opens the store, builds the
// handlers and serves them. The command line and the end-to-end tests both
// start the service through it.
package app

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"signals/internal/account"
	"signals/internal/api"
	"signals/internal/auth"
	"signals/internal/build"
	"signals/internal/desk"
	"signals/internal/digest"
	"signals/internal/discovery"
	"signals/internal/mail"
	"signals/internal/mcp"
	"signals/internal/metrics"
	"signals/internal/oauth"
	"signals/internal/problem"
	"signals/internal/quota"
	"signals/internal/search"
	"signals/internal/search/builtin"
	"signals/internal/search/openai"
	"signals/internal/search/sentence"
	"signals/internal/search/sentence/bundled"
	"signals/internal/session"
	"signals/internal/store"
	"signals/internal/store/postgres"
	"signals/internal/store/sqlite"
	"signals/internal/usage"
	"signals/internal/web"
)

// Config is the operator's configuration (flags and SIGNALS_* variables).
type Config struct {
	Addr     string
	BaseURL  string
	Database string
	Search   SearchConfig
	Mail     MailConfig
	// ListTimeout bounds the store read of one signal listing (the API,
	// list_signals, the site's feed pages and feeds); past it the listing
	// is 503 service_busy. 0 is reads.DefaultListTimeout (2s).
	ListTimeout time.Duration
	// MetricsAddr is the address of the Prometheus metrics listener; ""
	// turns metrics off.
	MetricsAddr string
	// SecurityContact is where security reports go, the Contact of
	// /.well-known/security.txt: a mailto:, https: or tel: URI, or an
	// email address; "" is the mail sender.
	SecurityContact string
	// ContactEmail is the operator's address for readers, shown on
	// /contact as a mailto: link unless a contact article is imported;
	// "" is none.
	ContactEmail string
	// RedisURL, with PostgreSQL, moves the quota counters to Redis (see
	// package redis); "" keeps them in the database.
	RedisURL string
}

// SearchConfig chooses and tunes the semantic search scorer.
type SearchConfig struct {
	// Provider is "auto" (the default, also ""), "onnx", "builtin" or
	// "openai" (see ChooseScorer).
	Provider string
	// ONNXRuntime is the path of the ONNX Runtime library; "" looks in the
	// usual places.
	ONNXRuntime string
	// URL, Model and APIKey address an OpenAI-compatible embeddings server.
	URL, Model, APIKey string
	// Calibration maps that server's cosines to relevance; the zero value
	// is openai.DefaultCalibration.
	Calibration search.Calibration
	// Timeout bounds one fresh search (default 10s).
	Timeout time.Duration
	// Capacity is how many fresh searches one process scores at once
	// (default 4).
	Capacity int
}

// MailConfig says how sign-in links and digests are mailed, and when
// digests go out.
type MailConfig struct {
	// SMTPURL is smtp://user:pass@host:587 (STARTTLS), smtps://…:465 or
	// smtp+plain://host:25 (no TLS, to a relay on this machine unless
	// AllowPlain); "" writes each message to Outbox instead.
	SMTPURL string
	// AllowPlain takes smtp+plain:// to another machine.
	AllowPlain bool
	// From is the sender; "" is no-reply@ the base URL's host.
	From string
	// Outbox is the folder of written messages; "" is outbox/ beside the
	// SQLite file (PostgreSQL needs it set, or SMTPURL).
	Outbox string
	// TLS replaces the SMTP client's TLS settings (tests trust their own
	// server with it).
	TLS *tls.Config
	// DigestHour is the UTC hour at which digests are sent.
	DigestHour int
}

// App is one running service.
type App struct {
	cfg   Config
	log   *slog.Logger
	store store.Store
	// counters is store, or store with its quota counters in Redis
	// (counters.go).
	counters store.Store
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

	// Sign-in, sessions, the guards of forms, OAuth for MCP, the account
	// area and digests (account.go).
	usage    *usage.Recorder
	sessions *session.Manager
	forms    *forms
	oauth    *oauth.Server
	account  *account.Pages
	desk     *desk.Pages
	digests  *digest.Sender
	mailer   *mail.Mailer
	// deps are the servers the app needs, watched for outages.
	deps []*dependency
	// claimed is true once this process serves an SQLite file alone; it
	// then takes backups of it (backup.go).
	claimed bool
	// metrics is nil when metrics are off (metrics.go).
	metrics *metrics.Metrics
	// table is the route table, as routes registered it.
	table []route
}

// Option changes how an App is built (tests inject a clock).
type Option func(*App)

// WithClock replaces the wall clock.
func WithClock(now func() time.Time) Option { return func(a *App) { a.now = now } }

// New opens the store named by cfg.Database and builds the service.
func New(ctx context.Context, cfg Config, log *slog.Logger, opts ...Option) (*App, error) {
	if err := Check(cfg); err != nil { // before the database is touched
		return nil, err
	}
	mc, _ := mailSettings(cfg)
	contact, _ := securityContact(cfg.SecurityContact, mc.From)
	cfg.ContactEmail, _ = contactEmail(cfg.ContactEmail)
	st, err := OpenStore(ctx, cfg.Database)
	if err != nil {
		return nil, err
	}
	for _, version := range st.Migrated() {
		log.Info("applied migration", "version", version)
	}
	a := &App{cfg: cfg, log: log, store: st, counters: st, now: time.Now}
	for _, o := range opts {
		o(a)
	}
	log = a.log
	a.problems = problem.Renderer{BaseURL: cfg.BaseURL, Log: log}
	if _, ok := st.(*postgres.DB); ok {
		a.problems.Unreachable = postgres.Unreachable
	}
	if err := a.openCounters(ctx); err != nil {
		st.Close()
		return nil, err
	}
	scorer, status, err := ChooseScorer(cfg.Search)
	if err != nil {
		a.counters.Close()
		return nil, err
	}
	if status.Provider == "builtin" && cfg.Search.Provider != "builtin" {
		log.Warn("semantic search uses the builtin scorer", "reason", status.Reason)
	} else {
		log.Info("semantic search scorer", "provider", status.Provider, "model", status.Model, "runtime", status.Runtime,
			"model_languages", strings.Join(status.Languages, ","))
	}
	a.newMetrics(st, scorer.Model())
	// Before the renderer is copied into every handler that answers.
	a.watchDependencies()
	a.usage = &usage.Recorder{Store: a.measured(a.counters), Log: log, Failed: a.jobFailed}
	a.auth = &auth.Authenticator{Store: a.counters, Problems: a.problems, Challenge: auth.APIChallenge, Now: a.now,
		OAuthToken: oauth.IsToken}
	a.limiter = &quota.Limiter{Store: a.usage, Now: a.now, Problems: a.problems}
	a.search = &search.Service{Store: a.usage, Scorer: scorer, Now: a.now, Log: log, Failed: a.jobFailed,
		Timeout: cfg.Search.Timeout, CacheTTL: searchCacheTTL, Capacity: cfg.Search.Capacity,
		Unreachable: a.problems.Unreachable, AfterPass: func() { releaseMemory(st, log) }}
	if a.metrics != nil {
		a.search.Observer = a.metrics
	}
	if a.search.Timeout <= 0 {
		a.search.Timeout = 10 * time.Second
	}
	if a.search.Capacity <= 0 {
		a.search.Capacity = 4
	}
	a.api = &api.API{Store: st, Searcher: a.search, Problems: a.problems, BaseURL: cfg.BaseURL,
		ListTimeout: a.cfg.ListTimeout}
	a.mcp = mcp.New(mcp.Config{BaseURL: cfg.BaseURL, Authenticate: a.authenticateMCP, Limiter: a.limiter,
		API: a.api, Problems: a.problems, Log: demoted(log)})
	if a.site, err = web.New(web.Config{BaseURL: cfg.BaseURL, Store: st, Problems: a.problems, Log: log,
		ListTimeout: a.cfg.ListTimeout, VectorModel: scorer.Model(),
		RelatedCosine: relatedCosine(scorer), ContactEmail: cfg.ContactEmail,
		Search: a.search, Usage: a.usage, Now: a.now}); err != nil {
		a.counters.Close()
		return nil, err
	}
	a.desk = desk.New(desk.Config{Store: st, Layout: a.site, Log: log, Now: a.now,
		Embed: scorer.EmbedDocuments, VectorModel: scorer.Model(), RelatedCosine: relatedCosine(scorer)})
	a.discovery = discovery.New(discovery.Config{BaseURL: cfg.BaseURL, Problems: a.problems, Store: a.counters, Log: log, Now: a.now,
		SecurityContact: contact})
	if err := a.newAccountArea(); err != nil {
		a.counters.Close()
		return nil, err
	}
	a.handler = a.routes()
	return a, nil
}

// indexEvery is how often the server embeds signals that became public
// since (imported by another process, or published by an editor).
const indexEvery = 15 * time.Second

// searchCacheTTL is how long a search result serves identical searches.
const searchCacheTTL = 15 * time.Minute

// ScorerStatus says which scorer a configuration chose and why.
type ScorerStatus struct {
	// Provider is the scorer in use: onnx, builtin or openai.
	Provider string
	// Model is the scorer's Model, the name its vectors are stored under.
	Model string
	// Runtime is the ONNX Runtime library loaded, "" when none is.
	Runtime string
	// Reason says why this provider: asked for, or why auto fell back.
	Reason string
	// Languages are the languages of the questions the model scores; the
	// builtin word vectors score the others. Empty: every question.
	Languages []string
}

// NewScorer builds the configured semantic search scorer.
func NewScorer(c SearchConfig) (search.Scorer, error) {
	s, _, err := ChooseScorer(c)
	return s, err
}

// ChooseScorer builds the configured semantic search scorer and says which
// and why. auto (the default) is the bundled sentence model where ONNX
// Runtime loads (from c.ONNXRuntime, or the usual places), else builtin.
func ChooseScorer(c SearchConfig) (search.Scorer, ScorerStatus, error) {
	s, status, err := chooseScorer(c)
	if err != nil {
		return nil, ScorerStatus{}, err
	}
	status.Model = s.Model()
	return s, status, nil
}

func chooseScorer(c SearchConfig) (search.Scorer, ScorerStatus, error) {
	switch c.Provider {
	case "", "auto", "onnx":
		lib, err := sentence.Load(c.ONNXRuntime)
		if err != nil {
			if c.Provider == "onnx" {
				return nil, ScorerStatus{}, fmt.Errorf("the onnx search provider needs ONNX Runtime (SIGNALS_ONNXRUNTIME): %w", err)
			}
			b, berr := builtin.New()
			return b, ScorerStatus{Provider: "builtin", Reason: "ONNX Runtime did not load, so the builtin scorer answers (set SIGNALS_ONNXRUNTIME to the path of libonnxruntime): " + runtimeError(err)}, berr
		}
		s, err := bundledScorer()
		if err != nil {
			return nil, ScorerStatus{}, err
		}
		reason := "ONNX Runtime loaded"
		if c.Provider == "onnx" {
			reason = "asked for (SIGNALS_SEARCH_PROVIDER=onnx)"
		}
		return s, ScorerStatus{Provider: "onnx", Runtime: lib, Reason: reason, Languages: bundled.Spec().Languages}, nil
	case "builtin":
		b, err := builtin.New()
		return b, ScorerStatus{Provider: "builtin", Reason: "asked for (SIGNALS_SEARCH_PROVIDER=builtin)"}, err
	case "openai":
		if c.URL == "" || c.Model == "" {
			return nil, ScorerStatus{}, errors.New("the openai search provider needs SIGNALS_SEARCH_URL and SIGNALS_SEARCH_MODEL")
		}
		cal := c.Calibration
		if cal == (search.Calibration{}) {
			cal = openai.DefaultCalibration
		}
		o, err := openai.New(c.URL, c.Model, c.APIKey, 30*time.Second, cal)
		return o, ScorerStatus{Provider: "openai", Reason: "asked for (SIGNALS_SEARCH_PROVIDER=openai)"}, err
	}
	return nil, ScorerStatus{}, fmt.Errorf("unknown search provider %q (SIGNALS_SEARCH_PROVIDER): use auto, onnx, builtin or openai", c.Provider)
}

// runtimeError is the first line of why ONNX Runtime did not load: the
// library that the first place tried could not open.
func runtimeError(err error) string {
	msg := err.Error()
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i] + " (and other places)"
	}
	return msg
}

var (
	bundledOnce   sync.Once
	bundledShared search.Scorer
	bundledErr    error
)

// bundledScorer is the builtin query reading with the bundled sentence
// model as its encoder, loaded once per process.
func bundledScorer() (search.Scorer, error) {
	bundledOnce.Do(func() {
		cal, err := builtin.ParseCalibration(bundled.Calibration)
		if err != nil {
			bundledErr = err
			return
		}
		enc, err := sentence.Open(bundled.Spec(), 1)
		if err != nil {
			bundledErr = err
			return
		}
		b, err := builtin.New()
		if err != nil {
			bundledErr = err
			return
		}
		bundledShared, bundledErr = b.WithEncoder(enc, cal)
	})
	return bundledShared, bundledErr
}

// relatedCosine is the least cosine between the stored vectors of two
// signals for a signal's page to list one as related to the other: the
// scorer's own.
func relatedCosine(s search.Scorer) float64 {
	if r, ok := s.(search.Related); ok {
		return r.RelatedCosine()
	}
	return builtin.RelatedCosine
}

// Search returns the app's search service.
func (a *App) Search() *search.Service { return a.search }

// OpenStore opens the store a database setting names: a postgres:// URL or
// a SQLite file path.
func OpenStore(ctx context.Context, database string) (store.Store, error) {
	if isPostgres(database) {
		return postgres.Open(ctx, database)
	}
	return sqlite.Open(ctx, database)
}

// SchemaVersion is the schema version this build expects of the database
// a setting names: the newest migration of its engine.
func SchemaVersion(database string) string {
	if isPostgres(database) {
		return postgres.SchemaVersion()
	}
	return sqlite.SchemaVersion()
}

// SchemaVersions are the schema versions this build expects of each
// engine.
func SchemaVersions() (sqliteVersion, postgresVersion string) {
	return sqlite.SchemaVersion(), postgres.SchemaVersion()
}

func isPostgres(database string) bool {
	return strings.HasPrefix(database, "postgres://") || strings.HasPrefix(database, "postgresql://")
}

// Store returns the app's store, with its quota counters where they live
// (in Redis when SIGNALS_REDIS_URL is set).
func (a *App) Store() store.Store { return a.counters }

// Handler returns the service's HTTP handler.
func (a *App) Handler() http.Handler { return a.handler }

// ClaimServing makes this process the only server of a store whose state
// must live in one process (SQLite's quota counters); a store shared by
// replicas (PostgreSQL) needs no claim.
func (a *App) ClaimServing() error {
	if c, ok := a.store.(interface{ ClaimServing() error }); ok {
		if err := c.ClaimServing(); err != nil {
			return err
		}
		a.claimed = true
	}
	return nil
}

// Serve serves HTTP on ln until ctx is done, then shuts down gracefully.
func (a *App) Serve(ctx context.Context, ln net.Listener) error {
	// inFlight counts the requests being answered, which a shutdown drains.
	var inFlight atomic.Int64
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			inFlight.Add(1)
			defer inFlight.Add(-1)
			a.handler.ServeHTTP(w, r)
		}),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(a.log.Handler(), slog.LevelWarn),
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(problemListener{Listener: ln, problems: a.problems}) }()
	indexCtx, stopIndex := context.WithCancel(ctx)
	indexed := make(chan struct{})
	go func() { defer close(indexed); a.search.Index(indexCtx, indexEvery) }()
	substrings := make(chan struct{})
	go func() { defer close(substrings); a.indexSubstrings(indexCtx) }()
	defer func() { stopIndex(); <-indexed; <-substrings }()
	stopAccountWork := a.startAccountWork(ctx)
	defer stopAccountWork()
	stopControl := a.serveControl(ctx)
	defer stopControl()
	go a.checkMail(ctx)
	stopWatching := a.startWatching(ctx)
	defer stopWatching()
	b := build.This()
	a.log.Info("serving", "addr", ln.Addr().String(), "base_url", a.cfg.BaseURL,
		"version", b.Version, "commit", b.Commit, "schema", SchemaVersion(a.cfg.Database))
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	draining, started := inFlight.Load(), time.Now()
	a.log.Info("shutting down", "in_flight", draining)
	shutdown, cancel := context.WithTimeout(context.WithoutCancel(ctx), 15*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		a.log.Error("shutdown", "in_flight", draining, "not_drained", inFlight.Load(), "err", err)
		return fmt.Errorf("shutdown: %w", err)
	}
	a.log.Info("stopped", "drained", draining, "duration", time.Since(started).Round(time.Millisecond).String())
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// Close waits for the work that requests left running, writes what is
// pending and releases the store.
func (a *App) Close() error {
	a.auth.Close()
	return errors.Join(a.usage.Flush(context.Background()), a.counters.Close())
}

// memoryReleaser is a store that keeps page caches in the process and can
// give them back.
type memoryReleaser interface {
	ReleaseMemory(context.Context) error
}

// The SQLite store keeps its page caches in the process; releaseMemory
// finds them through memoryReleaser.
var _ memoryReleaser = (*sqlite.DB)(nil)

// releaseMemory gives back what an indexing pass took, once the scorer has
// closed its session for passes: the page caches the pass filled, where
// the store keeps them in the process (SQLite), the Go heap's free pages
// (the tokenizer leaves much garbage) and the C heap's, where ONNX Runtime
// allocates.
func releaseMemory(st store.Store, log *slog.Logger) {
	if r, ok := st.(memoryReleaser); ok {
		if err := r.ReleaseMemory(context.Background()); err != nil {
			log.Warn("release the database's page caches after a pass", "err", err)
		}
	}
	debug.FreeOSMemory()
	sentence.TrimMemory()
}
