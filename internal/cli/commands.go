package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"signals/internal/account"
	"signals/internal/app"
	"signals/internal/auth"
	"signals/internal/build"
	"signals/internal/demo"
	"signals/internal/failure"
	"signals/internal/importer"
	"signals/internal/model"
	"signals/internal/reads"
	"signals/internal/search/openai"
	"signals/internal/store"
)

func serve(ctx context.Context, args []string, env Env) error {
	c := newCommand("serve", env)
	withDemo := c.serveFlags()
	if _, err := c.parse(args, 0, "no arguments"); err != nil {
		return err
	}
	if err := c.checkServe(); err != nil {
		return err
	}
	logs := newLogWriter(c.env.Stderr)
	defer logs.Close()
	log, err := c.loggerTo(logs)
	if err != nil {
		return err
	}
	// The whole configuration is checked before the port is bound: a
	// mistake is reported as itself, whatever holds the port. The base URL
	// derived from the address is only known once it is bound; its host,
	// which the default mail sender takes, is known now.
	checked := c.cfg
	if checked.BaseURL == "" {
		checked.BaseURL = baseURLFromAddr(c.cfg.Addr, nil)
	}
	if err := app.Check(checked); err != nil {
		return err
	}
	// Listen next: a busy port stops serve before it writes anything to
	// the database or prints a key that would never be served.
	ln, metricsLn, err := c.listenAll()
	if err != nil {
		return err
	}
	defer ln.Close()
	if metricsLn != nil {
		defer metricsLn.Close()
	}
	a, err := app.New(ctx, c.cfg, log)
	if err != nil {
		return err
	}
	defer a.Close()
	if err := a.ClaimServing(); err != nil {
		return err
	}
	if *withDemo {
		if err := app.LoadDemo(ctx, a.Store(), demo.Records(), env.Stdout, env.program(), log); err != nil {
			return fmt.Errorf("demo data: %w", err)
		}
		if n, err := a.LoadDemoVectors(ctx); err != nil {
			return fmt.Errorf("demo vectors: %w", err)
		} else if n > 0 {
			log.Info("loaded demo vectors", "signals", n, "model", a.Search().Scorer.Model())
		}
	}
	base := c.cfg.BaseURL
	fmt.Fprintf(env.Stdout, "serving on %s — docs at %s/developers\n", base, base)
	if metricsLn != nil {
		go func() {
			if err := a.ServeMetrics(ctx, metricsLn); err != nil {
				log.Error("serve metrics", "err", err)
			}
		}()
	}
	return a.Serve(ctx, ln)
}

// serveFlags binds the settings of serve; the flag it returns is --demo.
func (c *command) serveFlags() (withDemo *bool) {
	c.stringVar(&c.cfg.Addr, "addr", "SIGNALS_ADDR", ":8080", "address to listen on")
	c.stringVar(&c.cfg.BaseURL, "base-url", "SIGNALS_BASE_URL", "",
		"public base address of the service; empty: http:// and the listening address, with localhost for an unspecified host")
	c.searchFlags()
	c.mailFlags()
	c.durationVar(&c.cfg.Search.Timeout, "search-timeout", "SIGNALS_SEARCH_TIMEOUT", 10*time.Second,
		"longest time one fresh semantic search may take; a process that dies mid-search frees the account's slot after this plus 5s")
	c.durationVar(&c.cfg.ListTimeout, "list-timeout", "SIGNALS_LIST_TIMEOUT", reads.DefaultListTimeout,
		"longest time one signal listing may read the database; a listing that takes longer is 503 service_busy")
	c.stringVar(&c.cfg.MetricsAddr, "metrics-addr", "SIGNALS_METRICS_ADDR", "",
		"address of a separate listener serving Prometheus metrics at /metrics, such as 127.0.0.1:9090; empty: no metrics")
	c.stringVar(&c.cfg.SecurityContact, "security-contact", "SIGNALS_SECURITY_CONTACT", "",
		"where security reports go, the Contact of /.well-known/security.txt: a mailto:, https: or tel: URI or an email address; empty: the mail sender")
	c.stringVar(&c.cfg.ContactEmail, "contact-email", "SIGNALS_CONTACT_EMAIL", "",
		"email address that /contact shows readers as a mailto: link, unless a contact article is imported; empty: none")
	// The URL may hold Redis's password: read from the environment only,
	// like SIGNALS_SMTP_URL.
	c.cfg.RedisURL = c.env.Getenv("SIGNALS_REDIS_URL")
	c.logFlags()
	return c.fs.Bool("demo", false, "load the bundled demo data into an empty database and create demo@example.com")
}

