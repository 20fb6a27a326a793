package search

import "runtime"

// background runs functions one at a time on an operating-system thread of
// its own whose scheduling priority is the lowest the system offers
// (lowerPriority: nice 19 on Linux). The indexer embeds on it: on an idle
// machine it has the core to itself, and on a busy one the threads that
// serve requests go first and indexing takes the time they leave. Only the
// model's work runs there; the indexer reads and writes the store on its
// own goroutine, so that no database lock is held by a thread that waits
// for the CPU.
type background struct{ work chan func() }

// startBackground starts the thread; stop ends it.
func startBackground() *background {
	b := &background{work: make(chan func())}
	go func() {
		// The thread stays locked: when this goroutine returns, the thread
		// ends with it and its priority never reaches other goroutines.
		runtime.LockOSThread()
		lowerPriority()
		for f := range b.work {
			f()
		}
	}()
	return b
}

// do runs f on the thread and waits for it.
func (b *background) do(f func()) {
	done := make(chan struct{})
	b.work <- func() { defer close(done); f() }
	<-done
}

// stop ends the thread once the function it runs returns.
func (b *background) stop() { close(b.work) }
