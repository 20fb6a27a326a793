// Package mail sends the service's mail: sign-in links and digests. It
// delivers over SMTP when SIGNALS_SMTP_URL is set; otherwise it writes each
// message as one RFC 5322 file to an outbox folder, for development and for
// scripts that sign in without a mail server.
package mail

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	netmail "net/mail"
	"net/url"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// Message is one mail to one person, in plain text and HTML.
type Message struct {
	To      string
	Subject string
	Text    string
	HTML    string
	// Unsubscribe is the https URL that unsubscribes with one POST
	// (RFC 8058), or "" for mail that is not a subscription.
	Unsubscribe string
	// ListID identifies the list a subscription's mail belongs to, as
	// RFC 2919 writes it ("Signals digest <digest.signals.example.com>"),
	// so that mail programs can file and filter it; "" for other mail.
	ListID string
}

// Sender sends messages.
type Sender interface {
	Send(ctx context.Context, m Message) error
}

// Config says how mail leaves the service.
type Config struct {
	// SMTPURL is smtp://user:pass@host:587 (STARTTLS required),
	// smtps://user:pass@host:465 (TLS from the start) or
	// smtp+plain://host:25 (no TLS: a relay on this machine, unless
	// AllowPlain); "" writes to Outbox.
	SMTPURL string
	// AllowPlain takes smtp+plain:// to a host that is not this machine
	// (SIGNALS_SMTP_ALLOW_PLAIN=true), for a network the operator trusts.
	AllowPlain bool
	// From is the sender address, e.g. "Signals <signals@example.org>".
	From string
	// Outbox is the folder that receives messages when SMTPURL is "".
	Outbox string
	// TLS, when set, replaces the default TLS settings of SMTP (tests trust
	// their own certificate with it).
	TLS *tls.Config
}

// Mailer builds messages and hands them to SMTP or to the outbox.
type Mailer struct {
	from    *netmail.Address
	domain  string
	deliver func(ctx context.Context, m *gomail.Msg) (where string, err error)
	log     *slog.Logger
	now     func() time.Time
	// Where says where mail goes, without credentials, for the start-up log.
	Where string
	// smtp is the server mail goes to; nil for the outbox.
	smtp *smtpTransport
}

var _ Sender = (*Mailer)(nil)

// Check reports what is wrong with cfg, touching nothing.
func (cfg Config) Check() error {
	_, err := cfg.sender()
	if err == nil && cfg.SMTPURL != "" {
		_, err = newSMTP(cfg.SMTPURL, cfg.TLS, cfg.AllowPlain)
	}
	if err == nil && cfg.SMTPURL == "" && cfg.Outbox == "" {
		err = errors.New("mail: neither SIGNALS_SMTP_URL nor SIGNALS_OUTBOX is set")
	}
	return err
}

func (cfg Config) sender() (*netmail.Address, error) {
	if cfg.From == "" {
		return nil, errors.New("mail: no sender address (SIGNALS_MAIL_FROM)")
	}
	from, err := netmail.ParseAddress(cfg.From)
	if err != nil {
		return nil, fmt.Errorf("mail: SIGNALS_MAIL_FROM %q: %w", cfg.From, err)
	}
	return from, nil
}

// New returns a mailer for cfg; now is the clock that dates messages.
func New(cfg Config, log *slog.Logger, now func() time.Time) (*Mailer, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	from, _ := cfg.sender()
	m := &Mailer{from: from, domain: from.Address[strings.LastIndexByte(from.Address, '@')+1:], log: log, now: now}
	if cfg.SMTPURL != "" {
		s, _ := newSMTP(cfg.SMTPURL, cfg.TLS, cfg.AllowPlain)
		m.deliver, m.Where, m.smtp = s.deliver, "smtp "+s.addr, s
		return m, nil
	}
	o, err := newOutbox(cfg.Outbox)
	if err != nil {
		return nil, err
	}
	m.deliver, m.Where = o.deliver, "outbox "+o.dir
	return m, nil
}

// Send builds m with a Date, a From and a Message-ID and delivers it.
func (s *Mailer) Send(ctx context.Context, m Message) error {
	msg, err := s.build(m)
	if err != nil {
		return err
	}
	where, err := s.deliver(ctx, msg)
	if err != nil {
		return fmt.Errorf("mail: send %q: %w", m.Subject, err)
	}
	// The subject and where the message went, never its body: a sign-in
	// message holds a secret link.
	s.log.Info("mail sent", "subject", m.Subject, "to", where)
	return nil
}

func (s *Mailer) build(m Message) (*gomail.Msg, error) {
	msg := gomail.NewMsg(gomail.WithNoDefaultUserAgent(), gomail.WithCharset(gomail.CharsetUTF8))
	msg.FromMailAddress(s.from)
	if err := msg.To(m.To); err != nil {
		return nil, fmt.Errorf("mail: recipient: %w", err)
	}
	msg.Subject(m.Subject)
	msg.SetDateWithValue(s.now())
	msg.SetMessageIDWithValue(randomID() + "@" + s.domain)
	// Every message is sent by the service, never by a person: vacation
	// responders and other automatic replies must not answer it (RFC 3834).
	msg.SetGenHeader("Auto-Submitted", "auto-generated")
	if m.ListID != "" {
		msg.SetGenHeader("List-Id", m.ListID)
	}
	text, enc := encode(m.Text)
	msg.SetBodyString(gomail.TypeTextPlain, text, gomail.WithPartEncoding(enc))
	if m.HTML != "" {
		html, enc := encode(m.HTML)
		msg.AddAlternativeString(gomail.TypeTextHTML, html, gomail.WithPartEncoding(enc))
	}
	if m.Unsubscribe != "" {
		if u, err := url.Parse(m.Unsubscribe); err == nil && u.Scheme == "https" {
			if err := msg.SetListUnsubscribeOneClick(m.Unsubscribe); err != nil {
				return nil, err
			}
		} else {
			// One-click unsubscription needs https (RFC 8058); a service
			// on plain http can only offer the link.
			msg.SetListUnsubscribe(m.Unsubscribe)
		}
		msg.SetBulk()
	}
	return msg, nil
}

// encode keeps ASCII text whose lines fit RFC 5322's limit as it is, with
// CRLF line ends, so that a link in it reads the same in the raw message;
// anything else is quoted-printable. (go-mail writes unencoded parts only
// under the label "8bit", which ASCII text satisfies too.)
func encode(text string) (string, gomail.Encoding) {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	for line := range strings.SplitSeq(text, "\n") {
		if len(line) > maxLine {
			return text, gomail.EncodingQP
		}
		for i := 0; i < len(line); i++ {
			if c := line[i]; c >= 0x80 || (c < 0x20 && c != '\t') {
				return text, gomail.EncodingQP
			}
		}
	}
	return strings.ReplaceAll(text, "\n", "\r\n"), gomail.NoEncoding
}

const maxLine = 998

func randomID() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}
