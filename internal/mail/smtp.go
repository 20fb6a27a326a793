package mail

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// smtpTransport delivers through one SMTP server, one connection per
// message: the service sends little mail, and a fresh connection never
// finds a stale one.
type smtpTransport struct {
	addr string
	opts []gomail.Option
	host string
}

// newSMTP reads an smtp:// or smtps:// URL. Both require TLS: smtp://
// upgrades with STARTTLS and fails if the server does not offer it.
func newSMTP(raw string, tlsConfig *tls.Config) (*smtpTransport, error) {
	u, err := url.Parse(raw)
	if err != nil {
		// url's error repeats the URL, password included.
		return nil, fmt.Errorf("mail: SIGNALS_SMTP_URL is not a URL")
	}
	opts := []gomail.Option{gomail.WithTimeout(30 * time.Second)}
	var port int
	switch u.Scheme {
	case "smtp":
		port = 587
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
	case "smtps":
		port = 465
		opts = append(opts, gomail.WithSSL())
	default:
		return nil, fmt.Errorf("mail: SIGNALS_SMTP_URL must start with smtp:// (STARTTLS) or smtps:// (TLS), not %q", u.Scheme+"://")
	}
	host := u.Hostname()
	if host == "" {
		return nil, fmt.Errorf("mail: SIGNALS_SMTP_URL names no host")
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

func (s *smtpTransport) deliver(ctx context.Context, m *gomail.Msg) (string, error) {
	c, err := gomail.NewClient(s.host, s.opts...)
	if err != nil {
		return "", err
	}
	if err := c.DialAndSendWithContext(ctx, m); err != nil {
		return "", err
	}
	return "smtp " + s.addr, nil
}
