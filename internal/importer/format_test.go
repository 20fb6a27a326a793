package importer

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the import format in docs/operating.md")

// docsPath is the page that documents the import format.
const docsPath = "../../docs/operating.md"

// The import format in docs/operating.md is the one Format generates from
// the decoder's rules and the model's enumerations; go test -update
// writes it there.
func TestImportFormatDocumented(t *testing.T) {
	doc, err := os.ReadFile(docsPath)
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "<!-- import format: generated", "<!-- /import format -->"
	s := string(doc)
	i := strings.Index(s, begin)
	j := strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatalf("%s has no section between %q and %q", docsPath, begin, end)
	}
	i += strings.Index(s[i:], "\n") + 1
	want := Format()
	if got := s[i:j]; got != want {
		if *update {
			if err := os.WriteFile(docsPath, []byte(s[:i]+want+s[j:]), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("the import format in %s differs from Format(); go test -update ./internal/importer/ rewrites it", docsPath)
	}
	for _, key := range []string{"`status`", "`market_only`", "`published_at_precision`", "`zimbabwe`", "`physical_ai`", "`tech_forum`", "`fr`"} {
		if !strings.Contains(want, key) {
			t.Errorf("the import format does not name %s", key)
		}
	}
}
