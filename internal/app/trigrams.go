package app

import (
	"context"
	"time"
)

// trigramEvery is how often the server looks for signals imported since it
// last filled the trigram index.
const trigramEvery = 2 * time.Second

// trigramIndexer is a store whose trigram index is filled after imports,
// off the import's path (both engines: tokenizing a long text costs far more
// than writing it).
type trigramIndexer interface {
	IndexTrigrams(ctx context.Context) (int, error)
}

// indexTrigrams keeps the store's trigram index up to date until ctx is
// done. Signals not indexed yet are still found, only more slowly.
func (a *App) indexTrigrams(ctx context.Context) {
	ix, ok := a.store.(trigramIndexer)
	if !ok {
		return
	}
	tick := time.NewTicker(trigramEvery)
	defer tick.Stop()
	for first := true; ; {
		start := time.Now()
		n, err := ix.IndexTrigrams(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			a.log.Error("index trigrams", "err", err)
		case err == nil && (n > 0 || first):
			// Said after the first pass even when it had nothing to do, so
			// that a load test knows when the index is complete.
			first = false
			a.log.Info("indexed trigrams", "signals", n, "duration", time.Since(start).Round(time.Millisecond))
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}
