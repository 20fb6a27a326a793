package app_test

import (
	"context"
	"strings"
	"testing"

	"signals/internal/app"
	"signals/internal/apptest"
)

// A contact address that is not one plain email address stops the service
// before it serves.
func TestContactEmailChecked(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{"editors", "Editors <editors@example.org>", "a@example.org, b@example.org",
		`"a b"@example.org`, "mailto:editors@example.org", "editors@example.org)"} {
		cfg := apptest.Config(t)
		cfg.ContactEmail = bad
		if a, err := app.New(context.Background(), cfg, apptest.Discard()); err == nil {
			a.Close()
			t.Errorf("%q accepted", bad)
		} else if !strings.Contains(err.Error(), "SIGNALS_CONTACT_EMAIL") {
			t.Errorf("%q: %v, want an error naming the setting", bad, err)
		}
	}
}
