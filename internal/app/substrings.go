package app

import (
	"context"
	"time"
)

// substringEvery is how often the server looks for signals changed since
// it last filled the substring index.
const substringEvery = 2 * time.Second

// substringIndexer is a store whose substring index is filled after
// imports, off the import's path (both engines: tokenizing a long text
// costs far more than writing it).
type substringIndexer interface {
	IndexSubstrings(ctx context.Context) (int, error)
}

// indexSubstrings keeps the store's substring index up to date until ctx
// is done. Signals not indexed yet are still found, only more slowly.
func (a *App) indexSubstrings(ctx context.Context) {
	ix, ok := a.store.(substringIndexer)
	if !ok {
		return
	}
	tick := time.NewTicker(substringEvery)
	defer tick.Stop()
	for first := true; ; {
		start := time.Now()
		n, err := ix.IndexSubstrings(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			a.jobFailed(jobSubstrings, err)
		case err == nil && (n > 0 || first):
			// Said after the first pass even when it had nothing to do, so
			// that a load test knows when the index is complete.
			first = false
			a.log.Info("indexed substrings", "times", n, "duration", time.Since(start).Round(time.Millisecond))
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}
