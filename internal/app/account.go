package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	netmail "net/mail"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"signals/internal/account"
	"signals/internal/digest"
	"signals/internal/mail"
	"signals/internal/oauth"
	"signals/internal/session"
)

// sweepEvery is how often expired sign-in links, sessions, throttle
// windows, ended OAuth grants and unused OAuth clients are deleted.
const sweepEvery = 10 * time.Minute

// newAccountArea builds what people's pages need, each part once and
// after what it uses: the sessions, whose failures are the site's pages;
// the guards of forms; the OAuth server, whose consent pages are the
// account area's; the account area, which lists OAuth connections; and
// digests.
func (a *App) newAccountArea() error {
	mc, err := mailSettings(a.cfg)
	if err != nil {
		return err
	}
	mailer, err := mail.New(mc, a.log, a.now)
	if err != nil {
		return err
	}
	a.log.Info("mail", "delivery", mailer.Where)
	a.mailer = mailer
	base, _ := url.Parse(a.cfg.BaseURL)
	a.sessions = &session.Manager{Store: a.store, Now: a.now, Secure: base != nil && base.Scheme == "https",
		Fail: a.sessionFailed}
	if a.forms, err = newForms(a.cfg.BaseURL, a.site.PrivateError); err != nil {
		return err
	}
	a.oauth = oauth.New(oauth.Config{BaseURL: a.cfg.BaseURL, Store: a.store, Throttle: a.store,
		Pages: account.NewConsentPages(a.site), Log: a.log, Now: a.now, Unreachable: a.problems.Unreachable})
	a.account = account.New(account.Config{
		BaseURL: a.cfg.BaseURL, Store: a.usage, Sessions: a.sessions, Mail: a.measuredMail("sign_in", mailer), Layout: a.site,
		Log: a.log, Now: a.now, DigestHour: a.cfg.Mail.DigestHour, Connections: a.oauth,
	})
	a.digests = &digest.Sender{Store: a.store, Mail: a.measuredMail("digest", mailer), Log: a.log, Failed: a.jobFailed, Now: a.now,
		BaseURL: a.cfg.BaseURL, Hour: a.cfg.Mail.DigestHour}
	return nil
}

// mailCheckTimeout bounds the start-up check of the mail server.
const mailCheckTimeout = 30 * time.Second

// checkMail connects to the SMTP server at start, beside serving, and says
// in the log whether it answers: a server that does not is found by the
// operator rather than by the first person who signs in. Serving goes on
// either way; sign-in mail is sent when the server answers.
func (a *App) checkMail(ctx context.Context) {
	if a.mailer == nil || a.mailer.Where == "" || !strings.HasPrefix(a.mailer.Where, "smtp ") {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, mailCheckTimeout)
	defer cancel()
	if err := a.mailer.CheckServer(ctx); err != nil {
		if ctx.Err() != nil && !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return // shutting down
		}
		a.log.Warn("the mail server does not answer: sign-in links and digests cannot be sent until it does; "+
			"check SIGNALS_SMTP_URL, then try it with: signals mail test --to ADDRESS", "err", err)
		return
	}
	a.log.Info("the mail server answers", "delivery", a.mailer.Where)
}

// MailTest sends one test message to to with cfg's mail settings and
// writes how it went to w (mail.Mailer.SendTest).
func MailTest(ctx context.Context, cfg Config, log *slog.Logger, to string, w io.Writer) error {
	mc, err := mailSettings(cfg)
	if err != nil {
		return err
	}
	mailer, err := mail.New(mc, log, time.Now)
	if err != nil {
		return err
	}
	return mailer.SendTest(ctx, to, w)
}

// sessionFailed answers a request whose session could not be read: the
// failure is logged with the request id, which the page gives.
func (a *App) sessionFailed(w http.ResponseWriter, r *http.Request, err error) {
	if r.Context().Err() != nil {
		return // the client left; nobody reads the answer
	}
	a.site.PrivateError(w, r, "Something went wrong", err)
}

