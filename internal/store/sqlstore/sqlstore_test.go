package sqlstore

import "testing"

func TestRebind(t *testing.T) {
	tests := []struct{ in, want string }{
		{`SELECT 1`, `SELECT 1`},
		{`SELECT ? + ?`, `SELECT $1 + $2`},
		{`id IN (?, ?, ?) LIMIT ?`, `id IN ($1, $2, $3) LIMIT $4`},
		{`?`, `$1`},
	}
	for _, tt := range tests {
		if got := Rebind(tt.in); got != tt.want {
			t.Errorf("Rebind(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
