package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"signals/internal/account"
	"signals/internal/auth"
	"signals/internal/model"
	"signals/internal/store"
)

func keysCreate(ctx context.Context, args []string, env Env) error {
	c := newCommand("keys create", env)
	email := c.emailFlag()
	name := c.fs.String("name", "default", "a name to tell the key apart")
	if _, err := c.parse(args, 0, "no arguments"); err != nil {
		return err
	}
	named, err := keyName(*name)
	if err != nil {
		return err
	}
	return c.withAccount(ctx, *email, func(st store.Store, a model.Account) error {
		secret, _, err := auth.Issue(ctx, st, a.ID, named, time.Now())
		if err != nil {
			return err
		}
		fmt.Fprintln(env.Stdout, secret)
		return nil
	})
}

func keysList(ctx context.Context, args []string, env Env) error {
	c := newCommand("keys list", env)
	email := c.emailFlag()
	if _, err := c.parse(args, 0, "no arguments"); err != nil {
		return err
	}
	return c.withAccount(ctx, *email, func(st store.Store, a model.Account) error {
		keys, err := st.Keys(ctx, a.ID)
		if err != nil {
			return err
		}
		writeKeys(env.Stdout, keys)
		return nil
	})
}

func writeKeys(out io.Writer, keys []model.APIKey) {
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tKEY\tCREATED\tLAST USED\tREVOKED")
	when := func(t *time.Time) string {
		if t == nil {
			return "-"
		}
		return t.Format(time.RFC3339)
	}
	for _, k := range keys {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", k.ID, k.Name, k.Hint,
			k.CreatedAt.Format(time.RFC3339), when(k.LastUsed), when(k.RevokedAt))
	}
	tw.Flush()
}

// keyName returns the trimmed key name, or, as a usage error, why the
// account page would refuse it.
func keyName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if err := account.CheckKeyName(name); err != nil {
		return "", refusedFlag("--name", err)
	}
	return name, nil
}

func keysRename(ctx context.Context, args []string, env Env) error {
	c := newCommand("keys rename", env)
	email := c.emailFlag()
	name := c.fs.String("name", "", "the key's new name")
	pos, err := c.parse(args, 1, "one argument: KEY_ID")
	if err != nil {
		return err
	}
	named, err := keyName(*name)
	if err != nil {
		return err
	}
	return c.withAccount(ctx, *email, func(st store.Store, a model.Account) error {
		if err := st.RenameKey(ctx, a.ID, pos[0], named); err != nil {
			return missing(err, "no active key with id %q for %s", pos[0], a.Email)
		}
		fmt.Fprintf(env.Stderr, "renamed %s to %q\n", pos[0], named)
		return nil
	})
}

func keysRevoke(ctx context.Context, args []string, env Env) error {
	c := newCommand("keys revoke", env)
	pos, err := c.parse(args, 1, "one argument: KEY_ID")
	if err != nil {
		return err
	}
	return c.withStore(ctx, func(st store.Store) error {
		if err := st.RevokeKey(ctx, pos[0], time.Now()); err != nil {
			return missing(err, "no active key with id %q", pos[0])
		}
		fmt.Fprintf(env.Stderr, "revoked %s\n", pos[0])
		return nil
	})
}
