package web

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"signals/internal/failure"
)

// The errors page's table is made from failure.Codes; its sections, which
// say what to do about each code, must follow the same list.
func TestErrorsPageFollowsTheCodes(t *testing.T) {
	src, err := sources.ReadFile("pages/errors.md")
	if err != nil {
		t.Fatal(err)
	}
	var sections, want []string
	for _, m := range regexp.MustCompile(`(?m)^## (\S+) \{#(\S+)\}$`).FindAllStringSubmatch(string(src), -1) {
		if m[1] != m[2] {
			t.Errorf("section %s has the anchor #%s", m[1], m[2])
		}
		sections = append(sections, m[1])
	}
	for _, c := range failure.Codes {
		want = append(want, string(c.Code))
	}
	if !slices.Equal(sections, want) {
		t.Errorf("sections of errors.md:\n%v\nwant one per code, in the order of failure.Codes:\n%v", sections, want)
	}
	table := codeTable()
	for _, c := range failure.Codes {
		if !strings.Contains(table, "| [`"+string(c.Code)+"`](#"+string(c.Code)+") |") {
			t.Errorf("the table has no row for %s", c.Code)
		}
	}
}
