package postgres

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"signals/internal/store"
	"signals/internal/store/postgres/pgtest"
	"signals/internal/store/storetest"
)

// A database of the schema before migration 0016 (the current migrations
// but 0016 and those after it, and testdata/before-0016, those removed
// since) upgrades to the schema a fresh install has, and lists by
// substring the signals it held.
func TestUpgradeFromBefore0016(t *testing.T) {
	conn := pgtest.FreshSchema(t)
	storetest.Upgrade(t, func(t *testing.T) store.Store {
		schema = storetest.EarlierSchema(t, migrations, os.DirFS("testdata/before-0016"), "0016_substring_index", "0017_substring_statistics")
		defer func() { schema = migrations }()
		db, err := Open(context.Background(), conn)
		if err != nil {
			t.Fatal(err)
		}
		return db
	}, func(t *testing.T) store.Store {
		db := open(t, conn)
		// The renumbered migrations are recorded under their new versions,
		// not run again.
		if got, want := db.Migrated(), []string{"0016_substring_index", "0017_substring_statistics"}; !slices.Equal(got, want) {
			t.Errorf("the upgrade applied %v, want %v", got, want)
		}
		return db
	})
	upgraded, applied := schemaObjects(t, conn)
	fresh, freshApplied := schemaObjects(t, pgtest.FreshSchema(t))
	if !slices.Equal(upgraded, fresh) {
		t.Errorf("upgraded schema:\n%v\nfresh schema:\n%v", upgraded, fresh)
	}
	for _, v := range freshApplied {
		if !slices.Contains(applied, v) {
			t.Errorf("the upgraded database does not have migration %s", v)
		}
	}
	if slices.ContainsFunc(fresh, func(s string) bool {
		return strings.Contains(s, "signal_grams") || strings.Contains(s, "signal_trigrams")
	}) {
		t.Errorf("a fresh schema holds the earlier indexes: %v", fresh)
	}
}

// schemaObjects opens the schema of conn and lists its tables, indexes,
// functions and triggers, and the migrations it applied.
func schemaObjects(t *testing.T, conn string) (objects, applied []string) {
	db := open(t, conn)
	read := func(query string) []string { return column(t, db, query) }
	return read(`SELECT 'table ' || table_name FROM information_schema.tables WHERE table_schema = current_schema()
		UNION ALL SELECT 'column ' || table_name || '.' || column_name || ' ' || data_type FROM information_schema.columns
			WHERE table_schema = current_schema()
		UNION ALL SELECT 'index ' || indexname || ' ' || regexp_replace(indexdef, ' ON \S+\.', ' ON ') FROM pg_indexes WHERE schemaname = current_schema()
		UNION ALL SELECT 'trigger ' || trigger_name || ' ' || event_manipulation FROM information_schema.triggers
			WHERE trigger_schema = current_schema()
		UNION ALL SELECT 'function ' || routine_name FROM information_schema.routines WHERE routine_schema = current_schema()
		ORDER BY 1`),
		read(`SELECT version FROM schema_migrations ORDER BY 1`)
}

func TestRareSubstringCost(t *testing.T) {
	db := open(t, pgtest.FreshSchema(t))
	storetest.RareSubstringCost(t, db, 20000)
}
