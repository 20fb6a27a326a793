package main

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"signals/internal/mail/smtptest"
)

// signals mail test sends one real message through an SMTP server started
// by the test, in each security mode, and prints the server's answers;
// smtp+plain:// to another host is refused without the opt-in. The binary
// trusts the test server's certificate through SSL_CERT_FILE, as an
// operator's machine trusts its mail server's.
func TestMailTest(t *testing.T) {
	run := func(env ...string) (string, string, int) {
		cmd := exec.Command(binary, "mail", "test", "--to", "ops@example.org", "--database", filepath.Join(t.TempDir(), "m.db"))
		cmd.Env = append(os.Environ(), env...)
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		if exit, ok := err.(*exec.ExitError); ok {
			code = exit.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return stdout.String(), stderr.String(), code
	}
	for _, tc := range []struct {
		name string
		mode smtptest.Mode
		url  func(*smtptest.Server) string
		tls  bool
	}{
		{"STARTTLS", smtptest.STARTTLS, func(s *smtptest.Server) string { return s.URL }, true},
		{"implicit TLS", smtptest.ImplicitTLS, func(s *smtptest.Server) string { return s.URL }, true},
		{"plain, to a local relay", smtptest.NoTLS, func(s *smtptest.Server) string { return "smtp+plain://" + s.Addr }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := smtptest.StartMode(t, tc.mode)
			ca := filepath.Join(t.TempDir(), "ca.pem")
			if err := os.WriteFile(ca, srv.CertPEM, 0o644); err != nil {
				t.Fatal(err)
			}
			out, errs, code := run("SIGNALS_SMTP_URL="+tc.url(srv), "SSL_CERT_FILE="+ca)
			if code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, out, errs)
			}
			for _, want := range []string{"connecting to smtp " + srv.Addr, "S: 354", "C: MAIL FROM:<no-reply@localhost>",
				"C: RCPT TO:<ops@example.org>", "S: 250", "the server accepted the message for ops@example.org"} {
				if !strings.Contains(out, want) {
					t.Errorf("the output lacks %q:\n%s", want, out)
				}
			}
			if strings.Contains(out+errs, smtptest.Password) {
				t.Errorf("the password is printed:\n%s%s", out, errs)
			}
			msg, got := srv.Last(t)
			if got.TLS != tc.tls || msg.Header.Get("Subject") != "Signals test message" || got.To[0] != "ops@example.org" {
				t.Errorf("received TLS=%v to %v: %v", got.TLS, got.To, msg.Header)
			}
		})
	}
	t.Run("plain, to another host", func(t *testing.T) {
		out, errs, code := run("SIGNALS_SMTP_URL=smtp+plain://192.0.2.1:25")
		if code != 1 || !strings.Contains(errs, "SIGNALS_SMTP_ALLOW_PLAIN=true") || strings.Contains(out, "connecting") {
			t.Errorf("exit %d\n%s\n%s", code, out, errs)
		}
		// With the opt-in it connects: to this machine's own address
		// that is not loopback, on a closed port, which refuses at once.
		ip := nonLoopback(t)
		if ip == "" {
			t.Skip("this machine has no address but loopback")
		}
		target := net.JoinHostPort(ip, "1")
		_, errs, code = run("SIGNALS_SMTP_URL=smtp+plain://"+target, "SIGNALS_SMTP_ALLOW_PLAIN=true")
		if code != 1 || strings.Contains(errs, "SIGNALS_SMTP_ALLOW_PLAIN") || !strings.Contains(errs, target) {
			t.Errorf("with the opt-in: exit %d\n%s", code, errs)
		}
	})
	t.Run("no SMTP server: the outbox", func(t *testing.T) {
		out, errs, code := run("SIGNALS_SMTP_URL=")
		if code != 0 || !strings.Contains(out, "the message was written to ") || !strings.Contains(out, ".eml") {
			t.Errorf("exit %d\n%s\n%s", code, out, errs)
		}
	})
}

// serve connects to the mail server at start and says in the log whether
// it answers; one that does not is a warning, and serving goes on.
func TestServeChecksMail(t *testing.T) {
	srv := smtptest.Start(t)
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, srv.CertPEM, 0o644); err != nil {
		t.Fatal(err)
	}
	s := startServeEnv(t, filepath.Join(t.TempDir(), "a.db"), []string{"SIGNALS_SMTP_URL=" + srv.URL, "SSL_CERT_FILE=" + ca})
	if line := s.waitLog(t, "the mail server answers"); !strings.Contains(line, "level=INFO") || strings.Contains(line, smtptest.Password) {
		t.Errorf("%s", line)
	}
	if n := len(srv.Messages()); n != 0 {
		t.Errorf("the check sent %d messages", n)
	}

	down := startServeEnv(t, filepath.Join(t.TempDir(), "b.db"), []string{"SIGNALS_SMTP_URL=smtp://u:hunter2@127.0.0.1:1"})
	line := down.waitLog(t, "the mail server does not answer")
	if !strings.Contains(line, "level=WARN") || !strings.Contains(line, "127.0.0.1:1") || !strings.Contains(line, "signals mail test") ||
		strings.Contains(line, "hunter2") {
		t.Errorf("%s", line)
	}
	if resp, _ := call(t, down, "/api/v1/signals"); resp.StatusCode != 401 {
		t.Errorf("serve without a mail server answers %d, want it serving (401 without a key)", resp.StatusCode)
	}
}

// nonLoopback returns an IPv4 address of this machine that is not
// loopback, or "" when it has none.
func nonLoopback(t *testing.T) string {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() && n.IP.To4() != nil {
			return n.IP.String()
		}
	}
	return ""
}
