package reads

import (
	"slices"
	"testing"

	"signals/internal/model"
)

// TestIDsOf checks the forms of an id that get_signal and
// GET /api/v1/signals/{id} take: each is read as the id people meant,
// after the id exactly as given.
func TestIDsOf(t *testing.T) {
	const base = "https://signals.example"
	for _, c := range []struct {
		ref  string
		want []string
	}{
		{"tf-2026-11-0023", []string{"tf-2026-11-0023"}},
		{"  tf-2026-11-0023 \n", []string{"tf-2026-11-0023"}}, // a newline is no id's
		{" tf-2026-11-0023 ", []string{" tf-2026-11-0023 ", "tf-2026-11-0023"}},
		{"https://signals.example/signals/tf-2026-11-0023",
			[]string{"https://signals.example/signals/tf-2026-11-0023", "tf-2026-11-0023"}},
		{"HTTPS://Signals.Example/signals/tf-2026-11-0023?from=%2F%3Ftags%3Dfunding#top",
			[]string{"HTTPS://Signals.Example/signals/tf-2026-11-0023?from=%2F%3Ftags%3Dfunding#top", "tf-2026-11-0023"}},
		{"https://signals.example/signals/tf-2026-11-0023.md",
			[]string{"https://signals.example/signals/tf-2026-11-0023.md", "tf-2026-11-0023.md", "tf-2026-11-0023"}},
		{"/signals/a%2Fb%3Fc%20d", []string{"/signals/a%2Fb%3Fc%20d", "a/b?c d"}},
		// Not this service's pages: only the id as given.
		{"https://elsewhere.example/signals/tf-2026-11-0023", []string{"https://elsewhere.example/signals/tf-2026-11-0023"}},
		{"ftp://signals.example/signals/tf-2026-11-0023", []string{"ftp://signals.example/signals/tf-2026-11-0023"}},
		{"https://signals.example/hubs/funding", []string{"https://signals.example/hubs/funding"}},
		{"https://signals.example/signals/", []string{"https://signals.example/signals/"}},
		{"https://signals.example/signals/%zz", []string{"https://signals.example/signals/%zz"}},
		{"   ", []string{"   "}},
		{"", nil},
	} {
		if got := IDsOf(c.ref, base); !slices.Equal(got, c.want) {
			t.Errorf("IDsOf(%q) = %q, want %q", c.ref, got, c.want)
		}
	}
	// A service under a path has its pages there.
	if got := IDsOf("https://example.org/app/signals/x", "https://example.org/app"); !slices.Equal(got, []string{"https://example.org/app/signals/x", "x"}) {
		t.Errorf("under a path: got %q", got)
	}
}

// FuzzIDsOf checks that any reference gives ids a signal could have, the
// reference itself first when it could be one.
func FuzzIDsOf(f *testing.F) {
	for _, s := range []string{"tf-1", " tf-1 ", "https://signals.example/signals/a%2Fb.md?x#y", "/signals/%zz", "//signals.example/signals/x", "http://[::1/signals/x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, ref string) {
		ids := IDsOf(ref, "https://signals.example")
		for i, id := range ids {
			if !model.PlausibleID(id) || slices.Contains(ids[:i], id) {
				t.Fatalf("IDsOf(%q) = %q", ref, ids)
			}
		}
		if model.PlausibleID(ref) && (len(ids) == 0 || ids[0] != ref) {
			t.Fatalf("IDsOf(%q) = %q, not the reference first", ref, ids)
		}
	})
}
