package sqlite

import (
	"context"
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
