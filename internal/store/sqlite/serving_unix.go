//go:build unix

package sqlite

import (
	"errors"
	"os"
	"syscall"
)

// lockExclusive takes a non-blocking exclusive lock on f; the system drops it
// when the process ends, however it ends.
func lockExclusive(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return errLocked
	}
	return err
}
