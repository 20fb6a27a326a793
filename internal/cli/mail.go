package cli

import (
	"fmt"
	"strconv"
)

// mailFlags binds how the service sends mail (sign-in links and digests)
// and when digests go out.
func (c *command) mailFlags() {
	// The URL holds the SMTP password: read from the environment only, so
	// it never shows in a process list or in -h output.
	c.cfg.Mail.SMTPURL = c.env.Getenv("SIGNALS_SMTP_URL")
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
