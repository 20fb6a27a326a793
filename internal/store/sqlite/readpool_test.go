package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
)

// TestReadPoolStatements checks that a query is prepared once and reused,
// and that past maxStatements queries still run, unprepared.
func TestReadPoolStatements(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "signals.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	p := db.read
	first := p.stmt(ctx, "SELECT 1 + ?")
	again := p.stmt(ctx, "SELECT 1 + ?")
	if first == nil || first != again {
		t.Fatalf("the same query got statements %p and %p, want one", first, again)
	}
	for i := len(p.stmts); i < maxStatements+10; i++ {
		var n int
		if err := p.QueryRowContext(ctx, fmt.Sprintf("SELECT %d + ?", i), 1).Scan(&n); err != nil || n != i+1 {
			t.Fatalf("query %d: %d, %v", i, n, err)
		}
	}
	if len(p.stmts) != maxStatements {
		t.Errorf("%d statements kept, want the bound %d", len(p.stmts), maxStatements)
	}
	if _, err := p.QueryContext(ctx, "SELECT nonsense FROM nowhere"); err == nil {
		t.Error("a query that cannot be prepared did not fail")
	}
}

// TestReleaseMemory checks that releasing the page caches after a pass
// closes the idle read connections, whose caches go with them, and that
// reads and writes go on after it: prepared statements are prepared again
// on the new connections.
func TestReleaseMemory(t *testing.T) {
	ctx := context.Background()
	db, _ := openTemp(t)
	read := func() {
		t.Helper()
		var n int
		if err := db.read.stmt(ctx, "SELECT count(*) FROM signals WHERE id > ?").QueryRowContext(ctx, "").Scan(&n); err != nil {
			t.Fatal(err)
		}
	}
	// Several readers at once leave several idle connections.
	var conns []*sql.Conn
	for range 3 {
		c, err := db.read.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	for _, c := range conns {
		c.Close()
	}
	read()
	if idle := db.read.Stats().Idle; idle < 3 {
		t.Fatalf("%d idle read connections before, want 3 or more", idle)
	}
	if err := db.ReleaseMemory(ctx); err != nil {
		t.Fatal(err)
	}
	if idle := db.read.Stats().Idle; idle != 0 {
		t.Errorf("%d idle read connections after ReleaseMemory, want 0", idle)
	}
	read()
	if _, err := db.write.ExecContext(ctx, "PRAGMA user_version = 1"); err != nil {
		t.Fatal(err)
	}
}
