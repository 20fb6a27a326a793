package cli

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestCommandGroupsListTheirCommands(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		code       int
		stdout     []string // what stdout lists; nil: stdout is empty
		stderr     []string
		notListing []string // commands of other groups the listing leaves out
	}{
		{"accounts alone", []string{"accounts"}, 2, nil,
			[]string{"usage: signals accounts <command>", "accounts create --email E", "accounts set-limits --email E", "signals accounts needs a command"},
			[]string{"keys create"}},
		{"keys alone", []string{"keys"}, 2, nil,
			[]string{"keys create --email E", "keys list --email E", "keys rename KEY_ID --email E --name N", "keys revoke KEY_ID", "signals keys needs a command"},
			[]string{"accounts create"}},
		{"signals alone", []string{"signals"}, 2, nil,
			[]string{"signals set-status ID public|hidden|pending", "signals signals needs a command"},
			[]string{"keys create"}},
		{"keys --help", []string{"keys", "--help"}, 0,
			[]string{"usage: signals keys <command>", "keys create", "keys list", "keys revoke"}, nil,
			[]string{"accounts create"}},
		{"accounts -h", []string{"accounts", "-h"}, 0,
			[]string{"accounts create", "accounts set-limits"}, nil, nil},
		{"an unknown command of a group", []string{"keys", "rotate"}, 2, nil,
			[]string{"keys create", `unknown command "keys rotate"`}, []string{"accounts create"}},
		{"help", []string{"--help"}, 0,
			[]string{"usage: signals <command>", "serve [--demo]", "signals set-status", "accounts create", "keys revoke", "eval-search"}, nil, nil},
		{"an unknown command", []string{"set-status"}, 2, nil,
			[]string{"signals set-status", `unknown command "set-status"`}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errs, code := runCLI(t, nil, "", tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d", code, tt.code)
			}
			if tt.stdout == nil && out != "" {
				t.Errorf("stdout %q, want nothing", out)
			}
			if tt.stderr == nil && errs != "" {
				t.Errorf("stderr %q, want nothing", errs)
			}
			listing := out + errs
			for _, want := range append(tt.stdout, tt.stderr...) {
				if !strings.Contains(listing, want) {
					t.Errorf("output lacks %q:\n%s", want, listing)
				}
			}
			for _, other := range tt.notListing {
				if strings.Contains(listing, other) {
					t.Errorf("output lists %q:\n%s", other, listing)
				}
			}
		})
	}
}

// The usage fits a terminal: no line is wider than 80 columns.
func TestUsageFitsEightyColumns(t *testing.T) {
	for _, group := range []string{"", "accounts", "keys", "signals"} {
		for _, line := range strings.Split(usage(group), "\n") {
			if n := len([]rune(line)); n > 80 {
				t.Errorf("usage(%q) has a line of %d columns:\n%s", group, n, line)
			}
		}
	}
}

// The command table of docs/operating.md names each command as it is
// typed, and every command of the command line.
func TestDocumentedCommands(t *testing.T) {
	doc, err := os.ReadFile("../../docs/operating.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(doc), "## Commands\n")
	section, _, _ = strings.Cut(section, "| variable |")
	code := regexp.MustCompile("`([^`]*)`")
	word := regexp.MustCompile(`^[a-z][a-z-]*$`)
	var documented []string
	for _, line := range strings.Split(section, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cell, _, _ := strings.Cut(line, " | ")
		for _, c := range code.FindAllStringSubmatch(cell, -1) {
			words := strings.Fields(c[1])
			if words[0] != "signals" {
				t.Errorf("documented command %q: write it as typed, starting with signals", c[1])
				continue
			}
			// The command is the words before its first argument or flag.
			var name []string
			for _, w := range words[1:] {
				if !word.MatchString(w) {
					break
				}
				name = append(name, w)
			}
			documented = append(documented, strings.Join(name, " "))
			if _, errs, code := runCLI(t, nil, "", append(name, "-h")...); code != 0 {
				lines := strings.Split(strings.TrimSpace(errs), "\n")
				t.Errorf("documented command %q: signals %s -h exits %d: %s", c[1], strings.Join(name, " "), code, lines[len(lines)-1])
			}
		}
	}
	for _, v := range verbs {
		if !slices.Contains(documented, v.name) {
			t.Errorf("the command table of docs/operating.md lacks signals %s (it lists %q)", v.name, documented)
		}
	}
}
