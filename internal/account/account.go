// Package account serves people's pages: signing in with a one-time link
// sent by email, signing out, the account area (API keys, usage and
// limits, OAuth connections, email interests, deleting the account) and
// one-click unsubscription from digests. Every page is server-rendered
// HTML that works without JavaScript, private (never cached, never
// Markdown), and every form that changes something is refused cross-site.
package account

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"signals/internal/mail"
	"signals/internal/model"
	"signals/internal/problem"
	"signals/internal/session"
	"signals/internal/store"
)

// Store is what the pages read and change.
type Store interface {
	store.Accounts
	store.Sessions
	store.AccountData
	store.Digests
	// Usage reports the account's current usage without counting.
	Usage(ctx context.Context, accountID int64, now time.Time) (model.Usage, error)
}

// Connection is an app connected to an account with OAuth.
type Connection struct {
	ID          string
	ClientName  string
	Scopes      []string
	ConnectedAt time.Time
	LastUsed    *time.Time
}

// Connections lists and ends an account's OAuth connections; the OAuth
// server provides it.
type Connections interface {
	Connections(ctx context.Context, accountID int64) ([]Connection, error)
	// Disconnect revokes the connection's tokens at once; ErrNotFound
	// if the account has no such connection.
	Disconnect(ctx context.Context, accountID int64, id string) error
}

// Config is what the pages need.
type Config struct {
	BaseURL  string
	Store    Store
	Sessions *session.Manager
	Mail     mail.Sender
	Log      *slog.Logger
	Now      func() time.Time
	// DigestHour is the UTC hour at which digests are sent.
	DigestHour int
	// Connections is nil while the service offers no OAuth: the page then
	// says that no app is connected.
	Connections Connections
}

// Pages serves the sign-in pages and the account area.
type Pages struct {
	cfg     Config
	base    string
	origins *http.CrossOriginProtection
}

// New returns the pages for cfg.
func New(cfg Config) (*Pages, error) {
	p := &Pages{cfg: cfg, base: strings.TrimRight(cfg.BaseURL, "/")}
	p.origins = http.NewCrossOriginProtection()
	// Behind a reverse proxy the Host header may differ from the public
	// address; forms posted from that address are the service's own.
	if err := p.origins.AddTrustedOrigin(origin(p.base)); err != nil {
		return nil, fmt.Errorf("account: base URL: %w", err)
	}
	p.origins.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.fail(w, r, http.StatusForbidden, "This form came from another site",
			"Forms that change your account work only from this site's own pages (forbidden_origin). Nothing was changed.")
	}))
	return p, nil
}

// origin is the scheme and host of a base URL.
func origin(base string) string {
	scheme, rest, _ := strings.Cut(base, "://")
	host, _, _ := strings.Cut(rest, "/")
	return scheme + "://" + host
}

// Forms refuses requests that change state and come from another site
// (http.CrossOriginProtection), with a 403 page; nothing reaches h then.
func (p *Pages) Forms(h http.Handler) http.Handler { return p.origins.Handler(h) }

// maxForm bounds the body of a form, as the API bounds its JSON bodies.
const maxForm = 32 << 10

// Methods dispatches a page's path by method; other methods get an HTML
// 405 with Allow. HEAD is served as GET. Form bodies past maxForm are not
// read: the form then reads as empty, and is refused as incomplete.
func (p *Pages) Methods(handlers map[string]http.Handler) http.Handler {
	var allow []string
	for _, m := range []string{http.MethodGet, http.MethodHead, http.MethodPost} {
		if handlers[m] != nil || (m == http.MethodHead && handlers[http.MethodGet] != nil) {
			allow = append(allow, m)
		}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m := r.Method
		if m == http.MethodHead && handlers[m] == nil {
			m = http.MethodGet
		}
		if h := handlers[m]; h != nil {
			if r.Body != nil {
				r.Body = http.MaxBytesReader(w, r.Body, maxForm)
			}
			h.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Allow", strings.Join(allow, ", "))
		p.fail(w, r, http.StatusMethodNotAllowed, "Method not allowed",
			fmt.Sprintf("%s does not answer %s (method_not_allowed).", r.URL.Path, r.Method))
	})
}

// private marks a response as personal: no cache keeps it, no page leaks
// its address (which may hold a token) to another site, and no other site
// frames it.
func private(w http.ResponseWriter) { privateWith(w, "") }

// privateWith is private, with forms also allowed to lead to formAction
// (an origin; "" for none).
func privateWith(w http.ResponseWriter, formAction string) {
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	if formAction != "" {
		formAction = " " + formAction
	}
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; "+
		"form-action 'self'"+formAction+"; frame-ancestors 'none'; base-uri 'none'")
}

// render writes a page with status.
func (p *Pages) render(w http.ResponseWriter, r *http.Request, status int, name string, v view) {
	privateWith(w, v.formAction)
	if c, ok := session.FromContext(r.Context()); ok {
		v.SignedIn, v.Email = true, c.Account.Email
	}
	body, err := execute(name, v)
	if err != nil {
		p.internal(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	w.Write(body)
}

// fail writes an error page.
func (p *Pages) fail(w http.ResponseWriter, r *http.Request, status int, title, message string) {
	p.render(w, r, status, "error", view{Title: title, Message: message})
}

// internal logs an unexpected failure with the request id and writes a 500
// page that gives the id, never the failure itself. A store that cannot be
// reached is a 503.
func (p *Pages) internal(w http.ResponseWriter, r *http.Request, err error) {
	if r.Context().Err() != nil {
		return // the client left; nobody reads the answer
	}
	id := r.Header.Get(problem.RequestIDHeader)
	p.cfg.Log.Error("page failed", "request_id", id, "path", r.URL.Path, "err", err)
	private(w)
	body, _ := execute("error", view{Title: "Something went wrong",
		Message: "The service could not answer this request. Try again in a moment; if it keeps failing, give us the request id " + id + " (internal_error)."})
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusInternalServerError)
	w.Write(body)
}

// SessionFailed answers a request whose session could not be read.
func (p *Pages) SessionFailed(w http.ResponseWriter, r *http.Request, err error) {
	p.internal(w, r, err)
}

// NotFound is the HTML 404 of pages under this package's paths.
func (p *Pages) NotFound(w http.ResponseWriter, r *http.Request) {
	p.fail(w, r, http.StatusNotFound, "Not found", "There is no page at "+r.URL.Path+" (not_found).")
}

// now is the current time in UTC.
func (p *Pages) now() time.Time { return p.cfg.Now().UTC() }
