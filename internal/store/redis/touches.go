package redis

import (
	"context"
	"errors"
	"time"

	"signals/internal/model"
	"signals/internal/store"
)

// TouchEvery is how often the keys' last-used times reach the database:
// one statement for every key used since the last write. A process that
// crashes forgets at most this much of them.
const TouchEvery = 10 * time.Second

// KeyToucher is a store that records many keys' last uses in one
// statement.
type KeyToucher interface {
	TouchKeys(ctx context.Context, uses map[string]time.Time) error
}

var errClosed = errors.New("store: touch key: the store is closed")

// TouchKey records a key's use in memory; the next write takes it to the
// database with the others (the latest use wins).
func (r *Store) TouchKey(ctx context.Context, keyID string, at time.Time) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return errClosed
	}
	if last, ok := r.touches[keyID]; !ok || at.After(last) {
		r.touches[keyID] = at
	}
	return nil
}

// Keys writes the pending last-used times first, so that the account's
// page shows this process's latest uses.
func (r *Store) Keys(ctx context.Context, accountID int64) ([]model.APIKey, error) {
	if err := r.flushTouches(ctx); err != nil {
		return nil, err
	}
	return r.Store.Keys(ctx, accountID)
}

// flushTouches writes the pending last-used times; on failure they wait
// for the next write.
func (r *Store) flushTouches(ctx context.Context) error {
	r.mu.Lock()
	batch := r.touches
	r.touches = map[string]time.Time{}
	r.mu.Unlock()
	if len(batch) == 0 {
		return nil
	}
	err := touchKeys(ctx, r.Store, batch)
	if err != nil {
		r.mu.Lock()
		for id, at := range batch {
			if last, ok := r.touches[id]; !ok || at.After(last) {
				r.touches[id] = at
			}
		}
		r.mu.Unlock()
	}
	return err
}

// touchKeys writes uses in one statement where st can, one by one where
// it cannot.
func touchKeys(ctx context.Context, st store.Store, uses map[string]time.Time) error {
	if t, ok := st.(KeyToucher); ok {
		return t.TouchKeys(ctx, uses)
	}
	for id, at := range uses {
		if err := st.TouchKey(ctx, id, at); err != nil {
			return err
		}
	}
	return nil
}

// writeTouches writes the pending last-used times every TouchEvery, and
// once more when the store closes.
func (r *Store) writeTouches() {
	defer close(r.done)
	t := time.NewTicker(TouchEvery)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			r.flushTouches(ctx)
			cancel()
		case <-r.stop:
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			r.flushTouches(ctx)
			cancel()
			return
		}
	}
}
