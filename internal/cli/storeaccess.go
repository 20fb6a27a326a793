package cli

import (
	"context"
	"errors"
	"fmt"

	"signals/internal/app"
	"signals/internal/model"
	"signals/internal/store"
)

// openStore opens the configured store for an operator command.
func (c *command) openStore(ctx context.Context) (store.Store, error) {
	// The logger's settings are checked even though the store logs nothing.
	if _, err := c.logger(); err != nil {
		return nil, err
	}
	return app.OpenStore(ctx, c.cfg.Database)
}

// withStore opens the configured store, runs do with it and closes it:
// the preamble of every operator command that reads or changes the
// database. The error is do's, or else the closing's.
func (c *command) withStore(ctx context.Context, do func(st store.Store) error) error {
	st, err := c.openStore(ctx)
	if err != nil {
		return err
	}
	err = do(st)
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	return err
}

// withAccount runs do with the store and the account whose email is
// given, as sign-in reads it; no such account is an error that names it.
func (c *command) withAccount(ctx context.Context, email string, do func(st store.Store, a model.Account) error) error {
	email, err := checkEmail(email)
	if err != nil {
		return err
	}
	return c.withStore(ctx, func(st store.Store) error {
		a, err := st.AccountByEmail(ctx, email)
		if err != nil {
			return missing(err, "no account with email %s", email)
		}
		return do(st, a)
	})
}

// missing is err, unless err is store.ErrNotFound: then it is the error
// that says, in the operator's words, what the store does not hold.
func missing(err error, format string, args ...any) error {
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf(format, args...)
	}
	return err
}

// taken is err, unless err is store.ErrExists: then it is the error that
// says, in the operator's words, what the store holds already.
func taken(err error, format string, args ...any) error {
	if errors.Is(err, store.ErrExists) {
		return fmt.Errorf(format, args...)
	}
	return err
}
