//go:build !linux

package search

// lowerPriority does nothing where a thread's priority cannot be set
// without cgo: the indexer then competes with requests as an equal.
func lowerPriority() {}
