package mail_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	signalsmail "signals/internal/mail"
	"signals/internal/mail/smtptest"
)

var sentAt = time.Date(2026, 10, 1, 7, 30, 0, 0, time.UTC)

func fixedClock() time.Time { return sentAt }

const link = "https://signals.example/sign-in/confirm?token=AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde"

func signInMessage() signalsmail.Message {
	return signalsmail.Message{
		To:      "ada@example.com",
		Subject: "Sign in to Signals",
		Text:    "Open this link to sign in:\n\n" + link + "\n",
		HTML:    `<p><a href="` + link + `">Sign in</a></p>`,
	}
}

// newMailer returns a mailer whose log goes to the returned buffer.
func newMailer(t *testing.T, cfg signalsmail.Config) (*signalsmail.Mailer, *bytes.Buffer) {
	t.Helper()
	var log bytes.Buffer
	if cfg.From == "" {
		cfg.From = "Signals <signals@signals.example>"
	}
	m, err := signalsmail.New(cfg, slog.New(slog.NewTextHandler(&log, nil)), fixedClock)
	if err != nil {
		t.Fatal(err)
	}
	return m, &log
}

// TestSMTPDelivers sends over a real SMTP connection, upgraded with STARTTLS
// or TLS from the start, authenticated, and reads the link from what the
// server received.
func TestSMTPDelivers(t *testing.T) {
	for _, tt := range []struct {
		name string
		mode smtptest.Mode
	}{
		{"starttls", smtptest.STARTTLS},
		{"implicit tls", smtptest.ImplicitTLS},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := smtptest.StartMode(t, tt.mode)
			m, log := newMailer(t, signalsmail.Config{SMTPURL: srv.URL, TLS: srv.ClientTLS})
			if err := m.Send(context.Background(), signInMessage()); err != nil {
				t.Fatal(err)
			}
			msg, got := srv.Last(t)
			if !got.TLS {
				t.Error("the message travelled unencrypted")
			}
			if got.From != "signals@signals.example" || len(got.To) != 1 || got.To[0] != "ada@example.com" {
				t.Errorf("envelope from %q to %v", got.From, got.To)
			}
			checkMessage(t, msg)
			if strings.Contains(log.String(), "token") || strings.Contains(log.String(), smtptest.Password) {
				t.Errorf("the log shows a secret:\n%s", log)
			}
		})
	}
}

// checkMessage checks the headers and both parts of the sign-in message,
// and that the link reads as it is in the raw text part.
func checkMessage(t *testing.T, msg *mail.Message) {
	t.Helper()
	h := msg.Header
	if d, err := h.Date(); err != nil || !d.Equal(sentAt) {
		t.Errorf("Date = %q (%v), want %v", h.Get("Date"), err, sentAt)
	}
	if from := h.Get("From"); !strings.Contains(from, "<signals@signals.example>") {
		t.Errorf("From = %q", from)
	}
	if id := h.Get("Message-Id"); !regexp.MustCompile(`^<[0-9a-f]{32}@signals\.example>$`).MatchString(id) {
		t.Errorf("Message-ID = %q", id)
	}
	if h.Get("Subject") != "Sign in to Signals" || h.Get("To") != "<ada@example.com>" {
		t.Errorf("Subject %q, To %q", h.Get("Subject"), h.Get("To"))
	}
	if h.Get("List-Unsubscribe") != "" {
		t.Error("a sign-in message carries List-Unsubscribe")
	}
	parts := readParts(t, msg)
	if !strings.Contains(parts["text/plain"], "\n"+link+"\n") && !strings.Contains(parts["text/plain"], "\r\n"+link+"\r\n") {
		t.Errorf("text part does not hold the link on a line of its own:\n%q", parts["text/plain"])
	}
	if !strings.Contains(parts["text/html"], `href="`+link+`"`) {
		t.Errorf("HTML part does not link:\n%s", parts["text/html"])
	}
}

