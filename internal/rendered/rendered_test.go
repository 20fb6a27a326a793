package rendered

import (
	"testing"
	"time"
)

func TestCache(t *testing.T) {
	modified := time.Date(2026, 11, 1, 12, 0, 0, 500, time.UTC)
	c := &Cache{}
	builds := 0
	body := "a"
	build := func() ([]byte, time.Time, error) { builds++; return []byte(body), modified, nil }
	get := func(gen int64) *Entry {
		t.Helper()
		e, err := c.Get("k", gen, build)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	first := get(1)
	if get(1) != first || builds != 1 {
		t.Fatalf("the same generation rendered %d times", builds)
	}
	// LastModified is the data's time, to the second, not the time of
	// rendering.
	if !first.LastModified.Equal(modified.Truncate(time.Second)) {
		t.Errorf("LastModified = %v", first.LastModified)
	}
	same := get(2)
	if builds != 2 || same.ETag != first.ETag || !same.LastModified.Equal(first.LastModified) {
		t.Errorf("an unchanged body after a new generation: builds %d, ETag %s→%s, LastModified %v→%v",
			builds, first.ETag, same.ETag, first.LastModified, same.LastModified)
	}
	body, modified = "b", modified.Add(time.Minute)
	changed := get(3)
	if changed.ETag == same.ETag || !changed.LastModified.Equal(modified.Truncate(time.Second)) {
		t.Errorf("a changed body: ETag %s, LastModified %v", changed.ETag, changed.LastModified)
	}
	if stale, _ := c.Get("k", 2, build); stale.generation != 2 || c.entries["k"].generation != 3 {
		t.Error("an older generation replaced a newer entry")
	}
}

func TestCacheBound(t *testing.T) {
	c := &Cache{Max: 3}
	for i := range 10 {
		if _, err := c.Get(string(rune('a'+i)), 1, func() ([]byte, time.Time, error) { return []byte("x"), time.Time{}, nil }); err != nil {
			t.Fatal(err)
		}
	}
	if len(c.entries) > 3 {
		t.Errorf("%d entries, bound 3", len(c.entries))
	}
}
