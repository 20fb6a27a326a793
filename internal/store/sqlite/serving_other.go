//go:build !unix

package sqlite

import "os"

// openServeLock opens the database file; no lock is taken on it here.
func openServeLock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDWR, 0)
}

// lockExclusive is not available here: the one-process rule is the
// operator's to keep.
func lockExclusive(*os.File) error { return nil }