// readParts returns the raw body of each part of a multipart/alternative
// message by media type, with its transfer encoding checked.
func readParts(t *testing.T, msg *mail.Message) map[string]string {
	t.Helper()
	mt, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/alternative" {
		t.Fatalf("Content-Type = %q (%v), want multipart/alternative", msg.Header.Get("Content-Type"), err)
	}
	out := map[string]string{}
	mr := multipart.NewReader(msg.Body, params["boundary"])
	for {
		p, err := mr.NextRawPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(p)
		if err != nil {
			t.Fatal(err)
		}
		pt, _, _ := mime.ParseMediaType(p.Header.Get("Content-Type"))
		if enc := p.Header.Get("Content-Transfer-Encoding"); enc != "8bit" {
			t.Errorf("%s part is %q, want it unencoded (8bit) for ASCII text", pt, enc)
		}
		out[pt] = string(b)
	}
	return out
}

func TestSMTPRefusals(t *testing.T) {
	t.Run("no STARTTLS offered", func(t *testing.T) {
		srv := smtptest.StartMode(t, smtptest.NoTLS)
		m, _ := newMailer(t, signalsmail.Config{SMTPURL: srv.URL, TLS: srv.ClientTLS})
		if err := m.Send(context.Background(), signInMessage()); err == nil {
			t.Fatal("sent over a server that offers no TLS")
		}
		if n := len(srv.Messages()); n != 0 {
			t.Errorf("server received %d messages", n)
		}
	})
	t.Run("wrong password", func(t *testing.T) {
		srv := smtptest.Start(t)
		bad := strings.Replace(srv.URL, "s3cret", "wrong", 1)
		m, log := newMailer(t, signalsmail.Config{SMTPURL: bad, TLS: srv.ClientTLS})
		err := m.Send(context.Background(), signInMessage())
		if err == nil {
			t.Fatal("sent with a wrong password")
		}
		if strings.Contains(err.Error(), "wrong") || strings.Contains(log.String(), "wrong") {
			t.Errorf("the password shows in %q or the log", err)
		}
	})
	t.Run("untrusted certificate", func(t *testing.T) {
		srv := smtptest.Start(t)
		m, _ := newMailer(t, signalsmail.Config{SMTPURL: srv.URL})
		if err := m.Send(context.Background(), signInMessage()); err == nil {
			t.Fatal("sent to a server whose certificate nobody trusts")
		}
	})
}

func TestConfigErrors(t *testing.T) {
	for _, tt := range []struct {
		name string
		cfg  signalsmail.Config
		want string
	}{
		{"no sender", signalsmail.Config{Outbox: "x"}, "SIGNALS_MAIL_FROM"},
		{"bad sender", signalsmail.Config{From: "not an address", Outbox: "x"}, "SIGNALS_MAIL_FROM"},
		{"nowhere to send", signalsmail.Config{From: "a@b.example"}, "SIGNALS_OUTBOX"},
		{"other scheme", signalsmail.Config{From: "a@b.example", SMTPURL: "http://u:pw@host"}, "smtp://"},
		{"no host", signalsmail.Config{From: "a@b.example", SMTPURL: "smtp://u:pw@"}, "no host"},
		{"bad port", signalsmail.Config{From: "a@b.example", SMTPURL: "smtp://u:pw@host:99999"}, "port"},
		{"not a URL", signalsmail.Config{From: "a@b.example", SMTPURL: "smtp://u:pw@host:%zz"}, "not a URL"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := signalsmail.New(tt.cfg, slog.New(slog.DiscardHandler), fixedClock)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one that mentions %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "pw") {
				t.Errorf("error shows the password: %v", err)
			}
		})
	}
}

