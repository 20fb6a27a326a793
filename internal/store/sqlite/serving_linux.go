package sqlite

import (
	"errors"
	"os"
	"syscall"
)

// openServeLock opens the database file itself: its lock follows the file
// (its device and inode), whatever name reaches it. Linux keeps flock(2)
// locks apart from the fcntl(2) locks SQLite takes on the same file, so the
// two never block each other.
func openServeLock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDWR, 0)
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
