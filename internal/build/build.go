// Package build says which build of signals is running: its version and
// commit, as `signals version`, the start-up log and signals_build_info
// report them. A release sets them at link time:
//
//	go build -ldflags "-X signals/internal/build.version=v1.4.0 -X signals/internal/build.commit=$(git rev-parse HEAD)" ./cmd/signals
//
// Otherwise they come from what the Go toolchain stamps into the binary
// (the module version and the VCS revision), or "devel" and "unknown".
package build

import (
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
)

// Set at link time (-ldflags -X) by release builds.
var (
	version string
	commit  string
)

// Info is one build's identity.
type Info struct {
	// Version is the release ("v1.4.0"), the module version the Go
	// toolchain stamped, or "devel".
	Version string
	// Commit is the VCS revision, with "+dirty" when the tree had
	// changes, or "unknown".
	Commit string
	// Go is the toolchain that built it.
	Go string
}

var (
	once sync.Once
	this Info
)

// This returns the running build's identity.
func This() Info {
	once.Do(func() { this = read(version, commit) })
	return this
}

// read is This for link-time values v and c.
func read(v, c string) Info {
	info := Info{Version: v, Commit: c, Go: runtime.Version()}
	bi, ok := debug.ReadBuildInfo()
	if ok {
		if info.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			info.Version = bi.Main.Version
		}
		if bi.GoVersion != "" {
			info.Go = bi.GoVersion
		}
		modified := false
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				if info.Commit == "" {
					info.Commit = s.Value
				}
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
		if modified && info.Commit != "" && c == "" && !strings.HasSuffix(info.Commit, "+dirty") {
			info.Commit += "+dirty"
		}
	}
	if info.Version == "" {
		info.Version = "devel"
	}
	if info.Commit == "" {
		info.Commit = "unknown"
	}
	return info
}

// String is the build as one line: "signals v1.4.0 (commit 0123abc, go1.26.0)".
func (i Info) String() string {
	return "signals " + i.Version + " (commit " + i.Commit + ", " + i.Go + ")"
}