// TestOutbox checks that each message becomes one private, complete
// <unix-nanoseconds>.eml file, and that the log names the file but not the
// link.
func TestOutbox(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "outbox")
	m, log := newMailer(t, signalsmail.Config{Outbox: dir})
	if !strings.HasSuffix(m.Where, dir) {
		t.Errorf("Where = %q", m.Where)
	}
	for range 3 {
		if err := m.Send(context.Background(), signInMessage()); err != nil {
			t.Fatal(err)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 3 {
		t.Fatalf("outbox holds %d entries, want 3", len(entries))
	}
	for _, e := range entries {
		if !regexp.MustCompile(`^[0-9]{19}\.eml$`).MatchString(e.Name()) {
			t.Errorf("file name %q is not <unix-nanoseconds>.eml", e.Name())
		}
		info, _ := e.Info()
		if info.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %v, want 0600", e.Name(), info.Mode().Perm())
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		msg, err := mail.ReadMessage(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		checkMessage(t, msg)
		if !strings.Contains(log.String(), e.Name()) {
			t.Errorf("the log does not name %s:\n%s", e.Name(), log)
		}
	}
	if strings.Contains(log.String(), "token") {
		t.Errorf("the log shows the link:\n%s", log)
	}
	if info, err := os.Stat(dir); err != nil || info.Mode().Perm() != 0o700 {
		t.Errorf("outbox mode %v (%v), want 0700", info.Mode().Perm(), err)
	}
}

func TestUnsubscribeHeaders(t *testing.T) {
	for _, tt := range []struct {
		name, url, wantList, wantPost string
	}{
		{"https is one-click", "https://signals.example/unsubscribe?token=T", "<https://signals.example/unsubscribe?token=T>", "List-Unsubscribe=One-Click"},
		{"http is only a link", "http://localhost:8080/unsubscribe?token=T", "<http://localhost:8080/unsubscribe?token=T>", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			msg := signInMessage()
			msg.Unsubscribe = tt.url
			parsed, _ := sendToOutbox(t, msg)
			if got := parsed.Header.Get("List-Unsubscribe"); got != tt.wantList {
				t.Errorf("List-Unsubscribe = %q, want %q", got, tt.wantList)
			}
			if got := parsed.Header.Get("List-Unsubscribe-Post"); got != tt.wantPost {
				t.Errorf("List-Unsubscribe-Post = %q, want %q", got, tt.wantPost)
			}
		})
	}
}

// Every message says it was sent automatically (RFC 3834); a list's
// message names its list (RFC 2919) beside its unsubscription headers.
func TestAutomaticAndListHeaders(t *testing.T) {
	parsed, _ := sendToOutbox(t, signInMessage())
	if got := parsed.Header.Get("Auto-Submitted"); got != "auto-generated" {
		t.Errorf("sign-in mail: Auto-Submitted = %q, want auto-generated", got)
	}
	if got := parsed.Header.Get("List-Id"); got != "" {
		t.Errorf("sign-in mail: List-Id = %q, want none", got)
	}

	msg := signInMessage()
	msg.Unsubscribe = "https://signals.example/unsubscribe?token=T"
	msg.ListID = "Signals digest <digest.signals.example>"
	parsed, _ = sendToOutbox(t, msg)
	for name, want := range map[string]string{
		"Auto-Submitted":        "auto-generated",
		"List-Id":               msg.ListID,
		"List-Unsubscribe":      "<" + msg.Unsubscribe + ">",
		"List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
	} {
		if got := parsed.Header.Get(name); got != want {
			t.Errorf("digest: %s = %q, want %q", name, got, want)
		}
	}
}

// TestNonASCIIIsEncoded checks that text an unencoded part cannot carry is
// quoted-printable, in short lines, and decodes back to itself.
func TestNonASCIIIsEncoded(t *testing.T) {
	msg := signInMessage()
	msg.Text = "Levée de fonds à Montréal — " + strings.Repeat("x", 1200)
	msg.HTML = ""
	parsed, raw := sendToOutbox(t, msg)
	if enc := parsed.Header.Get("Content-Transfer-Encoding"); enc != "quoted-printable" {
		t.Fatalf("Content-Transfer-Encoding = %q", enc)
	}
	for _, line := range strings.Split(string(raw), "\r\n") {
		if len(line) > 998 {
			t.Fatalf("a line of %d bytes", len(line))
		}
	}
	decoded, err := io.ReadAll(quotedprintable.NewReader(parsed.Body))
	if err != nil || string(decoded) != msg.Text {
		t.Errorf("decoded text %q (%v), want %q", decoded, err, msg.Text)
	}
}

// sendToOutbox sends msg to a fresh outbox and returns the one file it
// wrote, parsed and raw.
func sendToOutbox(t *testing.T, msg signalsmail.Message) (*mail.Message, []byte) {
	t.Helper()
	dir := t.TempDir()
	m, _ := newMailer(t, signalsmail.Config{Outbox: dir})
	if err := m.Send(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.eml"))
	if len(files) != 1 {
		t.Fatalf("%d files in the outbox, want 1", len(files))
	}
	raw, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	return parsed, raw
}

// smtp+plain:// sends in the clear to a relay on this machine; to another
// host it is refused unless the operator opts in.
func TestPlainRelay(t *testing.T) {
	srv := smtptest.StartMode(t, smtptest.NoTLS)
	m, _ := newMailer(t, signalsmail.Config{SMTPURL: "smtp+plain://" + srv.Addr})
	if err := m.Send(context.Background(), signInMessage()); err != nil {
		t.Fatal(err)
	}
	if _, r := srv.Last(t); r.TLS {
		t.Error("a plain relay got TLS")
	}
	for _, host := range []string{"mail.example.com", "192.0.2.1", "[2001:db8::1]"} {
		err := signalsmail.Config{SMTPURL: "smtp+plain://" + host + ":25", From: "a@b.c"}.Check()
		if err == nil || !strings.Contains(err.Error(), "SIGNALS_SMTP_ALLOW_PLAIN=true") {
			t.Errorf("smtp+plain:// to %s: %v", host, err)
		}
		if err := (signalsmail.Config{SMTPURL: "smtp+plain://" + host + ":25", From: "a@b.c", AllowPlain: true}).Check(); err != nil {
			t.Errorf("smtp+plain:// to %s with the opt-in: %v", host, err)
		}
	}
	for _, host := range []string{"localhost", "127.0.0.1", "127.0.0.53", "[::1]"} {
		if err := (signalsmail.Config{SMTPURL: "smtp+plain://" + host, From: "a@b.c"}).Check(); err != nil {
			t.Errorf("smtp+plain:// to %s: %v", host, err)
		}
	}
}

// SendTest reports the SMTP conversation, the server's replies included,
// and never the password; CheckServer connects without sending.
func TestSendTestAndCheck(t *testing.T) {
	for _, mode := range []smtptest.Mode{smtptest.STARTTLS, smtptest.ImplicitTLS} {
		srv := smtptest.StartMode(t, mode)
		m, _ := newMailer(t, signalsmail.Config{SMTPURL: srv.URL, TLS: srv.ClientTLS})
		if err := m.CheckServer(context.Background()); err != nil {
			t.Fatalf("check: %v", err)
		}
		if n := len(srv.Messages()); n != 0 {
			t.Fatalf("the check sent %d messages", n)
		}
		var out strings.Builder
		if err := m.SendTest(context.Background(), "ops@example.org", &out); err != nil {
			t.Fatal(err)
		}
		got := out.String()
		for _, want := range []string{"C: MAIL FROM:<", "S: 250", "C: RCPT TO:<ops@example.org>", "C: DATA", "S: 354",
			"the server accepted the message for ops@example.org"} {
			if !strings.Contains(got, want) {
				t.Errorf("mode %d: the transcript lacks %q:\n%s", mode, want, got)
			}
		}
		if strings.Contains(got, smtptest.Password) || strings.Contains(got, "czNjcmV0") {
			t.Errorf("the transcript shows the password:\n%s", got)
		}
		if msg, _ := srv.Last(t); msg.Header.Get("Subject") != "Signals test message" {
			t.Errorf("subject %q", msg.Header.Get("Subject"))
		}
	}
	unreachable, _ := newMailer(t, signalsmail.Config{SMTPURL: "smtp://127.0.0.1:1"})
	if err := unreachable.CheckServer(context.Background()); err == nil || !strings.Contains(err.Error(), "127.0.0.1:1") {
		t.Errorf("check of a closed port: %v", err)
	}
}
