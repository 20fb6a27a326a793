package search

import (
	"cmp"
	"context"
	"time"

	"signals/internal/model"
	"signals/internal/store"
)

// indexBatch is how many signals are embedded per store round trip.
const indexBatch = 256

// progressEvery is how often a long pass says in the log how far it is,
// unless Service.ProgressEvery says otherwise.
const progressEvery = 30 * time.Second

// IndexOnce embeds every public signal that has no current vector under the
// scorer's model, and returns how many it embedded.
func (s *Service) IndexOnce(ctx context.Context) (int, error) {
	return s.indexOnce(ctx, func(f func()) { f() })
}

// indexOnce is IndexOnce with the model's work run by run.
func (s *Service) indexOnce(ctx context.Context, run func(func())) (int, error) {
	vectorModel := s.Scorer.Model()
	total := 0
	start, said := time.Now(), time.Now()
	err := EachNeedingVectors(ctx, s.Store, vectorModel, indexBatch, func(docs []model.Signal) error {
		texts := make([]string, len(docs))
		for i, d := range docs {
			texts[i] = d.Text
		}
		var vecs [][]float32
		var err error
		run(func() { vecs, err = s.Scorer.EmbedDocuments(ctx, texts) })
		if err != nil {
			return err
		}
		byID := make(map[string][]float32, len(docs))
		for i, d := range docs {
			byID[d.ID] = vecs[i]
		}
		if err := s.Store.PutVectors(ctx, vectorModel, byID); err != nil {
			return err
		}
		total += len(docs)
		if s.Observer != nil {
			s.Observer.Embedded(len(docs))
		}
		if s.Log != nil && time.Since(said) >= cmp.Or(s.ProgressEvery, progressEvery) {
			said = time.Now()
			elapsed := time.Since(start)
			s.Log.Info("embedding signals", "signals", total, "model", vectorModel, "elapsed", elapsed.Round(time.Second),
				"per_second", int(float64(total)/elapsed.Seconds()))
		}
		return nil
	})
	return total, err
}

// afterPass gives back what a pass that embedded signals took: the
// scorer's resources for passes, then whatever AfterPass releases.
func (s *Service) afterPass() {
	if r, ok := s.Scorer.(Releaser); ok {
		if err := r.Release(); err != nil && s.Log != nil {
			s.Log.Warn("release the scorer's resources after a pass", "model", s.Scorer.Model(), "err", err)
		}
	}
	if s.AfterPass != nil {
		s.AfterPass()
	}
}

// EachNeedingVectors calls fn with the public signals that have no current
// vector under vectorModel, limit at a time in listing order, Text cut to
// CandidateChars, until none is left or fn fails. Each signal is read once,
// whatever fn stores meanwhile.
func EachNeedingVectors(ctx context.Context, st interface {
	SignalsNeedingVectors(ctx context.Context, vectorModel string, textChars, limit int, cursor *store.Cursor) ([]model.Signal, error)
}, vectorModel string, limit int, fn func([]model.Signal) error) error {
	var cursor *store.Cursor
	for {
		docs, err := st.SignalsNeedingVectors(ctx, vectorModel, CandidateChars, limit, cursor)
		if err != nil || len(docs) == 0 {
			return err
		}
		cursor = store.CursorOf(docs[len(docs)-1])
		if err := fn(docs); err != nil {
			return err
		}
	}
}

// Index keeps vectors current until ctx ends: signals imported by another
// process or made public later are embedded within every. Between changes
// (the store's generation) a tick costs one row read, not a pass over the
// archive. The model runs at the lowest scheduling priority (see
// background), so that requests go first.
func (s *Service) Index(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	bg := startBackground()
	defer bg.stop()
	done := int64(-1) // the generation the last complete pass started at
	first := true
	for {
		gen, err := s.Store.Generation(ctx)
		if err == nil && gen != done {
			var n int
			start := time.Now()
			n, err = s.indexOnce(ctx, bg.do)
			if n > 0 {
				s.afterPass()
			}
			if err == nil {
				done = gen
				if s.Log != nil && (n > 0 || first) {
					// Said after the first pass, even with nothing to do, and
					// whenever signals were embedded: load tests wait for it.
					first = false
					s.Log.Info("embedded signals", "signals", n, "model", s.Scorer.Model(),
						"duration", time.Since(start).Round(time.Millisecond))
				}
			}
		}
		if err != nil && ctx.Err() == nil && s.Failed != nil {
			s.Failed("embed signals", err)
		} else if err != nil && ctx.Err() == nil && s.Log != nil {
			s.Log.Error("background job failed", "op", "embed signals", "model", s.Scorer.Model(), "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
