package postgres

import (
	"context"
	"strings"
	"testing"
	"time"

	"signals/internal/model"
	"signals/internal/store/postgres/pgtest"
	"signals/internal/store/storetest"
)

// The desk log is append-only: the database itself refuses to change or
// delete an entry.
func TestDeskLogIsAppendOnly(t *testing.T) {
	db := open(t, pgtest.FreshSchema(t))
	ctx := context.Background()
	storetest.Put(t, db, storetest.Sig("a", 1))
	if _, err := db.TakeDown(ctx, "a", model.Operator, "asked", time.Now()); err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{`UPDATE desk_log SET reason = 'nothing'`, `DELETE FROM desk_log`} {
		if _, err := db.pool.Exec(ctx, stmt); err == nil || !strings.Contains(err.Error(), "append-only") {
			t.Errorf("%s: %v", stmt, err)
		}
	}
}
