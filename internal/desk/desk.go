// Package desk serves the editor's desk: the review queue (/desk), where
// editors publish, hide, correct and take down signals one at a time or
// several, and the record of their decisions (/desk/log), with its export
// as JSON Lines.
//
// Only a signed-in editor whose sign-in is younger than SignInAge reaches
// a desk page: the desk reads the session cookie alone, so no API key and
// no OAuth token reaches it, whatever its scopes. Pages are private
// (never cached, never Markdown), work without JavaScript, and the route
// table refuses their forms when they come from another site.
package desk

import (
	"bytes"
	"context"
	"crypto/sha256"
	"embed"
	"html/template"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"signals/internal/failure"
	"signals/internal/layout"
	"signals/internal/model"
	"signals/internal/session"
	"signals/internal/store"
)

// Paths of the desk.
const (
	Path       = "/desk"
	DecidePath = "/desk/decide"
	DeletePath = "/desk/delete"
	LogPath    = "/desk/log"
	ExportPath = "/desk/log.jsonl"
)

// SignInAge is how old a sign-in may be for the desk (step-up): an older
// session is sent to sign in again, as taking a decision in an editor's
// name must not ride on a cookie left on a shared machine for weeks.
const SignInAge = 12 * time.Hour

// Store is what the desk reads and changes.
type Store interface {
	DeskSignals(ctx context.Context, q model.DeskQuery) ([]model.Signal, error)
	Decide(ctx context.Context, id string, c model.Change, editor, reason string, now time.Time) (model.Decision, error)
	TakeDown(ctx context.Context, id, editor, reason string, now time.Time) (model.Decision, error)
	DeskLog(ctx context.Context, q model.LogQuery) ([]model.Decision, error)
	KnownIDs(ctx context.Context, ids []string) (existing, takenDown map[string]bool, err error)
	Candidates(ctx context.Context, f model.Filter, vectorModel string, textChars, limit int) ([]store.Candidate, error)
}

// Config is what the desk needs.
type Config struct {
	Store  Store
	Layout layout.Frame
	Log    *slog.Logger
	Now    func() time.Time
	// Embed turns pending signals' texts into vectors of VectorModel's
	// space (the search scorer's EmbedDocuments), to find the public
	// signals nearest to them by their stored vectors; nil shows none.
	Embed       func(ctx context.Context, texts []string) ([][]float32, error)
	VectorModel string
	// RelatedCosine is the least cosine at which a public signal is shown
	// as similar.
	RelatedCosine float64
}

// Pages serves the desk.
type Pages struct {
	cfg Config
	// kept holds the vectors of pending texts already embedded, by the
	// SHA-256 of the text.
	kept struct {
		sync.Mutex
		vectors map[[sha256.Size]byte][]float32
	}
}

// New returns the desk for cfg.
func New(cfg Config) *Pages { return &Pages{cfg: cfg} }

// Editors lets through only requests of a signed-in editor whose sign-in
// is younger than SignInAge (after session.Manager.Load). A visitor who is
// not signed in is sent to sign in; an account that is not an editor gets
// the 404 of any private page that does not exist (the desk is not theirs
// to find); an editor with an older sign-in is sent to sign in again, and
// comes back here afterwards (a GET; a form is not replayed).
func (p *Pages) Editors(next http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, ok := session.FromContext(r.Context())
		switch {
		case !ok:
			session.SignIn(w, r, "")
		case c.Account.Role != model.RoleEditor:
			p.NotFound(w, r)
		case !c.Fresh(p.cfg.Now(), SignInAge):
			session.SignIn(w, r, session.NoticeSignInAgain)
		default:
			next(w, r)
		}
	})
}

// NotFound is the 404 page of a private path.
func (p *Pages) NotFound(w http.ResponseWriter, r *http.Request) {
	p.cfg.Layout.PrivateError(w, r, "", failure.NotFound("There is no page at "+r.URL.Path+"."))
}

// editor names the signed-in editor in the desk log: the account's email.
func editor(r *http.Request) string {
	c, _ := session.FromContext(r.Context())
	return c.Account.Email
}

//go:embed templates/*.html
var templateFiles embed.FS

var pages = func() map[string]*template.Template {
	out := map[string]*template.Template{}
	for _, name := range []string{"queue", "log"} {
		out[name] = template.Must(template.New(name+".html").ParseFS(templateFiles, "templates/"+name+".html"))
	}
	return out
}()

// render writes the page name with status, framed in the site's layout
// under title.
func (p *Pages) render(w http.ResponseWriter, r *http.Request, status int, name, title string, v any) {
	var buf bytes.Buffer
	if err := pages[name].Execute(&buf, v); err != nil {
		p.internal(w, r, err)
		return
	}
	p.cfg.Layout.WritePrivate(w, r, status, layout.Page{Title: title, Section: Path, Body: template.HTML(buf.String())})
}

// refuse answers a request the desk cannot take with the page of err
// (a 4xx with its stable code); nothing was changed.
func (p *Pages) refuse(w http.ResponseWriter, r *http.Request, title string, err error) {
	p.cfg.Layout.PrivateError(w, r, title, err)
}

// internal answers an unexpected failure: logged with the request id by
// the page's renderer, which gives the id and never the failure.
func (p *Pages) internal(w http.ResponseWriter, r *http.Request, err error) {
	if r.Context().Err() != nil {
		return // the client left; nobody reads the answer
	}
	p.cfg.Layout.PrivateError(w, r, "Something went wrong", err)
}
