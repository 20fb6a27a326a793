// Package golden pins a test's output to a file under testdata: a test
// compares what it got with the file, and `go test -update` rewrites the file
// instead, so a change to a wire format shows as a diff in review.
package golden

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files instead of comparing with them")

// Text compares got with the golden file at path; with -update it writes got
// to path instead. A mismatch reports the lines that differ (-want +got).
func Text(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if diff := Diff(want, got); diff != "" {
		t.Errorf("%s differs (-want +got; go test -update rewrites it):\n%s", path, diff)
	}
}

// JSON is Text for a JSON document: got is indented by two spaces and ends
// with a newline, so that the golden file diffs line by line.
func JSON(t testing.TB, path string, got []byte) {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Indent(&buf, got, "", "  "); err != nil {
		t.Fatalf("%s: not JSON: %v\n%.1000s", path, err, got)
	}
	buf.WriteByte('\n')
	Text(t, path, buf.Bytes())
}

// maxDiffLines caps a reported diff: a document changed throughout (say, its
// line endings) is better read with -update and git diff than in a test log.
const maxDiffLines = 100

// Diff returns the lines that differ between want and got, with two lines of
// context (-want +got), or "" if they are equal. Runs of equal lines are
// elided, so a one-line change in a 70 KB document stays a few lines long;
// a diff longer than maxDiffLines is cut.
func Diff(want, got []byte) string {
	if bytes.Equal(want, got) {
		return ""
	}
	// Lines, not one string: cmp would diff a string by bytes when the
	// change is small, which reads badly in a long JSON document.
	diff := cmp.Diff(strings.Split(string(want), "\n"), strings.Split(string(got), "\n"))
	lines := strings.SplitAfter(diff, "\n")
	if len(lines) <= maxDiffLines {
		return strings.Join(lines, "")
	}
	return fmt.Sprintf("%s... (%d more lines)\n", strings.Join(lines[:maxDiffLines], ""), len(lines)-maxDiffLines)
}
