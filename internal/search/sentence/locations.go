package sentence

import "runtime"

// EnvRuntime names the setting that gives the path of the ONNX Runtime
// shared library.
const EnvRuntime = "SIGNALS_ONNXRUNTIME"

// Locations are the names and paths tried, in order, when no path is set:
// the library's names the system's loader finds by itself (its cache,
// LD_LIBRARY_PATH, DYLD_LIBRARY_PATH), then where packages and the release
// archives usually put it.
func Locations() []string {
	if runtime.GOOS == "darwin" {
		return []string{
			"libonnxruntime.dylib",
			"/opt/homebrew/lib/libonnxruntime.dylib",
			"/usr/local/lib/libonnxruntime.dylib",
		}
	}
	return []string{
		"libonnxruntime.so",
		"libonnxruntime.so.1",
		"/usr/local/lib/libonnxruntime.so",
		"/usr/lib/libonnxruntime.so",
		"/usr/lib/x86_64-linux-gnu/libonnxruntime.so",
		"/usr/lib/aarch64-linux-gnu/libonnxruntime.so",
		"/usr/lib/onnxruntime/libonnxruntime.so",
	}
}
