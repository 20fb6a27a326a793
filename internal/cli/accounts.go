package cli

import (
	"context"
	"fmt"
	"time"

	"signals/internal/account"
	"signals/internal/failure"
	"signals/internal/model"
	"signals/internal/store"
)

// emailFlag declares the --email flag.
func (c *command) emailFlag() *string {
	return c.fs.String("email", "", "the account's email address")
}

// checkEmail returns the address as accounts store it, read as sign-in
// reads it (NFC, the domain by IDNA, lower case), or a usage error that
// says what is wrong with it.
func checkEmail(email string) (string, error) {
	normal, err := account.NormalEmail(email)
	if err != nil {
		return "", refusedFlag("--email", err)
	}
	return normal, nil
}

// refusedFlag is the usage error for a flag whose value the account area
// refuses, saying what its failure says to a person.
func refusedFlag(flag string, err error) error {
	detail := err.Error()
	if f, ok := failure.As(err); ok {
		detail = f.Detail
	}
	return fmt.Errorf("%w: %s: %s", errUsage, flag, detail)
}

func accountsCreate(ctx context.Context, args []string, env Env) error {
	c := newCommand("accounts create", env)
	email := c.emailFlag()
	if _, err := c.parse(args, 0, "no arguments"); err != nil {
		return err
	}
	normal, err := checkEmail(*email)
	if err != nil {
		return err
	}
	return c.withStore(ctx, func(st store.Store) error {
		a, err := st.CreateAccount(ctx, normal, time.Now())
		if err != nil {
			return taken(err, "an account with email %s exists", normal)
		}
		fmt.Fprintf(env.Stderr, "created account %d for %s\n", a.ID, a.Email)
		return nil
	})
}

func accountsSetLimits(ctx context.Context, args []string, env Env) error {
	c := newCommand("accounts set-limits", env)
	email := c.emailFlag()
	daily := c.fs.Int("daily-requests", -1, "requests per UTC day")
	minute := c.fs.Int("minute-requests", -1, "requests per minute")
	searches := c.fs.Int("daily-searches", -1, "fresh semantic searches per UTC day")
	concurrent := c.fs.Int("concurrent-searches", -1, "semantic searches running at once")
	if _, err := c.parse(args, 0, "no arguments"); err != nil {
		return err
	}
	return c.withAccount(ctx, *email, func(st store.Store, a model.Account) error {
		l := a.Limits
		for _, f := range []struct {
			name string
			v    int
			p    *int
		}{
			{"daily-requests", *daily, &l.DailyRequests}, {"minute-requests", *minute, &l.MinuteRequests},
			{"daily-searches", *searches, &l.DailySearches}, {"concurrent-searches", *concurrent, &l.ConcurrentSearches},
		} {
			if f.v == -1 {
				continue
			}
			if f.v < 0 || f.v > 1_000_000_000 {
				return fmt.Errorf("%w: --%s must be from 0 to 1000000000", errUsage, f.name)
			}
			*f.p = f.v
		}
		if err := st.SetLimits(ctx, a.ID, l); err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "daily_requests=%d minute_requests=%d daily_searches=%d concurrent_searches=%d\n",
			l.DailyRequests, l.MinuteRequests, l.DailySearches, l.ConcurrentSearches)
		return nil
	})
}
