package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"signals/internal/store"
	"signals/internal/store/storetest"
)

func TestStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		db, err := Open(context.Background(), filepath.Join(t.TempDir(), "signals.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	})
}

func TestMigrateTwice(t *testing.T) {
	path := filepath.Join(t.TempDir(), "signals.db")
	for range 2 {
		db, err := Open(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		db.Close()
	}
}
