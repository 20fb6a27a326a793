package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"signals/internal/auth"
	"signals/internal/importer"
	"signals/internal/store"
)

// DemoEmail is the account that serve --demo creates.
const DemoEmail = "demo@example.com"

// LoadDemo fills an empty database with the demo signals read from records
// and creates the demo account, printing its new API key once on out.
// program is the command as the operator runs it ("signals", "go run
// ./cmd/signals"), for the hint given when the account already exists.
func LoadDemo(ctx context.Context, st store.Store, records io.Reader, out io.Writer, program string, log *slog.Logger) error {
	n, err := st.CountSignals(ctx)
	if err != nil {
		return err
	}
	if n == 0 {
		res, err := importer.Import(ctx, records, st, importer.Options{Errors: io.Discard})
		if err != nil {
			return err
		}
		log.Info("loaded demo data", "signals", res.Imported)
	} else {
		log.Info("database already holds signals; demo data not loaded", "signals", n)
	}
	if err := loadDemoSite(ctx, st, log); err != nil {
		return err
	}
	acct, err := st.CreateAccount(ctx, DemoEmail, time.Now())
	if errors.Is(err, store.ErrExists) {
		log.Info("demo account exists; create another key with: " + program + " keys create --email " + DemoEmail)
		return nil
	}
	if err != nil {
		return err
	}
	secret, _, err := auth.Issue(ctx, st, acct.ID, "demo", time.Now())
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "Demo account %s; its API key (shown once):\n%s\n", DemoEmail, secret)
	return nil
}
