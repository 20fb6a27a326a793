package mail

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"
	gomaillog "github.com/wneessen/go-mail/log"
)

// smtpTransport delivers through one SMTP server, one connection per
// message: the service sends little mail, and a fresh connection never
// finds a stale one.
type smtpTransport struct {
	addr string
	opts []gomail.Option
	host string
}

// Schemes of SIGNALS_SMTP_URL: how mail is protected on its way to the
// server.
const (
	// SchemeSTARTTLS upgrades a plain connection and fails when the server
	// offers no STARTTLS (port 587 by default).
	SchemeSTARTTLS = "smtp"
	// SchemeTLS speaks TLS from the first byte (port 465 by default).
	SchemeTLS = "smtps"
	// SchemePlain sends without TLS (port 25 by default): only to a relay
	// on the same machine (a loopback address or localhost), unless
	// Config.AllowPlain says the network between is trusted.
	SchemePlain = "smtp+plain"
)

// newSMTP reads an smtp://, smtps:// or smtp+plain:// URL. The first two
// require TLS: smtp:// upgrades with STARTTLS and fails if the server does
// not offer it. smtp+plain:// sends in the clear, to a loopback relay only
// unless allowPlain.
func newSMTP(raw string, tlsConfig *tls.Config, allowPlain bool) (*smtpTransport, error) {
	u, err := url.Parse(raw)
	if err != nil {
		// url's error repeats the URL, password included.
		return nil, fmt.Errorf("mail: SIGNALS_SMTP_URL is not a URL")
	}
	opts := []gomail.Option{gomail.WithTimeout(30 * time.Second)}
	var port int
	switch u.Scheme {
	case SchemeSTARTTLS:
		port = 587
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
	case SchemeTLS:
		port = 465
		opts = append(opts, gomail.WithSSL())
	case SchemePlain:
		port = 25
		opts = append(opts, gomail.WithTLSPolicy(gomail.NoTLS))
	default:
		return nil, fmt.Errorf("mail: SIGNALS_SMTP_URL must start with smtp:// (STARTTLS required), smtps:// (TLS) "+
			"or smtp+plain:// (no TLS, to a local relay), not %q", u.Scheme+"://")
	}
	host := u.Hostname()
	if host == "" {
		return nil, fmt.Errorf("mail: SIGNALS_SMTP_URL names no host")
	}
	if u.Scheme == SchemePlain && !allowPlain && !loopback(host) {
		return nil, fmt.Errorf("mail: smtp+plain:// sends mail and any password unencrypted, so it is taken only for a relay "+
			"on this machine (localhost or a loopback address), not %s; use smtp:// (STARTTLS) or smtps://, or set "+
			"SIGNALS_SMTP_ALLOW_PLAIN=true if the network to %s is private", host, host)
	}
	if p := u.Port(); p != "" {
		if port, err = strconv.Atoi(p); err != nil || port < 1 || port > 65535 {
			return nil, fmt.Errorf("mail: SIGNALS_SMTP_URL port %q is not a port", p)
		}
	}
	opts = append(opts, gomail.WithPort(port))
	if u.User != nil {
		pass, _ := u.User.Password()
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover),
			gomail.WithUsername(u.User.Username()), gomail.WithPassword(pass))
	}
	if tlsConfig == nil {
		tlsConfig = &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12}
	}
	opts = append(opts, gomail.WithTLSConfig(tlsConfig))
	return &smtpTransport{addr: net.JoinHostPort(host, strconv.Itoa(port)), opts: opts, host: host}, nil
}

// loopback reports whether host is this machine: localhost or a loopback
// address.
func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func (s *smtpTransport) deliver(ctx context.Context, m *gomail.Msg) (string, error) {
	return s.deliverLogged(ctx, m, nil)
}

// deliverLogged delivers m, writing the SMTP conversation to conv when it
// is not nil.
func (s *smtpTransport) deliverLogged(ctx context.Context, m *gomail.Msg, conv gomaillog.Logger) (string, error) {
	c, err := s.client(conv)
	if err != nil {
		return "", err
	}
	if err := c.DialAndSendWithContext(ctx, m); err != nil {
		return "", err
	}
	return "smtp " + s.addr, nil
}

// client is a client of the server, logging the conversation to conv
// when it is not nil (authentication data is left out).
func (s *smtpTransport) client(conv gomaillog.Logger) (*gomail.Client, error) {
	opts := s.opts
	if conv != nil {
		opts = append(slices.Clone(opts), gomail.WithDebugLog(), gomail.WithLogger(conv))
	}
	return gomail.NewClient(s.host, opts...)
}

// check connects to the server as a delivery would (greeting, EHLO, TLS,
// authentication) and leaves without sending anything.
func (s *smtpTransport) check(ctx context.Context) error {
	c, err := s.client(nil)
	if err != nil {
		return err
	}
	if err := c.DialWithContext(ctx); err != nil {
		return err
	}
	return c.Close()
}
