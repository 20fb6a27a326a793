//go:build !(cgo && linux)

package sentence

// tuneMalloc does nothing outside Linux with cgo (see malloc_linux.go).
func tuneMalloc() {}

// TrimMemory does nothing outside Linux with cgo (see malloc_linux.go).
func TrimMemory() {}
