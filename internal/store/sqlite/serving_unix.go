//go:build unix && !linux

package sqlite

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
)

// openServeLock opens a lock file beside the database's real path, so that a
// symbolic link reaches the same lock. On these systems flock(2) and the
// fcntl(2) locks of SQLite may share one table, so the database file itself
// is not locked; a hard link is the operator's to avoid.
func openServeLock(path string) (*os.File, error) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil, err
	}
	return os.OpenFile(real+".serve-lock", os.O_CREATE|os.O_RDWR, 0o600)
}

// lockExclusive takes a non-blocking exclusive lock on f; the system drops it
// when the process ends, however it ends.
func lockExclusive(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return errLocked
	}
	return err
}
