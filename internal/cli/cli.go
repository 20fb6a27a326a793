// Package cli implements the operator command line: every command, its flags
// and the SIGNALS_* environment variables they read.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
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
}

const usage = `usage: signals <command> [flags]

commands:
  serve [--demo]                       serve the API, MCP and the website
  import FILE|-                        import signals from JSON Lines (upsert by id)
  signals set-status ID public|hidden|pending [--market-only=true|false]
  accounts create --email E            create a verified account
  accounts set-limits --email E [--daily-requests N] [--minute-requests N]
                      [--daily-searches N] [--concurrent-searches N]
  keys create --email E [--name N]     print a new API key once
  keys list --email E                  list an account's keys
  keys revoke KEY_ID                   revoke a key
  migrate                              apply schema migrations
  eval-search [-v] [--set FILE] [--fit]
                                       measure semantic search on the labelled set;
                                       --fit calibrates the openai provider

Every flag also reads an environment variable (run a command with -h).
`

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

func run(ctx context.Context, args []string, env Env) error {
	if len(args) == 0 {
		fmt.Fprint(env.Stderr, usage)
		return fmt.Errorf("%w: no command", errUsage)
	}
	cmd, rest := args[0], args[1:]
	sub := ""
	if len(rest) > 0 {
		sub = rest[0]
	}
	switch {
	case cmd == "serve":
		return serve(ctx, rest, env)
	case cmd == "import":
		return importCmd(ctx, rest, env)
	case cmd == "migrate":
		return migrate(ctx, rest, env)
	case cmd == "eval-search":
		return evalSearch(ctx, rest, env)
	case cmd == "signals" && sub == "set-status":
		return setStatus(ctx, rest[1:], env)
	case cmd == "accounts" && sub == "create":
		return accountsCreate(ctx, rest[1:], env)
	case cmd == "accounts" && sub == "set-limits":
		return accountsSetLimits(ctx, rest[1:], env)
	case cmd == "keys" && sub == "create":
		return keysCreate(ctx, rest[1:], env)
	case cmd == "keys" && sub == "list":
		return keysList(ctx, rest[1:], env)
	case cmd == "keys" && sub == "revoke":
		return keysRevoke(ctx, rest[1:], env)
	case cmd == "help" || cmd == "-h" || cmd == "--help":
		fmt.Fprint(env.Stdout, usage)
		return nil
	}
	fmt.Fprint(env.Stderr, usage)
	return fmt.Errorf("%w: unknown command %q", errUsage, strings.TrimSpace(cmd+" "+sub))
}

// command is a flag set bound to the process environment.
type command struct {
	fs  *flag.FlagSet
	env Env
	cfg app.Config
	// envErr is the first environment variable that did not parse.
	envErr error
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

func (c *command) logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(c.env.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
