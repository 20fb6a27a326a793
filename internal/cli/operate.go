package cli

import (
	"context"
	"fmt"
	"path/filepath"

	"signals/internal/app"
	"signals/internal/build"
)

// backup copies the SQLite database to a new file, through the serving
// process when one runs (app.BackupDatabase says why).
func backup(ctx context.Context, args []string, env Env) error {
	c := newCommand("backup", env)
	pos, err := c.parse(args, 1, "FILE")
	if err != nil {
		return err
	}
	file, err := filepath.Abs(pos[0])
	if err != nil {
		return err
	}
	err = app.BackupDatabase(ctx, c.cfg.Database, file, func(s string) { fmt.Fprintln(env.Stderr, "signals:", s) })
	if err != nil {
		return err
	}
	fmt.Fprintln(env.Stderr, "backup written to", file)
	return nil
}

// restore replaces the SQLite database by a backup that passes SQLite's
// integrity check; it refuses while serve runs.
func restore(ctx context.Context, args []string, env Env) error {
	c := newCommand("restore", env)
	pos, err := c.parse(args, 1, "FILE")
	if err != nil {
		return err
	}
	if err := app.RestoreDatabase(ctx, pos[0], c.cfg.Database); err != nil {
		return err
	}
	fmt.Fprintln(env.Stderr, "restored", c.cfg.Database, "from", pos[0])
	return nil
}

// versionCmd prints which build this is and the schema version it expects
// of each engine: what an operator compares before an upgrade, and what
// the refusal of a database migrated by a newer build names.
func versionCmd(ctx context.Context, args []string, env Env) error {
	c := newCommand("version", env)
	if _, err := c.parse(args, 0, "no arguments"); err != nil {
		return err
	}
	b := build.This()
	sqliteSchema, postgresSchema := app.SchemaVersions()
	fmt.Fprintf(env.Stdout, "signals %s\ncommit %s\ngo %s\nschema sqlite %s, postgresql %s\n",
		b.Version, b.Commit, b.Go, sqliteSchema, postgresSchema)
	return nil
}
