package account

import (
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strings"
	"time"

	"signals/internal/auth"
	"signals/internal/failure"
	signalsmail "signals/internal/mail"
	"signals/internal/problem"
	"signals/internal/session"
	"signals/internal/store"
	"signals/internal/throttle"
)

// LinkLifetime is how long a sign-in link works.
const LinkLifetime = 15 * time.Minute

// The three limits on link requests. Per client address, one machine
// cannot mail many addresses. Per client address and email, a person can
// ask for a few links in a row, and a stranger's requests never count
// against the owner's. Per email, whoever asks and from however many
// addresses, the mail one inbox receives is bounded, and more links are
// allowed than one client may ask for. Both limits on an email count in
// windows of a link's lifetime, so whenever one refuses, the links that
// used it up were mailed to the owner in the last 15 minutes and still
// work: the owner signs in with any of them (a stranger who caused them
// gains nothing, as they went to the owner's inbox), and the next window
// mails again. Limits keyed on the account alone are how a lockout
// becomes a denial of service; keying them on the pair of account and
// client, as OWASP advises for login throttling, and keeping the
// account's own bound no longer than a link lives, make it none.
// The counts are rows in the store, so every replica shares them.
var (
	perAddress      = throttle.Limit{Scope: "address", Max: 30, Window: time.Hour}
	perAddressEmail = throttle.Limit{Scope: "address+email/link lifetime", Max: 3, Window: LinkLifetime}
	perEmail        = throttle.Limit{Scope: "email/link lifetime", Max: 8, Window: LinkLifetime}
)

// SignInForm serves GET /sign-in.
func (p *Pages) SignInForm(w http.ResponseWriter, r *http.Request) {
	next := session.LocalPath(r.URL.Query().Get("next"))
	p.render(w, r, http.StatusOK, "sign-in", view{Title: "Sign in",
		Next: next, App: p.appAsking(r, next), Notice: notices[r.URL.Query().Get("notice")]})
}

// appAsking names the app whose authorization request next is, if any.
func (p *Pages) appAsking(r *http.Request, next string) string {
	if next == "" || p.cfg.Connections == nil {
		return ""
	}
	return p.cfg.Connections.AppAsking(r.Context(), next)
}

// RequestLink serves POST /sign-in: whether or not an account has the
// email, the answer is the same page and a link is mailed (the first
// confirmed sign-in creates the account).
func (p *Pages) RequestLink(w http.ResponseWriter, r *http.Request) {
	typed := strings.TrimSpace(r.PostFormValue("email"))
	next := session.LocalPath(r.PostFormValue("next"))
	email, refused := normalEmail(typed)
	if refused != nil {
		p.render(w, r, problem.Status(refused.Code), "sign-in", view{Title: "Sign in", FormEmail: visible(typed), Next: next,
			App: p.appAsking(r, next), FormError: refused})
		return
	}
	now := p.now()
	client := throttle.ClientAddress(r)
	limit := perAddress
	err := limit.Take(r.Context(), p.cfg.Store, client, now)
	if err == nil {
		limit = perAddressEmail
		err = limit.Take(r.Context(), p.cfg.Store, client+"\x00"+email, now)
	}
	if err == nil {
		limit = perEmail
		err = limit.Take(r.Context(), p.cfg.Store, email, now)
	}
	if refused, ok := errors.AsType[*throttle.Refused](err); ok {
		wait := refused.RetryAfter(now)
		detail := fmt.Sprintf("Too many sign-in links were asked for from here. Use the latest link you received, or try again after %s UTC (about %d minutes).",
			refused.RetryAt.UTC().Format("15:04"), (wait+59)/60)
		if limit != perAddress {
			detail = fmt.Sprintf("Several sign-in links were sent to this address in the last %d minutes, and each still works: use the latest one in that inbox, or ask again after %s UTC (about %d minutes).",
				int(LinkLifetime/time.Minute), refused.RetryAt.UTC().Format("15:04"), (wait+59)/60)
		}
		p.fail(w, r, "Too many sign-in links", failure.New(failure.CodeSignInLimitReached, detail).WithRetryAfter(wait))
		return
	}
	if err != nil {
		p.internal(w, r, err)
		return
	}
	token, hash := session.NewToken()
	link := store.SignInLink{Hash: hash, Email: email, Next: next, ExpiresAt: now.Add(LinkLifetime)}
	if err := p.cfg.Store.PutSignInLink(r.Context(), link); err != nil {
		p.internal(w, r, err)
		return
	}
	if err := p.cfg.Mail.Send(r.Context(), p.signInMail(email, token)); err != nil {
		p.cfg.Log.Error("sign-in mail not sent", "request_id", r.Header.Get(problem.RequestIDHeader), "err", err)
		p.fail(w, r, "The email could not be sent", failure.New(failure.CodeServiceUnavailable,
			"The sign-in link could not be sent just now. Try again in a few minutes."))
		return
	}
	p.render(w, r, http.StatusOK, "check-email", view{Title: "Check your email", FormEmail: email})
}

// ConfirmPath is the path of the link in sign-in mail.
const ConfirmPath = "/sign-in/confirm"