// checkServe checks the settings of serve that need no database and no
// port, as usage errors naming the setting; it resolves the base URL
// given to its canonical form.
func (c *command) checkServe() error {
	if c.cfg.Search.Timeout <= 0 {
		return fmt.Errorf("%w: --search-timeout must be positive, got %s", errUsage, c.cfg.Search.Timeout)
	}
	if c.cfg.ListTimeout <= 0 {
		return fmt.Errorf("%w: --list-timeout must be positive, got %s", errUsage, c.cfg.ListTimeout)
	}
	if err := c.checkMail(); err != nil {
		return err
	}
	if c.cfg.BaseURL != "" {
		base, err := checkBaseURL(c.cfg.BaseURL)
		if err != nil {
			return err
		}
		c.cfg.BaseURL = base
	}
	if err := checkAddr(c.cfg.Addr, addrFlag); err != nil {
		return err
	}
	if c.cfg.MetricsAddr != "" {
		return checkAddr(c.cfg.MetricsAddr, metricsAddrFlag)
	}
	return nil
}

// listenAll binds the service's address, and the metrics address when one
// is set (nil otherwise); an unset base URL becomes the bound address's.
func (c *command) listenAll() (ln, metricsLn net.Listener, err error) {
	if ln, err = listen(c.cfg.Addr, addrFlag); err != nil {
		return nil, nil, err
	}
	if c.cfg.BaseURL == "" {
		c.cfg.BaseURL = baseURLFromAddr(c.cfg.Addr, ln.Addr())
	}
	if c.cfg.MetricsAddr != "" {
		if metricsLn, err = listen(c.cfg.MetricsAddr, metricsAddrFlag); err != nil {
			ln.Close()
			return nil, nil, err
		}
	}
	return ln, metricsLn, nil
}

// setting names a flag and the environment variable it reads.
type setting struct{ flag, env string }

var (
	addrFlag        = setting{"--addr", "SIGNALS_ADDR"}
	metricsAddrFlag = setting{"--metrics-addr", "SIGNALS_METRICS_ADDR"}
)

// checkAddr refuses an address to listen on that is not host:port, as a
// usage error naming the setting it came from.
func checkAddr(addr string, from setting) error {
	_, port, err := net.SplitHostPort(addr)
	if err == nil {
		_, err = net.LookupPort("tcp", port)
	}
	if err != nil {
		return fmt.Errorf("%w: %s ($%s) is host:port, such as :8080 or 127.0.0.1:8080; got %q", errUsage, from.flag, from.env, addr)
	}
	return nil
}

// listen binds addr; when it cannot, the error names the setting that
// chooses another address.
func listen(addr string, from setting) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if errors.Is(err, syscall.EADDRINUSE) {
		return nil, fmt.Errorf("listen tcp %s: address already in use; another program holds it: "+
			"choose another address with %s or %s", addr, from.flag, from.env)
	}
	if err != nil {
		return nil, fmt.Errorf("%w; choose another address with %s or %s", err, from.flag, from.env)
	}
	return ln, nil
}

// checkBaseURL returns the public base address without its trailing slash,
// or a usage error if it is not an absolute http or https URL: every link
// the service publishes (the MCP endpoint, discovery documents, error types)
// starts with it.
func checkBaseURL(s string) (string, error) {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" || u.Opaque != "" ||
		u.User != nil || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || strings.Contains(s, "#") {
		return "", fmt.Errorf("%w: --base-url ($SIGNALS_BASE_URL) must be an absolute http or https URL "+
			"without user, query or fragment, such as https://signals.example.com; got %q", errUsage, s)
	}
	return strings.TrimRight(u.String(), "/"), nil
}

// baseURLFromAddr is the base address of a service that was given only the
// address it listens on: links must reach the port it serves, not a
// default one. An unspecified host (":9090", "0.0.0.0:9090", "[::]:9090")
// becomes localhost; port 0 becomes the port the listener was given.
func baseURLFromAddr(addr string, listening net.Addr) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "http://localhost:8080"
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "localhost"
	}
	if tcp, ok := listening.(*net.TCPAddr); ok && (port == "0" || port == "") {
		port = strconv.Itoa(tcp.Port)
	}
	return "http://" + net.JoinHostPort(host, port)
}

