// Package account serves people's pages: signing in with a one-time link
// sent by email, signing out, the account area (API keys, usage and
// limits, OAuth connections, email interests, deleting the account) and
// one-click unsubscription from digests. Every page is server-rendered
// HTML that works without JavaScript, private (never cached, never
// Markdown), and every form that changes something is refused cross-site.
package account

import (
	"context"
	"html/template"
	"log/slog"
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

// Config is what the pages need.
type Config struct {
	BaseURL  string
	Store    Store
	Sessions *session.Manager
	Mail     mail.Sender
	Layout   layout.Frame
	Log      *slog.Logger
	Now      func() time.Time
	// DigestHour is the UTC hour at which digests are sent.
	DigestHour int
	// Connections is nil while the service offers no OAuth: the page then
	// says that no app is connected.
	Connections Connections
}

// Pages serves the sign-in pages and the account area. The route table
// reads their forms and refuses those that come from another site before
// a handler runs.
type Pages struct {
	frame
	cfg  Config
	base string
}

// New returns the pages for cfg.
func New(cfg Config) *Pages {
	return &Pages{frame: frame{cfg.Layout}, cfg: cfg, base: strings.TrimRight(cfg.BaseURL, "/")}
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

// frame renders this package's pages in the site's layout.
type frame struct{ layout layout.Frame }

// render writes a page with status, framed in the site's layout.
func (f frame) render(w http.ResponseWriter, r *http.Request, status int, name string, v view) {
	if c, ok := session.FromContext(r.Context()); ok {
		v.SignedIn, v.Email, v.Role = true, c.Account.Email, c.Account.Role
	}
	body, err := execute(name, v)
	if err != nil {
		f.internal(w, r, err)
		return
	}
	f.layout.WritePrivate(w, r, status, layout.Page{Title: v.Title, Section: sections[name],
		Body: template.HTML(body), FormAction: v.formAction})
}

// fail writes the error page of err under the heading title ("" for the
// title of err's code). Its status and code are those of err's failure
// code (problem.Status); an error without one is an internal_error.
func (f frame) fail(w http.ResponseWriter, r *http.Request, title string, err error) {
	f.layout.PrivateError(w, r, title, err)
}

// internal answers an unexpected failure: it is logged with the request
// id, and the page gives the id, never the failure itself.
func (f frame) internal(w http.ResponseWriter, r *http.Request, err error) {
	if r.Context().Err() != nil {
		return // the client left; nobody reads the answer
	}
	f.fail(w, r, "Something went wrong", err)
}

// NotFound is the HTML 404 of pages under this package's paths.
func (p *Pages) NotFound(w http.ResponseWriter, r *http.Request) {
	p.fail(w, r, "", failure.NotFound("There is no page at "+r.URL.Path+"."))
}

// now is the current time in UTC.
func (p *Pages) now() time.Time { return p.cfg.Now().UTC() }