func (p *Pages) signInMail(email, token string) signalsmail.Message {
	link := p.base + ConfirmPath + "?" + url.Values{"token": {token}}.Encode()
	text := "Someone, hopefully you, asked to sign in to Signals as " + email + ".\n\n"
	if sp := spelled(email); sp != "" {
		text += "The address has characters beyond plain ASCII; written out it is " + sp + ".\n\n"
	}
	text +=
		"Open this link within 15 minutes to sign in (it works once):\n\n" +
			link + "\n\n" +
			"If you did not ask for it, ignore this message: nothing happens without the link.\n"
	var html strings.Builder
	signInMailHTML.Execute(&html, map[string]string{"Email": email, "Spelled": spelled(email), "Link": link})
	return signalsmail.Message{To: email, Subject: "Sign in to Signals", Text: text, HTML: html.String()}
}

// invalid is a refused form field: an invalid_parameter failure whose
// detail speaks to the person who filled in the form.
func invalid(param, detail string) *failure.Error {
	e := failure.Malformed(param, detail)
	e.Detail = detail
	return e
}

var signInMailHTML = template.Must(template.New("mail").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in to Signals</title></head>
<body style="font-family:system-ui,sans-serif;line-height:1.5">
<p>Someone, hopefully you, asked to sign in to Signals as {{.Email}}.</p>
{{with .Spelled}}<p>The address has characters beyond plain ASCII; written out it is <code>{{.}}</code>.</p>
{{end -}}
<p><a href="{{.Link}}">Sign in to Signals</a> within 15 minutes; the link works once.</p>
<p>If you did not ask for it, ignore this message: nothing happens without the link.</p>
</body></html>
`))

// ConfirmForm serves GET /sign-in/confirm: a page with one button, so that
// mail scanners that fetch the link do not use it up. It names the
// address the link signs in as, written out when it is not ASCII, so that
// a look-alike of another address shows before it becomes an account.
func (p *Pages) ConfirmForm(w http.ResponseWriter, r *http.Request) {
	token := r.URL.Query().Get("token")
	if !session.WellFormed(token) {
		p.badLink(w, r)
		return
	}
	v := view{Title: "Sign in", Token: token}
	// A link that is known names its address; one that cannot be read
	// just now shows the form without it, and the POST decides.
	link, err := p.cfg.Store.SignInLink(r.Context(), auth.Hash(token), p.now())
	if errors.Is(err, store.ErrNotFound) {
		// Used, expired or never sent: pressing a button would not help.
		p.badLink(w, r)
		return
	}
	if err == nil {
		v.FormEmail = link.Email
	} else {
		p.cfg.Log.Warn("sign-in link not read", "request_id", r.Header.Get(problem.RequestIDHeader), "err", err)
	}
	p.render(w, r, http.StatusOK, "confirm", v)
}

// tokenForm answers the GET of a link that carries a token with a page
// whose one form posts it; fetching the link changes nothing.
func (p *Pages) tokenForm(w http.ResponseWriter, r *http.Request, page, title string, bad http.HandlerFunc) {
	token := r.URL.Query().Get("token")
	if !session.WellFormed(token) {
		bad(w, r)
		return
	}
	p.render(w, r, http.StatusOK, page, view{Title: title, Token: token})
}

// badLink answers a sign-in link that does not work (used, expired, cut
// short, or never sent) with a page that says so and leads to asking for a
// new one. Its status is that of an invalid token parameter.
func (p *Pages) badLink(w http.ResponseWriter, r *http.Request) {
	p.render(w, r, problem.Status(failure.CodeInvalidParameter), "link-gone",
		view{Title: "This sign-in link was used or has expired"})
}

// Confirm serves POST /sign-in/confirm: the link is used up, the account
// created on its first sign-in, and the session started.
func (p *Pages) Confirm(w http.ResponseWriter, r *http.Request) {
	token := r.PostFormValue("token")
	if !session.WellFormed(token) {
		p.badLink(w, r)
		return
	}
	hash := auth.Hash(token)
	now := p.now()
	link, err := p.cfg.Store.TakeSignInLink(r.Context(), hash, now)
	if errors.Is(err, store.ErrNotFound) || (err == nil && !auth.Equal(link.Hash, hash)) {
		p.badLink(w, r)
		return
	}
	if err != nil {
		p.internal(w, r, err)
		return
	}
	acct, err := p.cfg.Store.AccountByEmail(r.Context(), link.Email)
	if errors.Is(err, store.ErrNotFound) {
		acct, err = p.cfg.Store.CreateAccount(r.Context(), link.Email, now)
		if errors.Is(err, store.ErrExists) { // created by a link confirmed at the same moment
			acct, err = p.cfg.Store.AccountByEmail(r.Context(), link.Email)
		}
	}
	if err != nil {
		p.internal(w, r, err)
		return
	}
	if err := p.cfg.Sessions.Start(w, r, acct.ID); err != nil {
		p.internal(w, r, err)
		return
	}
	next := session.LocalPath(link.Next)
	if next == "" {
		next = "/account?notice=signed-in"
	}
	private(w)
	http.Redirect(w, r, next, http.StatusSeeOther)
}

// SignOut serves POST /sign-out: the session ends on the server too. An
// optional next (a local path) is kept for the sign-in page, so that
// someone who switches account on the consent page comes back to it.
func (p *Pages) SignOut(w http.ResponseWriter, r *http.Request) {
	if err := p.cfg.Sessions.End(w, r); err != nil {
		p.internal(w, r, err)
		return
	}
	target := session.SignInPath + "?notice=signed-out"
	if next := session.LocalPath(r.PostFormValue("next")); next != "" {
		target += "&next=" + url.QueryEscape(next)
	}
	private(w)
	http.Redirect(w, r, target, http.StatusSeeOther)
}
