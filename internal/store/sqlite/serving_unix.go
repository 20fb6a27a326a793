//go:build unix

package sqlite

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
)

// openServeLock opens the file whose lock claims the database. On Linux
// that is the database file itself: its lock follows the file (its device
// and inode), whatever name reaches it, and Linux keeps flock(2) locks
// apart from the fcntl(2) locks SQLite takes on the same file, so the two
// never block each other. On the other systems flock(2) and the fcntl(2)
// locks of SQLite may share one table, so it is a lock file beside the
// database's real path, which a symbolic link reaches too; a hard link is
// the operator's to avoid.
func openServeLock(path string) (*os.File, error) {
	if runtime.GOOS == "linux" {
		return os.OpenFile(path, os.O_RDWR, 0)
	}
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
