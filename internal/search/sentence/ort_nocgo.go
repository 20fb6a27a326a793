//go:build !cgo

package sentence

import "fmt"

// Cgo reports whether this build can load ONNX Runtime at all.
const Cgo = false

// Load always fails in a build without cgo, which cannot load a C library.
func Load(string) (string, error) {
	return "", fmt.Errorf("%w: this binary was built without cgo (CGO_ENABLED=0)", ErrNoRuntime)
}

func newRunner(Spec, int, bool) (runner, error) {
	return nil, fmt.Errorf("%w: this binary was built without cgo (CGO_ENABLED=0)", ErrNoRuntime)
}

func graphShape([]byte) (bool, int, error) {
	return false, 0, fmt.Errorf("%w: this binary was built without cgo (CGO_ENABLED=0)", ErrNoRuntime)
}
