package cli

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"signals/internal/importer"
	"signals/internal/store"
)

func migrate(ctx context.Context, args []string, env Env) error {
	c := newCommand("migrate", env)
	if _, err := c.parse(args, 0, "no arguments"); err != nil {
		return err
	}
	return c.withStore(ctx, func(st store.Store) error {
		applied := st.Migrated()
		for _, version := range applied {
			fmt.Fprintln(env.Stderr, "applied migration", version)
		}
		if len(applied) == 0 {
			fmt.Fprintln(env.Stderr, "schema is up to date")
		}
		return nil
	})
}

func importCmd(ctx context.Context, args []string, env Env) error {
	c := newCommand("import", env)
	mode := c.fs.String("mode", string(store.ImportKeepDecisions), "what the import does to signals already stored: "+
		"keep-decisions (update them, except the fields an editor decided), new-only (leave them as they are) or "+
		"overwrite (update every field, forgetting an editor's decisions); a taken-down id is skipped in every mode")
	pos, err := c.parse(args, 1, "one argument: FILE, or - for standard input")
	if err != nil {
		return err
	}
	if !slices.Contains(store.ImportModes, store.ImportMode(*mode)) {
		return fmt.Errorf("%w: --mode is keep-decisions, new-only or overwrite, not %q", errUsage, *mode)
	}
	in := env.Stdin
	if pos[0] != "-" {
		f, err := os.Open(pos[0])
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	}
	opt := importer.Options{Errors: env.Stderr, Mode: store.ImportMode(*mode)}
	if isTerminal(env.Stderr) {
		opt.Progress = env.Stderr
	}
	return c.withStore(ctx, func(st store.Store) error {
		start := time.Now()
		res, err := importer.Import(ctx, in, st, opt)
		if errors.Is(err, importer.ErrInvalid) {
			fmt.Fprintf(env.Stderr, "%d of %d lines invalid; nothing was imported\n", res.Invalid, res.Lines)
			return errReported
		}
		if err != nil {
			return err
		}
		kept := map[store.ImportMode]string{
			store.ImportKeepDecisions: "editors' decisions kept",
			store.ImportNewOnly:       "stored signals left as they were",
			store.ImportOverwrite:     "editors' decisions overwritten",
		}[opt.Mode]
		fmt.Fprintf(env.Stderr, "imported %d signals in %s: %d new, %d updated, %d unchanged (%s); %d refused as taken down, %d ids on more than one line\n",
			res.Imported, time.Since(start).Round(time.Millisecond), res.New, res.Updated, res.Unchanged, kept,
			len(res.TakenDown), len(res.Duplicates))
		if n := len(res.TakenDown); n > 0 {
			fmt.Fprintf(env.Stderr, "%d taken down by an editor, not imported (signals signals restore ID brings one back): %s\n",
				n, quotedList(res.TakenDown))
		}
		if n := len(res.Duplicates); n > 0 {
			ids := slices.Sorted(maps.Keys(res.Duplicates))
			parts := make([]string, len(ids))
			for i, id := range ids {
				lines := make([]string, len(res.Duplicates[id]))
				for j, l := range res.Duplicates[id] {
					lines[j] = strconv.Itoa(l)
				}
				parts[i] = strconv.Quote(plain(id, 80)) + " (lines " + strings.Join(lines, ", ") + ")"
			}
			fmt.Fprintf(env.Stderr, "%d ids are on more than one line; the last line of each was imported: %s\n", n, strings.Join(parts, ", "))
		}
		return nil
	})
}
