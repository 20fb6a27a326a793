package search

import (
	"syscall"
	"testing"
)

// niceOfThisThread is the calling thread's nice value (Linux's getpriority
// system call answers 20 minus it).
func niceOfThisThread(t *testing.T) int {
	t.Helper()
	p, err := syscall.Getpriority(syscall.PRIO_PROCESS, syscall.Gettid())
	if err != nil {
		t.Fatal(err)
	}
	return 20 - p
}

// schedPolicy is the calling thread's scheduling policy.
func schedPolicy(t *testing.T) int {
	t.Helper()
	p, _, errno := syscall.RawSyscall(syscall.SYS_SCHED_GETSCHEDULER, uintptr(syscall.Gettid()), 0, 0)
	if errno != 0 {
		t.Fatal(errno)
	}
	return int(p)
}

// The indexer's model runs on one thread under SCHED_IDLE; no other
// thread of the process is lowered with it.
func TestBackgroundRunsAtTheLowestPriority(t *testing.T) {
	before, beforePolicy := niceOfThisThread(t), schedPolicy(t)
	bg := startBackground()
	var policy, tid []int
	for range 3 {
		bg.do(func() {
			policy = append(policy, schedPolicy(t))
			tid = append(tid, syscall.Gettid())
		})
	}
	bg.stop()
	for i := range policy {
		if policy[i] != schedIdle || tid[i] != tid[0] {
			t.Fatalf("runs under policies %v on threads %v, want SCHED_IDLE (%d) on one thread", policy, tid, schedIdle)
		}
	}
	if after, afterPolicy := niceOfThisThread(t), schedPolicy(t); after != before || afterPolicy != beforePolicy || tid[0] == syscall.Gettid() {
		t.Errorf("the test's thread %d is at nice %d, policy %d (was %d, %d)", syscall.Gettid(), after, afterPolicy, before, beforePolicy)
	}
}
