package cli

import (
	"io"
	"sync"
	"time"
)

// logFlushEvery is the longest a log line waits in logWriter.
const logFlushEvery = 50 * time.Millisecond

// logFlushSize is how much logWriter holds before it writes at once.
const logFlushSize = 64 << 10

// logWriter gathers the lines that many requests log at once into fewer
// writes: a line is written within logFlushEvery, a full buffer at once,
// and what is left when the server stops by Close. Under load this takes
// a system call per request off the request's path.
type logWriter struct {
	w io.Writer

	mu      sync.Mutex
	buf     []byte
	pending bool // a flush is scheduled
	closed  bool
}

func newLogWriter(w io.Writer) *logWriter { return &logWriter{w: w} }

// Write keeps p (one log line) to write soon.
func (l *logWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return l.w.Write(p)
	}
	l.buf = append(l.buf, p...)
	switch {
	case len(l.buf) >= logFlushSize:
		l.flushLocked()
	case !l.pending:
		l.pending = true
		time.AfterFunc(logFlushEvery, l.flush)
	}
	return len(p), nil
}

func (l *logWriter) flush() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.pending = false
	l.flushLocked()
}

func (l *logWriter) flushLocked() {
	if len(l.buf) == 0 {
		return
	}
	// A log that cannot be written has nowhere to say so.
	_, _ = l.w.Write(l.buf)
	l.buf = l.buf[:0]
}

// Close writes what is left; later lines are written at once.
func (l *logWriter) Close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	l.flushLocked()
}
