package cli

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	netmail "net/mail"
	"strconv"

	"signals/internal/app"
)

// mailFlags binds how the service sends mail (sign-in links and digests)
// and when digests go out.
func (c *command) mailFlags() {
	// The URL holds the SMTP password: read from the environment only, so
	// it never shows in a process list or in -h output.
	c.cfg.Mail.SMTPURL = c.env.Getenv("SIGNALS_SMTP_URL")
	c.boolVar(&c.cfg.Mail.AllowPlain, "smtp-allow-plain", "SIGNALS_SMTP_ALLOW_PLAIN", false,
		"take smtp+plain:// (no TLS) to a mail relay on another machine; without it, only to one on this machine")
	c.stringVar(&c.cfg.Mail.From, "mail-from", "SIGNALS_MAIL_FROM", "",
		`sender of the service's mail, e.g. "Signals <signals@example.org>" (default no-reply@ the base URL's host)`)
	c.stringVar(&c.cfg.Mail.Outbox, "outbox", "SIGNALS_OUTBOX", "",
		"folder that receives each message as <unix-nanoseconds>.eml when $SIGNALS_SMTP_URL is unset "+
			"(default outbox/ beside the SQLite file; required with PostgreSQL)")
	c.fs.IntVar(&c.cfg.Mail.DigestHour, "digest-hour", envValue(c, "SIGNALS_DIGEST_HOUR", 7, strconv.Atoi),
		"UTC hour (0-23) at which email digests are sent ($SIGNALS_DIGEST_HOUR)")
}

// checkMail refuses settings that parse but make no sense.
func (c *command) checkMail() error {
	if h := c.cfg.Mail.DigestHour; h < 0 || h > 23 {
		return fmt.Errorf("%w: --digest-hour must be an hour from 0 to 23, got %d", errUsage, h)
	}
	return nil
}

// mailTest sends one real message through the mail settings serve would
// use and prints the SMTP conversation: what the server answered at each
// step, or where the outbox wrote the message.
func mailTest(ctx context.Context, args []string, env Env) error {
	c := newCommand("mail test", env)
	to := c.fs.String("to", "", "the address that receives the test message")
	c.stringVar(&c.cfg.BaseURL, "base-url", "SIGNALS_BASE_URL", "",
		"public base address of the service, whose host the default sender takes")
	c.mailFlags()
	if _, err := c.parse(args, 0, "no arguments"); err != nil {
		return err
	}
	if err := c.checkMail(); err != nil {
		return err
	}
	if _, err := netmail.ParseAddress(*to); err != nil || *to == "" {
		return fmt.Errorf("%w: --to must be an email address, got %q", errUsage, *to)
	}
	if c.cfg.BaseURL == "" {
		c.cfg.BaseURL = "http://localhost:8080"
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	if err := app.MailTest(ctx, c.cfg, log, *to, env.Stdout); err != nil {
		return err
	}
	return nil
}
