package addrspace

import (
	"io"
	"log"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// starlarkReservation is what Starlark's int optimization reserves.
const starlarkReservation = 4 << 30

// saved is the limit and log output to restore; lowered says init
// changed the limit.
var (
	saved   syscall.Rlimit
	lowered bool
	logOut  io.Writer
)

func init() {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &lim); err != nil || lim.Cur == rlimInfinity {
		return
	}
	// A finite limit: Starlark's reservation would take most of it, or
	// fail and log. Keep its log line off the terminal either way.
	logOut = log.Writer()
	log.SetOutput(io.Discard)
	used, ok := vmSize()
	if !ok || lim.Cur < used || lim.Cur-used < starlarkReservation {
		return // the reservation fails on its own
	}
	low := lim
	low.Cur = used + 1<<30 // room for the other packages' initialization
	if syscall.Setrlimit(syscall.RLIMIT_AS, &low) == nil {
		saved, lowered = lim, true
	}
}

// rlimInfinity is RLIM_INFINITY.
const rlimInfinity = ^uint64(0)

// Restore puts back the limit and the log output init changed.
func Restore() {
	if lowered {
		syscall.Setrlimit(syscall.RLIMIT_AS, &saved)
		lowered = false
	}
	if logOut != nil {
		log.SetOutput(logOut)
		logOut = nil
	}
}

// vmSize is the process's address space in use, in bytes.
func vmSize() (uint64, bool) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmSize:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10, err == nil
		}
	}
	return 0, false
}
