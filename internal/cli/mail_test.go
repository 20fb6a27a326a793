package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Mail settings are checked before serve binds its port: each case asks
// for a port another listener holds, and is refused for its setting.
func TestMailSettings(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	busy := holdPort(t)
	for _, tt := range []struct {
		name string
		env  map[string]string
		args []string
		code int
		says string
	}{
		{"hour past the day", nil, []string{"serve", "--digest-hour", "24", "--database", db}, 2, "--digest-hour must be an hour from 0 to 23"},
		{"hour that is no number", map[string]string{"SIGNALS_DIGEST_HOUR": "seven"}, []string{"serve", "--database", db}, 2, "$SIGNALS_DIGEST_HOUR"},
		{"PostgreSQL without a way to send mail", nil, []string{"serve", "--database", "postgres://nobody@127.0.0.1:1/none"}, 1, "SIGNALS_OUTBOX"},
		{"unknown SMTP scheme", map[string]string{"SIGNALS_SMTP_URL": "http://u:hunter2@mail.example"}, []string{"serve", "--database", db}, 1, "smtp://"},
		{"bad sender", map[string]string{"SIGNALS_MAIL_FROM": "nobody"}, []string{"serve", "--database", db}, 1, "SIGNALS_MAIL_FROM"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, errs, code := runCLI(t, tt.env, "", append(tt.args, "--addr", busy)...)
			if code != tt.code || !strings.Contains(errs, tt.says) || strings.Contains(errs, "address already in use") {
				t.Errorf("exit %d, want %d; stderr:\n%s\nwant it to say %q", code, tt.code, errs, tt.says)
			}
			if strings.Contains(errs, "hunter2") {
				t.Errorf("the SMTP password is on stderr:\n%s", errs)
			}
		})
	}
	if _, err := os.Stat(db); err == nil {
		t.Error("a refused configuration created the database")
	}
}

// TestSMTPPasswordStaysOutOfHelp: the SMTP URL is read from the
// environment only, so -h never prints it as a default.
func TestSMTPPasswordStaysOutOfHelp(t *testing.T) {
	_, errs, code := runCLI(t, map[string]string{"SIGNALS_SMTP_URL": "smtp://u:hunter2@mail.example:587"}, "", "serve", "-h")
	if code != 0 || strings.Contains(errs, "hunter2") || !strings.Contains(errs, "-digest-hour") || !strings.Contains(errs, "SIGNALS_OUTBOX") {
		t.Errorf("exit %d; help:\n%s", code, errs)
	}
}