// searchFlags binds the semantic search scorer's settings, shared by serve
// and eval-search.
func (c *command) searchFlags() {
	c.stringVar(&c.cfg.Search.Provider, "search-provider", "SIGNALS_SEARCH_PROVIDER", "auto",
		"semantic search scorer: auto (onnx where ONNX Runtime loads, else builtin), onnx (the bundled sentence model), builtin, or openai for any OpenAI-compatible embeddings server")
	c.stringVar(&c.cfg.Search.ONNXRuntime, "onnxruntime", "SIGNALS_ONNXRUNTIME", "",
		"path of the ONNX Runtime shared library (libonnxruntime.so, .dylib); unset: the usual places")
	c.stringVar(&c.cfg.Search.URL, "search-url", "SIGNALS_SEARCH_URL", "", "base URL of the embeddings server (openai provider)")
	c.stringVar(&c.cfg.Search.Model, "search-model", "SIGNALS_SEARCH_MODEL", "", "embedding model name (openai provider)")
	c.floatVar(&c.cfg.Search.Calibration.Threshold, "search-threshold", "SIGNALS_SEARCH_THRESHOLD", openai.DefaultCalibration.Threshold,
		"cosine of query and signal embeddings that scores relevance 0.85, the match cutoff (openai provider; eval-search --fit finds it)")
	c.floatVar(&c.cfg.Search.Calibration.Slope, "search-slope", "SIGNALS_SEARCH_SLOPE", openai.DefaultCalibration.Slope,
		"how fast relevance changes with the cosine around the threshold (openai provider; eval-search --fit finds it)")
	// A secret: read from the environment only, so it never shows in a
	// process list or in -h output.
	c.cfg.Search.APIKey = c.env.Getenv("SIGNALS_SEARCH_API_KEY")
}

// openStore opens the configured store for an operator command.
func (c *command) openStore(ctx context.Context) (store.Store, error) {
	// The logger's settings are checked even though the store logs nothing.
	if _, err := c.logger(); err != nil {
		return nil, err
	}
	return app.OpenStore(ctx, c.cfg.Database)
}

// withStore opens the configured store, runs do with it and closes it:
// the preamble of every operator command that reads or changes the
// database. The error is do's, or else the closing's.
func (c *command) withStore(ctx context.Context, do func(st store.Store) error) error {
	st, err := c.openStore(ctx)
	if err != nil {
		return err
	}
	err = do(st)
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	return err
}

// withAccount runs do with the store and the account whose email is
// given, as sign-in reads it; no such account is an error that names it.
func (c *command) withAccount(ctx context.Context, email string, do func(st store.Store, a model.Account) error) error {
	email, err := checkEmail(email)
	if err != nil {
		return err
	}
	return c.withStore(ctx, func(st store.Store) error {
		a, err := st.AccountByEmail(ctx, email)
		if err != nil {
			return missing(err, "no account with email %s", email)
		}
		return do(st, a)
	})
}

// missing is err, unless err is store.ErrNotFound: then it is the error
// that says, in the operator's words, what the store does not hold.
func missing(err error, format string, args ...any) error {
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf(format, args...)
	}
	return err
}

// taken is err, unless err is store.ErrExists: then it is the error that
// says, in the operator's words, what the store holds already.
func taken(err error, format string, args ...any) error {
	if errors.Is(err, store.ErrExists) {
		return fmt.Errorf(format, args...)
	}
	return err
}

func migrate(ctx context.Context, args []string, env Env) error {
	c := newCommand("migrate", env)
	if _, err := c.parse(args, 0, "no arguments"); err != nil {
		return err
	}
	return c.withStore(ctx, func(st store.Store) error {
		applied := st.Migrated()
		for _, version := range applied {
			fmt.Fprintln(env.Stderr, "applied migration", version)
		}
		if len(applied) == 0 {
			fmt.Fprintln(env.Stderr, "schema is up to date")
		}
		return nil
	})
}

