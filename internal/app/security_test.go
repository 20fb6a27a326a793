package app_test

import (
	"net/http"
	"signals/internal/app"
	"signals/internal/apptest"
	"strings"
	"testing"
	"time"
)

// security.txt carries the fields RFC 9116 requires and recommends.
func TestSecurityTxt(t *testing.T) {
	t.Parallel()
	ta, _ := apptest.StartAt(t, apptest.Noon)
	resp, body := ta.Get("/.well-known/security.txt", "Authorization", "")
	apptest.WantStatus(t, resp, body, http.StatusOK)
	if got := resp.Header.Get("Content-Type"); got != "text/plain; charset=utf-8" {
		t.Errorf("Content-Type = %q, want text/plain; charset=utf-8 (RFC 9116 §3)", got)
	}
	fields := map[string]string{}
	for line := range strings.Lines(string(body)) {
		name, value, ok := strings.Cut(strings.TrimSpace(line), ": ")
		if !ok {
			t.Fatalf("line %q is not a field", line)
		}
		fields[name] = value
	}
	want := map[string]string{
		// SIGNALS_SECURITY_CONTACT is unset: the mail sender.
		"Contact":             "mailto:no-reply@signals.example",
		"Canonical":           "https://signals.example/.well-known/security.txt",
		"Preferred-Languages": "en",
	}
	for name, value := range want {
		if fields[name] != value {
			t.Errorf("%s: %q, want %q", name, fields[name], value)
		}
	}
	expires, err := time.Parse(time.RFC3339, fields["Expires"])
	if err != nil || !expires.After(apptest.Noon) || !expires.Before(apptest.Noon.AddDate(1, 0, 0)) {
		t.Errorf("Expires %q (%v): want a date after now and less than a year ahead", fields["Expires"], err)
	}
	apptest.GoldenText(t, "security.txt", body)
}

// The security contact is a URI: as set when it is one, an email address
// as mailto:, the mail sender when unset; anything else stops the service.
func TestSecurityContact(t *testing.T) {
	t.Parallel()
	const from = "Signals <no-reply@signals.example>"
	for _, tc := range []struct {
		setting, want string
		ok            bool
	}{
		{"", "mailto:no-reply@signals.example", true},
		{"security@example.org", "mailto:security@example.org", true},
		{"Security Team <security@example.org>", "mailto:security@example.org", true},
		{"mailto:security@example.org", "mailto:security@example.org", true},
		{"https://example.org/security", "https://example.org/security", true},
		{"tel:+33100000000", "tel:+33100000000", true},
		{"http://example.org/security", "", false},
		{"nobody", "", false},
		{"https://", "", false},
	} {
		got, err := app.SecurityContact(tc.setting, from)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("app.SecurityContact(%q) = %q, %v; want %q (ok %v)", tc.setting, got, err, tc.want, tc.ok)
		}
	}
}
