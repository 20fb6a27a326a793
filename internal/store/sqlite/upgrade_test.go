package sqlite

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"signals/internal/store"
	"signals/internal/store/storetest"
)

// A database of the schema before migration 0011 (the current migrations
// but the new one, and testdata/before-0011, those removed since) upgrades
// to the schema a fresh install has, and lists by substring the signals it
// held.
func TestUpgradeFromBefore0011(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "signals.db")
	storetest.Upgrade(t, func(t *testing.T) store.Store {
		schema = storetest.EarlierSchema(t, migrations, os.DirFS("testdata/before-0011"), "0011_substring_index")
		defer func() { schema = migrations }()
		db, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		return db
	}, func(t *testing.T) store.Store {
		db, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		// The renumbered migrations are recorded under their new versions,
		// not run again.
		if got, want := db.Migrated(), []string{"0011_substring_index"}; !slices.Equal(got, want) {
			t.Errorf("the upgrade applied %v, want %v", got, want)
		}
		return db
	})
	upgraded, applied := schemaObjects(t, path)
	fresh, freshApplied := schemaObjects(t, filepath.Join(t.TempDir(), "fresh.db"))
	if !slices.Equal(upgraded, fresh) {
		t.Errorf("upgraded schema:\n%v\nfresh schema:\n%v", upgraded, fresh)
	}
	for _, v := range freshApplied {
		if !slices.Contains(applied, v) {
			t.Errorf("the upgraded database does not have migration %s", v)
		}
	}
	if slices.ContainsFunc(fresh, func(s string) bool { return strings.Contains(s, "trigrams") || strings.Contains(s, "fivegrams") }) {
		t.Errorf("a fresh schema holds the earlier indexes: %v", fresh)
	}
}

// schemaObjects opens the database at path and lists its tables, indexes
// and triggers, and the migrations it applied.
func schemaObjects(t *testing.T, path string) (objects, applied []string) {
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	read := func(query string) []string {
		rows, err := db.write.Query(query)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			out = append(out, s)
		}
		return out
	}
	return read(`SELECT type || ' ' || name || ' ' || coalesce(sql, '') FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY 1`),
		read(`SELECT version FROM schema_migrations ORDER BY 1`)
}

func TestRareSubstringCost(t *testing.T) {
	db, err := Open(context.Background(), filepath.Join(t.TempDir(), "signals.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	storetest.RareSubstringCost(t, db, 4000)
}
