package addrspace

import (
	"os"
	"strings"
	"syscall"
)

// arenaMaxVar bounds glibc's malloc arenas; read by the C library when the
// process starts, so it takes a new process image to change.
const arenaMaxVar = "MALLOC_ARENA_MAX"

// boundMallocArenas re-executes the program with MALLOC_ARENA_MAX=1 when
// the user has not set it. In a cgo build every thread the Go runtime
// starts calls malloc once (pthread_getattr_np, for its stack bounds),
// and glibc gives each such thread an arena of its own, reserving 64 MiB
// of address space apiece (128 MiB while it aligns it): with the Go
// runtime's own reservations, a replay under ulimit -v 1000000 ran out of
// address space at its eighth thread. One arena is plenty for the few C
// allocations a cgo build makes. The program image, arguments, other
// environment, descriptors and pid stay the same; a static (CGO_ENABLED=0)
// build has no C library and re-executes harmlessly. A failed exec is
// ignored: the run goes on as before.
func boundMallocArenas() {
	if _, set := os.LookupEnv(arenaMaxVar); set || strings.Contains(os.Getenv("GLIBC_TUNABLES"), "arena_max") {
		return
	}
	exe, err := os.Executable()
	if err != nil {
		return
	}
	_ = syscall.Exec(exe, os.Args, append(os.Environ(), arenaMaxVar+"=1"))
}
