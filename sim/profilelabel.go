package sim

import (
	"context"
	"runtime/pprof"
)

// LabelGoroutine names the calling goroutine's part of a replay (engine,
// read, record, encode, finish) in CPU profiles: `go tool pprof -tags` splits
// the CPU time by part. The engine's goroutine runs one step after another,
// so its part bounds the wall time from below however many cores the
// others get. Setting a label costs nothing measurable when no profile is
// taken.
func LabelGoroutine(part string) {
	pprof.SetGoroutineLabels(pprof.WithLabels(context.Background(), pprof.Labels("part", part)))
}
