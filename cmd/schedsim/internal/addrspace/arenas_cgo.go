//go:build cgo && linux

package addrspace

// In a cgo build every thread the Go runtime starts calls malloc once
// (pthread_getattr_np, for its stack bounds), and glibc gives each such
// thread an arena of its own, reserving 64 MiB of address space apiece
// (128 MiB while it aligns it): with the Go runtime's own reservations, a
// replay under ulimit -v 1000000 ran out of address space at its eighth
// thread, sometimes before any Go package was initialized. This C
// constructor runs when the program is loaded, before the Go runtime
// starts its first thread: under a finite address-space limit it holds
// malloc to one arena, plenty for the few C allocations a cgo build
// makes, unless the user chose otherwise (MALLOC_ARENA_MAX, or
// glibc.malloc.arena_max in GLIBC_TUNABLES). A static build
// (CGO_ENABLED=0) has no C library and needs none of this; a C library
// without glibc's arenas (musl) has no M_ARENA_MAX, and the constructor
// is then empty rather than a build error.

/*
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

__attribute__((constructor)) static void schedsim_one_malloc_arena(void) {
#ifdef M_ARENA_MAX
	struct rlimit lim;
	const char *tunables = getenv("GLIBC_TUNABLES");
	if (getrlimit(RLIMIT_AS, &lim) != 0 || lim.rlim_cur == RLIM_INFINITY) {
		return;
	}
	if (getenv("MALLOC_ARENA_MAX") != NULL || (tunables != NULL && strstr(tunables, "arena_max") != NULL)) {
		return;
	}
	mallopt(M_ARENA_MAX, 1);
#endif
}
*/
import "C"
