//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package script

import "time"

// threadCPU falls back to the clock where no thread CPU clock is at hand:
// there, the time budget counts time, load included.
func threadCPU() time.Duration { return wallClock() }
