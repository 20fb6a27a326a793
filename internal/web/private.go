package web

import (
	"net/http"
	"signals/internal/layout"
	"strconv"
	"strings"
)

// privateHeaders are the headers of every personal page: no cache keeps
// it, no other site learns its address or frames it, and its scripts and
// styles are the site's own, as on every page.
func privateHeaders(h http.Header, formAction string) {
	csp := ContentSecurityPolicy
	if formAction != "" {
		csp = strings.Replace(csp, "form-action 'self'", "form-action 'self' "+formAction, 1)
	}
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Security-Policy", csp)
	h.Set("Referrer-Policy", layout.PrivateReferrerPolicy)
	h.Set("X-Frame-Options", "DENY")
}

// WritePrivate writes a personal page with status. Personal pages are HTML
// only: they never negotiate Markdown.
func (s *Site) WritePrivate(w http.ResponseWriter, r *http.Request, status int, p layout.Page) {
	body, err := s.render(r, "page", view{Title: p.Title, Section: p.Section, NoIndex: true, Content: p.Body})
	if err != nil {
		s.PrivateError(w, r, "", err)
		return
	}
	privateHeaders(w.Header(), p.FormAction)
	write(w, r, status, body)
}

// PrivateError answers a personal page's request with the page of err: the
// status and code come from the failure (problem.Status), as on every
// error page of the site; any other error is an internal_error whose
// request id the page gives. title replaces the code's title as the
// heading when not empty. Like the page it stands for, it is HTML only.
func (s *Site) PrivateError(w http.ResponseWriter, r *http.Request, title string, err error) {
	p := s.cfg.Problems.Resolve(r, err)
	if p == nil {
		return // the client left; nobody reads the answer
	}
	h := w.Header()
	if len(p.AllowedMethods) > 0 {
		h.Set("Allow", strings.Join(p.AllowedMethods, ", "))
	}
	if p.RetryAfterSeconds != nil {
		h.Set("Retry-After", strconv.Itoa(*p.RetryAfterSeconds))
	}
	page := newErrorPage(p)
	if title != "" {
		page.Title = title
	}
	body, rerr := s.render(r, "error", view{Title: page.Title, NoIndex: true, Content: page})
	if rerr != nil {
		// The layout is fixed at build time; should it fail, the problem
		// details still say what happened.
		s.cfg.Problems.Write(w, r, err)
		return
	}
	privateHeaders(h, "")
	write(w, r, p.Status, body)
}
