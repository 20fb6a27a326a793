//go:build cgo && linux

package sentence

/*
#include <stdlib.h>
#if defined(__GLIBC__)
#include <malloc.h>
static void signalsMallocSettings(void) {
	mallopt(M_ARENA_MAX, 2);
	mallopt(M_MMAP_THRESHOLD, 1 << 20);
}
static void signalsMallocTrim(void) { malloc_trim(0); }
#else
static void signalsMallocSettings(void) {}
static void signalsMallocTrim(void) {}
#endif
*/
import "C"

// tuneMalloc sets how glibc's malloc, which ONNX Runtime allocates through,
// keeps memory: two arenas rather than eight per core, and every block of
// 1 MiB or more (a run's activations) mapped on its own and given back to
// the system when freed, rather than a threshold that grows with the
// largest block freed so far and keeps such blocks in the heap. Without
// them a server that indexes long texts holds hundreds of megabytes it no
// longer uses. Other C libraries are left as they are.
func tuneMalloc() { C.signalsMallocSettings() }

// TrimMemory gives back to the system the memory glibc's malloc holds free
// in its arenas, as after a long indexing pass: freed blocks below the
// mapping threshold otherwise stay in the heap, between blocks in use.
func TrimMemory() { C.signalsMallocTrim() }
