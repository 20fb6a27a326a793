package build

import (
	"strings"
	"testing"
)

// A release's link-time values win; without them the build says what the
// toolchain stamped, or that it does not know.
func TestThis(t *testing.T) {
	if got := read("v1.4.0", "0123abc"); got.Version != "v1.4.0" || got.Commit != "0123abc" || !strings.HasPrefix(got.Go, "go") {
		t.Errorf("linked: %+v", got)
	}
	got := read("", "")
	if got.Version == "" || got.Commit == "" || got.Version == "(devel)" {
		t.Errorf("stamped: %+v", got)
	}
	if s := (Info{Version: "v1.4.0", Commit: "0123abc", Go: "go1.26.0"}).String(); s != "signals v1.4.0 (commit 0123abc, go1.26.0)" {
		t.Errorf("String() = %q", s)
	}
}