// mailSettings checks the mail settings and resolves their defaults.
func mailSettings(cfg Config) (mail.Config, error) {
	c := cfg.Mail
	mc := mail.Config{SMTPURL: c.SMTPURL, AllowPlain: c.AllowPlain, From: c.From, Outbox: c.Outbox, TLS: c.TLS}
	if h := c.DigestHour; h < 0 || h > 23 {
		return mc, fmt.Errorf("the digest hour must be from 0 to 23, got %d", h)
	}
	if mc.From == "" {
		host := "localhost"
		if u, err := url.Parse(cfg.BaseURL); err == nil && u.Hostname() != "" {
			host = u.Hostname()
		}
		mc.From = "Signals <no-reply@" + host + ">"
	}
	if mc.SMTPURL == "" && mc.Outbox == "" {
		if isPostgres(cfg.Database) {
			return mc, fmt.Errorf("with PostgreSQL, set SIGNALS_SMTP_URL to send mail, or SIGNALS_OUTBOX to a folder that receives it")
		}
		mc.Outbox = filepath.Join(filepath.Dir(cfg.Database), "outbox")
	}
	return mc, mc.Check()
}

// securityContact returns the Contact of security.txt (RFC 9116, a URI):
// the setting as it is when it is a mailto:, https: or tel: URI, an email
// address as a mailto: URI, and the mail sender's address when unset.
func securityContact(setting, from string) (string, error) {
	v := strings.TrimSpace(setting)
	if v == "" {
		v = from
	}
	if u, err := url.Parse(v); err == nil && (u.Scheme == "https" && u.Host != "" ||
		(u.Scheme == "mailto" || u.Scheme == "tel") && u.Opaque != "") {
		return v, nil
	}
	addr, err := netmail.ParseAddress(v)
	if err != nil {
		return "", fmt.Errorf("SIGNALS_SECURITY_CONTACT must be a mailto:, https: or tel: URI or an email address, got %q", v)
	}
	return "mailto:" + addr.Address, nil
}

// contactEmail checks the operator's contact address for readers: one
// plain email address, or "" for none.
func contactEmail(setting string) (string, error) {
	v := strings.TrimSpace(setting)
	if v == "" {
		return "", nil
	}
	addr, err := netmail.ParseAddress(v)
	// A plain address: no name, no quoted local part, nothing that a
	// mailto: link or a Markdown link would read as syntax.
	if err != nil || addr.Address != v || strings.ContainsAny(v, " \"()<>[]\\,;:") {
		return "", fmt.Errorf("SIGNALS_CONTACT_EMAIL must be one email address such as editors@example.org, got %q", setting)
	}
	return addr.Address, nil
}

// startAccountWork runs the account area's background work until the
// returned function is called: recording daily usage, sending digests and
// sweeping expired secrets.
func (a *App) startAccountWork(ctx context.Context) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { a.usage.Run(ctx) })
	wg.Go(func() { a.digests.Run(ctx) })
	wg.Go(func() {
		t := time.NewTicker(sweepEvery)
		defer t.Stop()
		for {
			a.sweep(ctx)
			select {
			case <-t.C:
			case <-ctx.Done():
				return
			}
		}
	})
	return func() { cancel(); wg.Wait() }
}

// sweep deletes expired sign-in links, sessions and throttle windows, and
// what OAuth no longer needs; a failure is logged and tried again at the
// next sweep.
func (a *App) sweep(ctx context.Context) {
	for _, job := range []struct {
		op  string
		run func(context.Context) error
	}{
		{jobSessions, func(ctx context.Context) error { return a.store.SweepSessions(ctx, a.now()) }},
		{jobOAuth, a.oauth.Sweep},
	} {
		if err := job.run(ctx); err != nil && ctx.Err() == nil {
			a.jobFailed(job.op, err)
		} else if err == nil {
			a.log.Debug("background job done", "op", job.op)
		}
	}
}
