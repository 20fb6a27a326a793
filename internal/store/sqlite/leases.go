package sqlite

import (
	"context"
	"sync"
	"time"
)

// leases are the search slots and claims of this process. One process
// serves an SQLite file, so memory is the whole truth and they die with
// it: nothing can stay stuck. A lease still bounds a claim.
type leases struct {
	mu sync.Mutex
	// running counts the searches running per account.
	running map[int64]int
	// claims holds the expiry of each claimed key's holder; the address
	// of that expiry identifies the holder.
	claims map[string]*time.Time
}

// AcquireSearchSlot takes one of the account's concurrent search slots.
func (db *DB) AcquireSearchSlot(ctx context.Context, accountID int64, max int, now time.Time, lease time.Duration) (func(), bool, error) {
	l := &db.leases
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.running[accountID] >= max {
		return nil, false, nil
	}
	l.running[accountID]++
	return sync.OnceFunc(func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.running[accountID]--
		if l.running[accountID] <= 0 {
			delete(l.running, accountID)
		}
	}), true, nil
}

// ClaimSearch claims key unless another unexpired claim holds it.
func (db *DB) ClaimSearch(ctx context.Context, key string, now time.Time, lease time.Duration) (func(), bool, error) {
	l := &db.leases
	l.mu.Lock()
	defer l.mu.Unlock()
	if held, ok := l.claims[key]; ok && now.Before(*held) {
		return nil, false, nil
	}
	expires := now.Add(lease)
	l.claims[key] = &expires
	return func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.claims[key] == &expires {
			delete(l.claims, key)
		}
	}, true, nil
}
