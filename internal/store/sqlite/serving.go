package sqlite

import (
	"errors"
	"fmt"
)

// ErrServedElsewhere means another process serves the same database file.
var ErrServedElsewhere = errors.New("another signals serve process uses this SQLite file; one process serves an SQLite file (its quota counters live in that process) — run several replicas on PostgreSQL")

// ClaimServing makes this process the only one serving the database file,
// until Close. The lock is taken on the file itself, so a symbolic or hard
// link to the same database is refused too. Operator commands (import,
// keys, set-status) do not claim it and may run beside the server.
func (db *DB) ClaimServing() error {
	f, err := openServeLock(db.path)
	if err != nil {
		return fmt.Errorf("serve lock: %w", err)
	}
	// The file stays open until Close even when the lock is refused:
	// closing a descriptor of the database file would drop the POSIX locks
	// SQLite holds on it in this process.
	db.serveLock = f
	if err := lockExclusive(f); err != nil {
		if errors.Is(err, errLocked) {
			return ErrServedElsewhere
		}
		return fmt.Errorf("serve lock: %w", err)
	}
	return nil
}

var errLocked = errors.New("locked")
