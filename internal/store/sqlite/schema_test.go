package sqlite

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"signals/internal/golden"
)

// TestSchemaIsTheMigrations dumps the schema every migration together
// makes, table by table (its definition, then its indexes and triggers),
// and compares it with schema.sql: the one place to read a table's current
// shape. A migration that changes the schema fails here until
// go test -update rewrites the file.
func TestSchemaIsTheMigrations(t *testing.T) {
	path := filepath.Join(t.TempDir(), "signals.db")
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	conn, err := sql.Open("sqlite", fileDSN(path)+"&mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	rows, err := conn.Query(`SELECT sql FROM sqlite_schema
		WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'
		ORDER BY tbl_name, CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 ELSE 2 END, name`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	b.WriteString("-- The SQLite schema after every migration in migrations/, table by table.\n" +
		"-- Generated: go test -run TestSchemaIsTheMigrations -update ./internal/store/sqlite/\n")
	for rows.Next() {
		var stmt string
		if err := rows.Scan(&stmt); err != nil {
			t.Fatal(err)
		}
		b.WriteString("\n" + strings.TrimSpace(stmt) + ";\n")
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	golden.Text(t, "schema.sql", []byte(b.String()))
}
