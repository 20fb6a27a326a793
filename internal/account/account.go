// Package account serves people's pages: signing in with a one-time link
// sent by email, signing out, the account area (API keys, usage and
// limits, OAuth connections, email interests, deleting the account) and
// one-click unsubscription from digests. Every page is server-rendered
// HTML that works without JavaScript, private (never cached, never
// Markdown), and every form that changes something is refused cross-site.
package account

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"log/slog"
	"mime"
	"net/http"
	"strings"
	"time"

	"signals/internal/consent"
	"signals/internal/failure"
	"signals/internal/layout"
	"signals/internal/mail"
	"signals/internal/model"
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

// Connections lists and ends an account's OAuth connections; the OAuth
// server provides it.
type Connections interface {
	Connections(ctx context.Context, accountID int64) ([]consent.Connection, error)
	// Disconnect revokes the connection's tokens at once; ErrNotFound
	// if the account has no such connection.
	Disconnect(ctx context.Context, accountID int64, id string) error
	// AppAsking names the app whose authorization request the local
	// path next is, so that the sign-in page says who asks; "" when next
	// is no such request.
	AppAsking(ctx context.Context, next string) string
}

// Layout frames the pages in the site's one layout and navigation, and
// renders their failures; the website (web.Site) provides it.
type Layout interface {
	// WritePrivate writes a personal page with status.
	WritePrivate(w http.ResponseWriter, r *http.Request, status int, p layout.Page)
	// PrivateError writes the error page of err, whose status and code
	// come from its failure code, under the heading title ("" for the
	// code's title).
	PrivateError(w http.ResponseWriter, r *http.Request, title string, err error)
}

// Config is what the pages need.
type Config struct {
	BaseURL  string
	Store    Store
	Sessions *session.Manager
	Mail     mail.Sender
	Layout   Layout
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
		p.fail(w, r, "This form came from another site", failure.New(failure.CodeForbiddenOrigin,
			"Forms that change your account work only from this site's own pages. Nothing was changed."))
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
// 405 with Allow. HEAD is served as GET. Every form of the site passes
// here, so its body is bounded here: a form past maxForm is a 413 page
// (payload_too_large) before any handler runs, rather than a form that
// reads as empty and is refused for a missing field.
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
			if m == http.MethodPost {
				if err := readForm(r); err != nil {
					if err.Code == failure.CodePayloadTooLarge {
						// What is left of the body is not read: the
						// connection cannot carry another request.
						w.Header().Set("Connection", "close")
					}
					p.fail(w, r, "", err)
					return
				}
			}
			h.ServeHTTP(w, r)
			return
		}
		p.fail(w, r, "", failure.MethodNotAllowed(r.Method, allow))
	})
}

// readForm reads a posted form whole, so that handlers find its fields
// parsed. A body declared larger than maxForm is refused without reading
// it (it may never finish arriving); one that only turns out larger is
// refused when the limit is reached.
func readForm(r *http.Request) *failure.Error {
	if r.ContentLength > maxForm {
		return formError(&http.MaxBytesError{Limit: maxForm})
	}
	var err error
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt == "multipart/form-data" {
		err = r.ParseMultipartForm(maxForm)
	} else {
		err = r.ParseForm()
	}
	if err != nil {
		return formError(err)
	}
	return nil
}

// formError is the failure of a form that could not be read.
func formError(err error) *failure.Error {
	if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
		return failure.New(failure.CodePayloadTooLarge, fmt.Sprintf("The form is larger than %d KiB.", maxForm>>10))
	}
	return failure.New(failure.CodeInvalidParameter, "The form could not be read.")
}

// private marks a redirect that answers a personal request: no cache
// keeps it, and no other site learns the address it came from (which may
// hold a token). Pages get the same from the layout.
func private(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", layout.PrivateReferrerPolicy)
}

// sections mark the navigation entry of each page.
var sections = map[string]string{
	"sign-in": session.SignInPath, "check-email": session.SignInPath, "confirm": session.SignInPath,
	"link-gone": session.SignInPath,
	"account":   "/account",
}

// render writes a page with status, framed in the site's layout.
func (p *Pages) render(w http.ResponseWriter, r *http.Request, status int, name string, v view) {
	if c, ok := session.FromContext(r.Context()); ok {
		v.SignedIn, v.Email = true, c.Account.Email
	}
	body, err := execute(name, v)
	if err != nil {
		p.internal(w, r, err)
		return
	}
	p.cfg.Layout.WritePrivate(w, r, status, layout.Page{Title: v.Title, Section: sections[name],
		Body: template.HTML(body), FormAction: v.formAction})
}

// fail writes the error page of err under the heading title ("" for the
// title of err's code). Its status and code are those of err's failure
// code (problem.Status); an error without one is an internal_error.
func (p *Pages) fail(w http.ResponseWriter, r *http.Request, title string, err error) {
	p.cfg.Layout.PrivateError(w, r, title, err)
}

// internal answers an unexpected failure: it is logged with the request
// id, and the page gives the id, never the failure itself.
func (p *Pages) internal(w http.ResponseWriter, r *http.Request, err error) {
	if r.Context().Err() != nil {
		return // the client left; nobody reads the answer
	}
	p.fail(w, r, "Something went wrong", err)
}

// SessionFailed answers a request whose session could not be read.
func (p *Pages) SessionFailed(w http.ResponseWriter, r *http.Request, err error) {
	p.internal(w, r, err)
}

// NotFound is the HTML 404 of pages under this package's paths.
func (p *Pages) NotFound(w http.ResponseWriter, r *http.Request) {
	p.fail(w, r, "", failure.NotFound("There is no page at "+r.URL.Path+"."))
}

// now is the current time in UTC.
func (p *Pages) now() time.Time { return p.cfg.Now().UTC() }
