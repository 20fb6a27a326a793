// Package smtptest runs a real SMTP server for tests: STARTTLS on a
// certificate generated for the test, PLAIN authentication after it, and
// every received message kept for the test to read.
package smtptest

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"net/mail"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Credentials the server accepts.
const (
	User     = "mailer"
	Password = "s3cret pass"
)

// Received is one message as the server got it.
type Received struct {
	From string
	To   []string
	// TLS tells whether the connection was encrypted when DATA came.
	TLS bool
	// Data is the raw RFC 5322 message.
	Data []byte
}

// Server is a running SMTP server.
type Server struct {
	// URL is the smtp:// URL with credentials that reaches the server.
	URL string
	// ClientTLS trusts the server's certificate.
	ClientTLS *tls.Config
	// Addr is the server's host:port, for URLs of other schemes
	// (smtp+plain://).
	Addr string
	// CertPEM is the server's self-signed certificate in PEM, for a
	// process that trusts it through SSL_CERT_FILE.
	CertPEM []byte

	mode     Mode
	mu       sync.Mutex
	messages []Received
}

// Mode is how the server offers TLS.
type Mode int

// Modes of the server.
const (
	// STARTTLS upgrades a plain connection (smtp://, port 587).
	STARTTLS Mode = iota
	// ImplicitTLS speaks TLS from the first byte (smtps://, port 465).
	ImplicitTLS
	// NoTLS offers no encryption at all, and so no authentication: a
	// local relay, which takes mail without it.
	NoTLS
)

// Start starts a server offering STARTTLS on a local port until the test
// ends.
func Start(t testing.TB) *Server { return StartMode(t, STARTTLS) }

// StartMode starts a server that offers TLS as mode says.
func StartMode(t testing.TB, mode Mode) *Server {
	t.Helper()
	cert, pool := certificate(t)
	s := &Server{mode: mode}
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		return &session{server: s, conn: c}, nil
	}))
	srv.Domain = "localhost"
	serverTLS := &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	srv.AllowInsecureAuth = false // AUTH only over TLS
	srv.ReadTimeout, srv.WriteTimeout = 10*time.Second, 10*time.Second
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	scheme := "smtp"
	switch mode {
	case STARTTLS:
		srv.TLSConfig = serverTLS
	case ImplicitTLS:
		ln, scheme = tls.NewListener(ln, serverTLS), "smtps"
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	s.URL = (&url.URL{Scheme: scheme, User: url.UserPassword(User, Password), Host: ln.Addr().String()}).String()
	s.ClientTLS = &tls.Config{RootCAs: pool, ServerName: "localhost", MinVersion: tls.VersionTLS12}
	s.Addr = ln.Addr().String()
	s.CertPEM = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert.Certificate[0]})
	return s
}

// Messages returns what the server has received so far.
func (s *Server) Messages() []Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Received(nil), s.messages...)
}

// Last returns the latest message, parsed; it fails the test when none came.
func (s *Server) Last(t testing.TB) (*mail.Message, Received) {
	t.Helper()
	all := s.Messages()
	if len(all) == 0 {
		t.Fatal("the SMTP server received no message")
	}
	r := all[len(all)-1]
	m, err := mail.ReadMessage(bytes.NewReader(r.Data))
	if err != nil {
		t.Fatalf("received message does not parse: %v\n%s", err, r.Data)
	}
	return m, r
}

type session struct {
	server *Server
	conn   *smtp.Conn
	authed bool
	from   string
	to     []string
}

func (s *session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (s *session) Auth(mech string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(identity, username, password string) error {
		if username != User || password != Password {
			return smtp.ErrAuthFailed
		}
		s.authed = true
		return nil
	}), nil
}

func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	// A server without TLS stands for a relay on the same machine, which
	// takes mail from its own host without authentication.
	if !s.authed && s.server.mode != NoTLS {
		return smtp.ErrAuthRequired
	}
	s.from = from
	return nil
}

func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.to = append(s.to, to)
	return nil
}

func (s *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	_, isTLS := s.conn.TLSConnectionState()
	s.server.mu.Lock()
	s.server.messages = append(s.server.messages, Received{From: s.from, To: s.to, TLS: isTLS, Data: b})
	s.server.mu.Unlock()
	return nil
}

func (s *session) Reset()        { s.from, s.to = "", nil }
func (s *session) Logout() error { return nil }

// certificate makes a self-signed certificate for localhost and a pool
// that trusts it.
func certificate(t testing.TB) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "localhost"},
		DNSNames:     []string{"localhost"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IsCA:         true, BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool
}