func importCmd(ctx context.Context, args []string, env Env) error {
	c := newCommand("import", env)
	mode := c.fs.String("mode", string(store.ImportKeepDecisions), "what the import does to signals already stored: "+
		"keep-decisions (update them, except the fields an editor decided), new-only (leave them as they are) or "+
		"overwrite (update every field, forgetting an editor's decisions); a taken-down id is skipped in every mode")
	pos, err := c.parse(args, 1, "one argument: FILE, or - for standard input")
	if err != nil {
		return err
	}
	if !slices.Contains(store.ImportModes, store.ImportMode(*mode)) {
		return fmt.Errorf("%w: --mode is keep-decisions, new-only or overwrite, not %q", errUsage, *mode)
	}
	in := env.Stdin
	if pos[0] != "-" {
		f, err := os.Open(pos[0])
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	}
	opt := importer.Options{Errors: env.Stderr, Mode: store.ImportMode(*mode)}
	if isTerminal(env.Stderr) {
		opt.Progress = env.Stderr
	}
	return c.withStore(ctx, func(st store.Store) error {
		start := time.Now()
		res, err := importer.Import(ctx, in, st, opt)
		if errors.Is(err, importer.ErrInvalid) {
			fmt.Fprintf(env.Stderr, "%d of %d lines invalid; nothing was imported\n", res.Invalid, res.Lines)
			return errReported
		}
		if err != nil {
			return err
		}
		kept := map[store.ImportMode]string{
			store.ImportKeepDecisions: "editors' decisions kept",
			store.ImportNewOnly:       "stored signals left as they were",
			store.ImportOverwrite:     "editors' decisions overwritten",
		}[opt.Mode]
		fmt.Fprintf(env.Stderr, "imported %d signals in %s: %d new, %d updated, %d unchanged (%s); %d refused as taken down, %d ids on more than one line\n",
			res.Imported, time.Since(start).Round(time.Millisecond), res.New, res.Updated, res.Unchanged, kept,
			len(res.TakenDown), len(res.Duplicates))
		if n := len(res.TakenDown); n > 0 {
			fmt.Fprintf(env.Stderr, "%d taken down by an editor, not imported (signals signals restore ID brings one back): %s\n",
				n, quotedList(res.TakenDown))
		}
		if n := len(res.Duplicates); n > 0 {
			ids := slices.Sorted(maps.Keys(res.Duplicates))
			parts := make([]string, len(ids))
			for i, id := range ids {
				lines := make([]string, len(res.Duplicates[id]))
				for j, l := range res.Duplicates[id] {
					lines[j] = strconv.Itoa(l)
				}
				parts[i] = strconv.Quote(plain(id, 80)) + " (lines " + strings.Join(lines, ", ") + ")"
			}
			fmt.Fprintf(env.Stderr, "%d ids are on more than one line; the last line of each was imported: %s\n", n, strings.Join(parts, ", "))
		}
		return nil
	})
}

// emailFlag declares the --email flag.
func (c *command) emailFlag() *string {
	return c.fs.String("email", "", "the account's email address")
}

// checkEmail returns the address as accounts store it, read as sign-in
// reads it (NFC, the domain by IDNA, lower case), or a usage error that
// says what is wrong with it.
func checkEmail(email string) (string, error) {
	normal, err := account.NormalEmail(email)
	if err != nil {
		return "", refusedFlag("--email", err)
	}
	return normal, nil
}

// refusedFlag is the usage error for a flag whose value the account area
// refuses, saying what its failure says to a person.
func refusedFlag(flag string, err error) error {
	detail := err.Error()
	if f, ok := failure.As(err); ok {
		detail = f.Detail
	}
	return fmt.Errorf("%w: %s: %s", errUsage, flag, detail)
}

func accountsCreate(ctx context.Context, args []string, env Env) error {
	c := newCommand("accounts create", env)
	email := c.emailFlag()
	if _, err := c.parse(args, 0, "no arguments"); err != nil {
		return err
	}
	normal, err := checkEmail(*email)
	if err != nil {
		return err
	}
	return c.withStore(ctx, func(st store.Store) error {
		a, err := st.CreateAccount(ctx, normal, time.Now())
		if err != nil {
			return taken(err, "an account with email %s exists", normal)
		}
		fmt.Fprintf(env.Stderr, "created account %d for %s\n", a.ID, a.Email)
		return nil
	})
}

func accountsSetLimits(ctx context.Context, args []string, env Env) error {
	c := newCommand("accounts set-limits", env)
	email := c.emailFlag()
	daily := c.fs.Int("daily-requests", -1, "requests per UTC day")
	minute := c.fs.Int("minute-requests", -1, "requests per minute")
	searches := c.fs.Int("daily-searches", -1, "fresh semantic searches per UTC day")
	concurrent := c.fs.Int("concurrent-searches", -1, "semantic searches running at once")
	if _, err := c.parse(args, 0, "no arguments"); err != nil {
		return err
	}
	return c.withAccount(ctx, *email, func(st store.Store, a model.Account) error {
		l := a.Limits
		for _, f := range []struct {
			name string
			v    int
			p    *int
		}{
			{"daily-requests", *daily, &l.DailyRequests}, {"minute-requests", *minute, &l.MinuteRequests},
			{"daily-searches", *searches, &l.DailySearches}, {"concurrent-searches", *concurrent, &l.ConcurrentSearches},
		} {
			if f.v == -1 {
				continue
			}
			if f.v < 0 || f.v > 1_000_000_000 {
				return fmt.Errorf("%w: --%s must be from 0 to 1000000000", errUsage, f.name)
			}
			*f.p = f.v
		}
		if err := st.SetLimits(ctx, a.ID, l); err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "daily_requests=%d minute_requests=%d daily_searches=%d concurrent_searches=%d\n",
			l.DailyRequests, l.MinuteRequests, l.DailySearches, l.ConcurrentSearches)
		return nil
	})
}

