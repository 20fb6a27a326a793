package cli

import (
	"context"
	"fmt"
	"strings"

	"signals/internal/app"
	"signals/internal/label"
	"signals/internal/model"
	"signals/internal/search"
	"signals/internal/store"
)

// searchStatus says which scorer serve would use with the same settings,
// why, and how many public signals still wait for its vectors.
func searchStatus(ctx context.Context, args []string, env Env) error {
	c := newCommand("search-status", env)
	c.searchFlags()
	if _, err := c.parse(args, 0, "no arguments"); err != nil {
		return err
	}
	scorer, status, err := app.ChooseScorer(c.cfg.Search)
	if err != nil {
		return err
	}
	runtime := status.Runtime
	if runtime == "" {
		runtime = "not loaded"
	}
	fmt.Fprintf(env.Stdout, "provider: %s\nmodel:    %s\nruntime:  %s\nwhy:      %s\n", status.Provider, status.Model, runtime, status.Reason)
	if len(status.Languages) > 0 {
		names := make([]string, len(status.Languages))
		for i, l := range status.Languages {
			names[i] = label.Language(l)
		}
		fmt.Fprintf(env.Stdout, "reads:    questions in %s; the builtin word vectors score the others\n", strings.Join(names, ", "))
	}
	return c.withStore(ctx, func(st store.Store) error {
		pending, err := waitingForVectors(ctx, st, scorer.Model())
		if err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "waiting:  %d public signals without vectors of this model (serve computes them in the background)\n", pending)
		return nil
	})
}

// waitingForVectors counts the public signals without a vector of
// vectorModel.
func waitingForVectors(ctx context.Context, st store.Store, vectorModel string) (int, error) {
	n := 0
	err := search.EachNeedingVectors(ctx, st, vectorModel, 1000, func(docs []model.Signal) error {
		n += len(docs)
		return nil
	})
	return n, err
}
