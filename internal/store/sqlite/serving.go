package sqlite

import (
	"errors"
	"fmt"
	"os"
)

// ErrServedElsewhere means another process serves the same database file.
var ErrServedElsewhere = errors.New("another signals serve process uses this SQLite file; one process serves an SQLite file (its quota counters live in that process) — run several replicas on PostgreSQL")

// ClaimServing makes this process the only one serving the database file,
// until Close. Operator commands (import, keys, set-status) do not claim it
// and may run beside the server.
func (db *DB) ClaimServing() error {
	f, err := os.OpenFile(db.path+".serve-lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return fmt.Errorf("serve lock: %w", err)
	}
	if err := lockExclusive(f); err != nil {
		f.Close()
		if errors.Is(err, errLocked) {
			return ErrServedElsewhere
		}
		return fmt.Errorf("serve lock: %w", err)
	}
	db.serveLock = f
	return nil
}

var errLocked = errors.New("locked")
