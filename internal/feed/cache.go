package feed

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
	// LastModified is when this process first served Body (to the second),
	// and moves forward whenever the body changes.
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
	// Now is the clock (default time.Now).
	Now func() time.Time

	mu      sync.Mutex
	entries map[string]*Entry
}

// Get returns the entry of key rendered at generation gen, calling build
// when there is none yet or the one kept is older.
func (c *Cache) Get(key string, gen int64, build func() ([]byte, error)) (*Entry, error) {
	c.mu.Lock()
	old := c.entries[key]
	c.mu.Unlock()
	if old != nil && old.generation == gen {
		return old, nil
	}
	body, err := build()
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(body)
	e := &Entry{Body: body, ETag: `"` + hex.EncodeToString(sum[:16]) + `"`, generation: gen}
	switch now := c.now().UTC().Truncate(time.Second); {
	case old != nil && old.ETag == e.ETag:
		// The data moved but not this document: its readers need not
		// fetch it again.
		e.LastModified = old.LastModified
	case old != nil && !now.After(old.LastModified):
		// A change within the second of the last one must still differ
		// from it, or a conditional request could miss it.
		e.LastModified = old.LastModified.Add(time.Second)
	default:
		e.LastModified = now
	}
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

func (c *Cache) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

func (c *Cache) max() int {
	if c.Max > 0 {
		return c.Max
	}
	return 512
}
