//go:build !unix

package sqlite

import "os"

// lockExclusive is not available here: the one-process rule is the
// operator's to keep.
func lockExclusive(*os.File) error { return nil }
