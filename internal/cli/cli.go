// Package cli implements the operator command line: every command, its flags
// and the SIGNALS_* environment variables they read.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"signals/internal/app"
)

// Env is what a command may touch of the process.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	// Program is the command as the operator runs it, for hints that name
	// another command; empty means "signals".
	Program string
}

// Program names the command that started as argv0 the way its operator
// typed it: "go run ./cmd/signals" for a binary that go run built in a
// temporary directory, else argv0 itself ("signals", "./signals").
func Program(argv0 string) string {
	slashed := strings.ReplaceAll(argv0, `\`, "/")
	if strings.Contains(slashed, "/go-build") && strings.Contains(slashed, "/exe/") {
		return "go run ./cmd/signals"
	}
	if argv0 == "" {
		return "signals"
	}
	return argv0
}

// program is Env.Program or its default.
func (e Env) program() string {
	if e.Program == "" {
		return "signals"
	}
	return e.Program
}

// verb is one command of the command line.
type verb struct {
	// name is the command as typed: "serve", or a group and one of its
	// commands, "keys create".
	name string
	// args shows the command's arguments and flags; does says what it does.
	args, does string
	run        func(context.Context, []string, Env) error
}

// verbs are the commands, in the order the usage lists them.
var verbs = []verb{
	{"serve", "[--demo]", "serve the API, MCP and the website", serve},
	{"import", "FILE|-", "import signals from JSON Lines", importCmd},
	{"signals list", "[--status pending|public|hidden] [--tag T] [--limit N] [--json]", "list signals of any status; pending: the review queue, oldest first", signalsList},
	{"signals show", "ID [--json]", "one signal as an editor sees it, with its last decisions", signalsShow},
	{"signals set-status", "ID public|hidden|pending [--market-only=true|false] [--reason R]", "set the editorial status of one signal (logged)", signalsSetStatus},
	{"signals set", "ID [--tag T] [--country C] [--language L] [--reason R]", "correct a signal's kind, country or language (logged)", signalsSet},
	{"signals delete", "ID --reason R", "take a signal down from every surface; re-imports do not bring it back (logged)", signalsDelete},
	{"signals restore", "ID [--reason R]", "undo a takedown (logged)", signalsRestore},
	{"desk log", "[--signal ID] [--editor EMAIL] [--json]", "the record of editorial decisions; --json exports it as JSON Lines", deskLog},
	{"accounts create", "--email E", "create a verified account", accountsCreate},
	{"accounts set-role", "--email E editor|reader", "make an account an editor (the desk) or a reader", accountsSetRole},
	{"accounts set-limits", "--email E [--daily-requests N] [--minute-requests N] [--daily-searches N] [--concurrent-searches N]",
		"set an account's actual limits", accountsSetLimits},
	{"keys create", "--email E [--name N]", "print a new API key once", keysCreate},
	{"keys list", "--email E", "list an account's keys", keysList},
	{"keys rename", "KEY_ID --email E --name N", "rename one of an account's active keys", keysRename},
	{"keys revoke", "KEY_ID", "revoke a key", keysRevoke},
	{"hubs add", "SLUG --title T [--description D] --filter 'tags=funding&country=canada'",
		"register a feed hub: a page and feeds with a fixed filter", hubsAdd},
	{"hubs list", "", "list the feed hubs", hubsList},
	{"hubs remove", "SLUG", "remove a feed hub", hubsRemove},
	{"articles import", "DIR", "import Markdown articles, all or nothing (the slugs about and contact replace those pages)", articlesImport},
	{"migrate", "", "apply pending schema migrations, naming each", migrate},
	{"mail test", "--to ADDRESS", "send one real message through the configured mail and print what the server answered", mailTest},
	{"version", "", "print the version, the commit and the schema version this build expects (also --version)", versionCmd},
	{"backup", "FILE", "copy the SQLite database to a new FILE, while serve runs", backup},
	{"restore", "FILE", "replace the SQLite database by a backup; serve must be stopped", restore},
	{"search-status", "", "which semantic search scorer is active (model, runtime, signals waiting for vectors) and why", searchStatus},
	{"eval-search", "[-v] [--set FILE] [--fit [--refine] [--write FILE]] [--encoder FILE.onnx [--encoder-alone | --encoder-languages LIST]]",
		"measure semantic search on the labelled set; --fit calibrates the scorer", evalSearch},
}

// errUsage marks a command line that could not be understood.
var errUsage = errors.New("usage")

// Run runs one command and returns the process exit status.
func Run(ctx context.Context, args []string, env Env) int {
	err := run(ctx, args, env)
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		fmt.Fprintln(env.Stderr, err)
		return 2
	case errors.Is(err, errReported):
		return 1
	default:
		fmt.Fprintln(env.Stderr, "signals:", err)
		return 1
	}
}

// errReported means the command already told the user what went wrong.
var errReported = errors.New("reported")

// run finds the command args name and runs it. A group of commands
// ("accounts", "keys", "signals") named alone lists its commands on stderr,
// as an unknown command lists every command; -h lists them on stdout.
func run(ctx context.Context, args []string, env Env) error {
	if len(args) == 0 {
		fmt.Fprint(env.Stderr, usage(""))
		return fmt.Errorf("%w: no command", errUsage)
	}
	name, rest := args[0], args[1:]
	if name == "--version" || name == "-version" {
		name = "version"
	}
	group := ""
	if isGroup(name) {
		group = name
		if len(rest) == 0 {
			fmt.Fprint(env.Stderr, usage(group))
			return fmt.Errorf("%w: signals %s needs a command", errUsage, group)
		}
		name, rest = group+" "+rest[0], rest[1:]
	}
	for _, v := range verbs {
		if v.name == name {
			return v.run(ctx, rest, env)
		}
	}
	if isHelp(strings.TrimPrefix(name, group+" ")) {
		fmt.Fprint(env.Stdout, usage(group))
		return nil
	}
	fmt.Fprint(env.Stderr, usage(group))
	return fmt.Errorf("%w: unknown command %q", errUsage, name)
}

func isHelp(arg string) bool { return arg == "help" || arg == "-h" || arg == "--help" }

// isGroup reports whether name is the first word of commands of two words.
func isGroup(name string) bool {
	for _, v := range verbs {
		if strings.HasPrefix(v.name, name+" ") {
			return true
		}
	}
	return false
}

// usage lists the commands of group, or every command if group is "".
func usage(group string) string {
	const column = 40
	var b strings.Builder
	if group == "" {
		b.WriteString("usage: signals <command> [flags]\n\ncommands:\n")
	} else {
		fmt.Fprintf(&b, "usage: signals %s <command> [flags]\n\ncommands:\n", group)
	}
	for _, v := range verbs {
		if group != "" && !strings.HasPrefix(v.name, group+" ") {
			continue
		}
		line := "  " + v.name
		line = wrap(&b, line, splitArgs(v.args), len(line)+1)
		if len(line) >= column-1 {
			b.WriteString(line + "\n")
			line = ""
		}
		line = wrap(&b, fmt.Sprintf("%-*s", column, line), strings.Fields(v.does), column)
		b.WriteString(line + "\n")
	}
	b.WriteString("\nEvery flag also reads an environment variable (run a command with -h).\n")
	return b.String()
}

// wrap appends words to line and returns it; before a word that would take
// the line past 80 columns it writes the line to b and starts another,
// indented by indent spaces.
func wrap(b *strings.Builder, line string, words []string, indent int) string {
	const width = 80
	for _, w := range words {
		if len(line) > indent && len(line)+1+len(w) > width {
			b.WriteString(line + "\n")
			line = strings.Repeat(" ", indent)
		}
		if !strings.HasSuffix(line, " ") {
			line += " "
		}
		line += w
	}
	return line
}

// splitArgs splits a command's arguments at the spaces outside brackets.
func splitArgs(args string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range args {
		switch r {
		case '[':
			depth++
		case ']':
			depth--
		case ' ':
			if depth == 0 {
				out = append(out, args[start:i])
				start = i + 1
			}
		}
	}
	if start < len(args) {
		out = append(out, args[start:])
	}
	return out
}

// command is a flag set bound to the process environment.
type command struct {
	fs  *flag.FlagSet
	env Env
	cfg app.Config
	// envErr is the first environment variable that did not parse.
	envErr error
	// logLevel and logFormat are set by logFlags.
	logLevel, logFormat string
}

// newCommand returns a command that works on the database SIGNALS_DATABASE
// names.
func newCommand(name string, env Env) *command {
	c := newScratchCommand(name, env)
	c.stringVar(&c.cfg.Database, "database", "SIGNALS_DATABASE", "signals.db",
		"a SQLite file path, or a postgres:// URL")
	return c
}

// newScratchCommand returns a command that has no database flag, for one
// that works on data of its own.
func newScratchCommand(name string, env Env) *command {
	fs := flag.NewFlagSet("signals "+name, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	return &command{fs: fs, env: env}
}

func (c *command) stringVar(p *string, name, envName, def, help string) {
	if v := c.env.Getenv(envName); v != "" {
		def = v
	}
	c.fs.StringVar(p, name, def, help+" ($"+envName+")")
}

// boolVar is stringVar for true or false.
func (c *command) boolVar(p *bool, name, envName string, def bool, help string) {
	c.fs.BoolVar(p, name, envValue(c, envName, def, strconv.ParseBool), help+" ($"+envName+")")
}

// floatVar is stringVar for a number; an environment value that is not one
// is a usage error when the command parses.
func (c *command) floatVar(p *float64, name, envName string, def float64, help string) {
	c.fs.Float64Var(p, name, envValue(c, envName, def, func(v string) (float64, error) {
		return strconv.ParseFloat(v, 64)
	}), help+" ($"+envName+")")
}

// durationVar is floatVar for a duration such as "10s".
func (c *command) durationVar(p *time.Duration, name, envName string, def time.Duration, help string) {
	c.fs.DurationVar(p, name, envValue(c, envName, def, time.ParseDuration), help+" ($"+envName+")")
}

// envValue returns the environment variable envName parsed, or def if it is
// unset; a value that does not parse is kept in c.envErr for parse to return.
func envValue[T any](c *command, envName string, def T, parse func(string) (T, error)) T {
	v := c.env.Getenv(envName)
	if v == "" {
		return def
	}
	x, err := parse(strings.TrimSpace(v))
	if err != nil {
		if c.envErr == nil {
			c.envErr = fmt.Errorf("%w: $%s: %q is not a valid value", errUsage, envName, v)
		}
		return def
	}
	return x
}

// parse parses flags that may appear before, between or after positional
// arguments, and returns the positional ones.
func (c *command) parse(args []string, wantArgs int, argNames string) ([]string, error) {
	if c.envErr != nil {
		return nil, c.envErr
	}
	var pos []string
	for {
		if err := c.fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, fmt.Errorf("%w: %v", errUsage, err)
		}
		if c.fs.NArg() == 0 {
			break
		}
		pos = append(pos, c.fs.Arg(0))
		args = c.fs.Args()[1:]
	}
	if len(pos) != wantArgs {
		return nil, fmt.Errorf("%w: %s takes %s", errUsage, c.fs.Name(), argNames)
	}
	return pos, nil
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
