package sqlite

import (
	"context"
	"sync"
	"time"
)

// slots are the running searches per account. One process serves an SQLite
// file, so they live in memory and die with it: nothing can stay stuck.
type slots struct {
	mu      sync.Mutex
	running map[int64]int
}

// AcquireSearchSlot takes one of the account's concurrent search slots.
func (db *DB) AcquireSearchSlot(ctx context.Context, accountID int64, max int, now time.Time, lease time.Duration) (func(), bool, error) {
	s := &db.slots
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running[accountID] >= max {
		return nil, false, nil
	}
	s.running[accountID]++
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			s.running[accountID]--
			if s.running[accountID] <= 0 {
				delete(s.running, accountID)
			}
			s.mu.Unlock()
		})
	}, true, nil
}

// claims are the searches running in this process. One process serves an
// SQLite file, so memory is the whole truth; a lease still bounds a claim.
type claims struct {
	mu      sync.Mutex
	holders map[string]claim
}

type claim struct {
	token   *byte // identity of the holder
	expires time.Time
}

// ClaimSearch claims key unless another unexpired claim holds it.
func (db *DB) ClaimSearch(ctx context.Context, key string, now time.Time, lease time.Duration) (func(), bool, error) {
	c := &db.claims
	c.mu.Lock()
	defer c.mu.Unlock()
	if h, ok := c.holders[key]; ok && now.Before(h.expires) {
		return nil, false, nil
	}
	me := claim{token: new(byte), expires: now.Add(lease)}
	c.holders[key] = me
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.holders[key].token == me.token {
			delete(c.holders, key)
		}
	}, true, nil
}
