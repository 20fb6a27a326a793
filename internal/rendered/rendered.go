// Package rendered keeps rendered documents (the website's feeds, the
// API's list bodies) until the data they were rendered from changes, each
// with its validators and, once asked for, its gzipped bytes.
package rendered

import (
	"crypto/sha256"
	"encoding/hex"
	"sync"
	"time"

	"signals/internal/gzipped"
)

// Entry is one rendered document with its validators.
type Entry struct {
	Body []byte
	// ETag is a strong validator of Body.
	ETag string
	// LastModified is when the data in Body last changed, as its builder
	// reported it (to the second): for a feed, its newest signal's time,
	// so that every replica and every format of one feed agree on it.
	LastModified time.Time
	generation   int64

	gzipOnce sync.Once
	gzipped  []byte
}

// Gzipped returns Body gzipped, compressed on first use only, so that
// every client that accepts gzip is sent the same bytes without
// compressing them again.
func (e *Entry) Gzipped() []byte {
	e.gzipOnce.Do(func() { e.gzipped = gzipped.Compress(e.Body) })
	return e.gzipped
}

// Cache keeps rendered documents by key until the store's generation (a
// counter that every change of the signals moves) differs from the one
// they were rendered at. It holds at most Max entries; past that, an
// arbitrary one makes room.
type Cache struct {
	// Max bounds the number of entries (default 512).
	Max int

	mu      sync.Mutex
	entries map[string]*Entry
}

// Get returns the entry of key rendered at generation gen, calling build
// when there is none yet or the one kept is older; build returns the
// document and when its data last changed.
func (c *Cache) Get(key string, gen int64, build func() ([]byte, time.Time, error)) (*Entry, error) {
	c.mu.Lock()
	old := c.entries[key]
	c.mu.Unlock()
	if old != nil && old.generation == gen {
		return old, nil
	}
	body, modified, err := build()
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(body)
	e := &Entry{Body: body, ETag: `"` + hex.EncodeToString(sum[:16]) + `"`, generation: gen,
		LastModified: modified.UTC().Truncate(time.Second)}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil {
		c.entries = map[string]*Entry{}
	}
	if cur := c.entries[key]; cur != nil && cur.generation > gen {
		return e, nil // a newer rendering got there first
	}
	if _, ok := c.entries[key]; !ok && len(c.entries) >= c.max() {
		for k := range c.entries {
			delete(c.entries, k)
			break
		}
	}
	c.entries[key] = e
	return e, nil
}

func (c *Cache) max() int {
	if c.Max > 0 {
		return c.Max
	}
	return 512
}
