package cli

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for the writer's timer goroutine.
type syncBuffer struct {
	mu     sync.Mutex
	b      bytes.Buffer
	writes int
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.writes++
	return s.b.Write(p)
}

func (s *syncBuffer) String() (string, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String(), s.writes
}

func TestLogWriterGathersLines(t *testing.T) {
	var out syncBuffer
	l := newLogWriter(&out)
	for i := range 100 {
		l.Write([]byte("line " + string(rune('a'+i%26)) + "\n"))
	}
	if got, _ := out.String(); got != "" {
		t.Fatalf("written before the flush: %q", got)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		got, writes := out.String()
		if strings.Count(got, "\n") == 100 {
			if writes != 1 {
				t.Errorf("100 lines in %d writes, want 1", writes)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("lines not written within 5 s: %d", strings.Count(got, "\n"))
		}
		time.Sleep(logFlushEvery / 5)
	}

	// A full buffer is written at once; Close writes the rest, and lines
	// after it go straight through.
	big := bytes.Repeat([]byte("x"), logFlushSize)
	l.Write(big)
	if got, _ := out.String(); len(got) < logFlushSize {
		t.Errorf("a full buffer waited: %d bytes written", len(got))
	}
	l.Write([]byte("last\n"))
	l.Close()
	l.Write([]byte("after\n"))
	if got, _ := out.String(); !strings.HasSuffix(got, "last\nafter\n") {
		t.Errorf("after Close: ends %q", got[max(0, len(got)-20):])
	}
}
