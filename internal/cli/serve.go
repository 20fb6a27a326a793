package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"signals/internal/app"
	"signals/internal/demo"
	"signals/internal/reads"
	"signals/internal/search/openai"
)

// setting names a flag and the environment variable it reads.
type setting struct{ flag, env string }

var (
	addrFlag        = setting{"--addr", "SIGNALS_ADDR"}
	metricsAddrFlag = setting{"--metrics-addr", "SIGNALS_METRICS_ADDR"}
)

// serve runs the service: the listeners first, then the store, the demo
// data when asked for, and every background job until ctx ends.
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