func keysCreate(ctx context.Context, args []string, env Env) error {
	c := newCommand("keys create", env)
	email := c.emailFlag()
	name := c.fs.String("name", "default", "a name to tell the key apart")
	if _, err := c.parse(args, 0, "no arguments"); err != nil {
		return err
	}
	named, err := keyName(*name)
	if err != nil {
		return err
	}
	return c.withAccount(ctx, *email, func(st store.Store, a model.Account) error {
		secret, _, err := auth.Issue(ctx, st, a.ID, named, time.Now())
		if err != nil {
			return err
		}
		fmt.Fprintln(env.Stdout, secret)
		return nil
	})
}

func keysList(ctx context.Context, args []string, env Env) error {
	c := newCommand("keys list", env)
	email := c.emailFlag()
	if _, err := c.parse(args, 0, "no arguments"); err != nil {
		return err
	}
	return c.withAccount(ctx, *email, func(st store.Store, a model.Account) error {
		keys, err := st.Keys(ctx, a.ID)
		if err != nil {
			return err
		}
		writeKeys(env.Stdout, keys)
		return nil
	})
}

func writeKeys(out io.Writer, keys []model.APIKey) {
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tKEY\tCREATED\tLAST USED\tREVOKED")
	when := func(t *time.Time) string {
		if t == nil {
			return "-"
		}
		return t.Format(time.RFC3339)
	}
	for _, k := range keys {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", k.ID, k.Name, k.Hint,
			k.CreatedAt.Format(time.RFC3339), when(k.LastUsed), when(k.RevokedAt))
	}
	tw.Flush()
}

// keyName returns the trimmed key name, or, as a usage error, why the
// account page would refuse it.
func keyName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if err := account.CheckKeyName(name); err != nil {
		return "", refusedFlag("--name", err)
	}
	return name, nil
}

func keysRename(ctx context.Context, args []string, env Env) error {
	c := newCommand("keys rename", env)
	email := c.emailFlag()
	name := c.fs.String("name", "", "the key's new name")
	pos, err := c.parse(args, 1, "one argument: KEY_ID")
	if err != nil {
		return err
	}
	named, err := keyName(*name)
	if err != nil {
		return err
	}
	return c.withAccount(ctx, *email, func(st store.Store, a model.Account) error {
		if err := st.RenameKey(ctx, a.ID, pos[0], named); err != nil {
			return missing(err, "no active key with id %q for %s", pos[0], a.Email)
		}
		fmt.Fprintf(env.Stderr, "renamed %s to %q\n", pos[0], named)
		return nil
	})
}

func keysRevoke(ctx context.Context, args []string, env Env) error {
	c := newCommand("keys revoke", env)
	pos, err := c.parse(args, 1, "one argument: KEY_ID")
	if err != nil {
		return err
	}
	return c.withStore(ctx, func(st store.Store) error {
		if err := st.RevokeKey(ctx, pos[0], time.Now()); err != nil {
			return missing(err, "no active key with id %q", pos[0])
		}
		fmt.Fprintf(env.Stderr, "revoked %s\n", pos[0])
		return nil
	})
}

// versionCmd prints which build this is and the schema version it expects
// of each engine: what an operator compares before an upgrade, and what
// the refusal of a database migrated by a newer build names.
func versionCmd(ctx context.Context, args []string, env Env) error {
	c := newCommand("version", env)
	if _, err := c.parse(args, 0, "no arguments"); err != nil {
		return err
	}
	b := build.This()
	sqliteSchema, postgresSchema := app.SchemaVersions()
	fmt.Fprintf(env.Stdout, "signals %s\ncommit %s\ngo %s\nschema sqlite %s, postgresql %s\n",
		b.Version, b.Commit, b.Go, sqliteSchema, postgresSchema)
	return nil
}
