package main

import (
	"os"
	"runtime"
	"runtime/debug"
)

// runtimeForManyRuns sets the Go runtime for a command that keeps
// workers replays going at once (sweep, tune): the cores and the
// collector below. The returned func puts back what it changed, so a
// command run in-process (the tests) leaves the runtime as it found it.
func runtimeForManyRuns(workers int) (restore func()) {
	procs := runtime.GOMAXPROCS(0)
	coresForWorkers(workers)
	restoreGC := gcForManyRuns(workers)
	return func() {
		runtime.GOMAXPROCS(procs)
		restoreGC()
	}
}

// coresForWorkers keeps workers replays on workers cores, unless the user
// set GOMAXPROCS. Each replay encodes its tables on goroutines of its own
// and the collector marks on goroutines too, so without this one worker
// kept 1.16–1.19 cores busy: --workers 1 on a shared machine took part of
// a core the user meant to leave free. Under a Slurm or Kubernetes CPU
// limit Go already sets GOMAXPROCS to the cores granted, so this changes
// nothing there when --workers matches the limit.
func coresForWorkers(workers int) {
	if _, set := os.LookupEnv("GOMAXPROCS"); set {
		return
	}
	if workers >= 1 && workers < runtime.GOMAXPROCS(0) {
		runtime.GOMAXPROCS(workers)
	}
}

// gcForManyRuns sets the garbage collector for many replays at once,
// unless the user set GOGC or GOMEMLIMIT: collecting at 5× the live heap
// instead of 2× cuts a sweep's CPU time by about a sixth (200 runs of
// 20,000 jobs, 2 workers: 11.9 → 13.9 runs/s), and a soft limit of 1 GiB
// per worker makes the collector work harder before a large trace could
// take the machine's memory. It changes no result, only when memory is
// reclaimed. restore puts back the settings it changed.
func gcForManyRuns(workers int) (restore func()) {
	var undo []func()
	if _, set := os.LookupEnv("GOGC"); !set {
		old := debug.SetGCPercent(400)
		undo = append(undo, func() { debug.SetGCPercent(old) })
	}
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		old := debug.SetMemoryLimit(int64(max(workers, 1)) << 30)
		undo = append(undo, func() { debug.SetMemoryLimit(old) })
	}
	return func() {
		for _, f := range undo {
			f()
		}
	}
}
