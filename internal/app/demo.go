package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"signals/internal/auth"
	"signals/internal/demo"
	"signals/internal/importer"
	"signals/internal/model"
	"signals/internal/search"
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

// LoadDemoVectors stores the demo vectors bundled with the binary when they
// are of the active scorer's model, for the public signals that lack a
// vector and hold the very text they were computed from (a demo signal
// changed since gets its vector from the indexer). A demo then answers
// searches by meaning from its first second. It returns how many vectors
// it stored.
func (a *App) LoadDemoVectors(ctx context.Context) (int, error) {
	vectorModel, byID, err := demo.Vectors()
	if err != nil || vectorModel != a.search.Scorer.Model() {
		return 0, err
	}
	put := map[string][]float32{}
	err = search.EachNeedingVectors(ctx, a.store, vectorModel, 1000, func(docs []model.Signal) error {
		for _, d := range docs {
			if v, ok := byID[d.ID]; ok && v.TextSum == demo.TextSum(d.Text) {
				put[d.ID] = v.Vector
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	if len(put) == 0 {
		return 0, nil
	}
	return len(put), a.store.PutVectors(ctx, vectorModel, put)
}
