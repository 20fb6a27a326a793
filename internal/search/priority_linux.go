package search

import (
	"syscall"
	"unsafe"
)

// schedIdle is Linux's SCHED_IDLE policy: the thread runs only when no
// thread of the normal policy wants the CPU, and yields to one the moment
// it wakes.
const schedIdle = 5

// lowerPriority puts the calling thread under SCHED_IDLE, and at nice 19
// (the lowest priority of the normal policy) where that policy is refused.
// On Linux both calls, given a thread id, change that thread alone. Any
// process may lower its own threads so; a failure leaves the thread as it
// was.
func lowerPriority() {
	tid := syscall.Gettid()
	var param struct{ priority int32 }
	_, _, errno := syscall.RawSyscall(syscall.SYS_SCHED_SETSCHEDULER, uintptr(tid), schedIdle, uintptr(unsafe.Pointer(&param)))
	if errno != 0 {
		_ = syscall.Setpriority(syscall.PRIO_PROCESS, tid, 19)
	}
}
