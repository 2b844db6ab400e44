package script

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"go.starlark.net/starlark"
)

// The time budget and interruption of calls. The step budget does not
// bound time: one step of s.count() over a 48 MiB string or of
// `x in list(range(2000000))` takes milliseconds, so a million steps can
// take hours. The time budget counts the CPU time of the thread running
// the call, not the clock: a replay on a loaded machine, or one of a
// sweep's parallel runs, rejects the same jobs as one on an idle machine
// (only a slower processor changes what the budget allows). A call holds
// its OS thread (runtime.LockOSThread) so that the thread's clock is the
// call's, and the clock is read every checkEvery steps, at the
// interpreter's step limit (OnMaxSteps), so short calls read no clock at
// all. Interrupt (SIGINT, SIGTERM) cancels the running call at once and
// every later one.

// checkEvery is how many steps pass between two readings of the call's
// CPU clock: about a millisecond of plain Starlark, and builtins whose
// work grows with their input charge steps for it (growth.go).
const checkEvery = 10_000

// watch is a script's call state. mu guards running and the thread
// against Interrupt, the one caller from another goroutine; the rest
// belongs to the goroutine making the calls.
type watch struct {
	mu          sync.Mutex
	running     bool // a call runs on s.thread
	interrupted atomic.Bool
	// timedOut says the current call's thread was cancelled for its time
	// budget; cpuStart is the call's CPU clock at its first checkpoint.
	timedOut bool
	cpuStart time.Duration
	cpuKnown bool
}

// begin marks the start of a call (after reset) and pins the goroutine to
// its thread for the call's CPU clock.
func (s *Script) begin() {
	runtime.LockOSThread()
	w := &s.watch
	w.mu.Lock()
	w.running = true
	if s.interrupted() {
		s.thread.Cancel(errInterrupted)
	}
	w.mu.Unlock()
}

// end marks the end of a call.
func (s *Script) end() {
	w := &s.watch
	w.mu.Lock()
	w.running = false
	w.mu.Unlock()
	runtime.UnlockOSThread()
}

// errInterrupted is the reason an interrupted call's thread is cancelled.
const errInterrupted = "interrupted (SIGINT or SIGTERM)"

// interrupted reports whether Interrupt was called.
func (s *Script) interrupted() bool { return s.watch.interrupted.Load() }

// Interrupt cancels the running call, if any, and every later call: each
// fails at once with "interrupted". It may be called from any goroutine
// (a signal handler's).
func (s *Script) Interrupt() {
	w := &s.watch
	w.mu.Lock()
	defer w.mu.Unlock()
	w.interrupted.Store(true)
	if w.running {
		s.thread.Cancel(errInterrupted)
	}
}

// checkpoint is the thread's OnMaxSteps: the step budget when it is
// reached, else the time budget, then the next checkpoint.
func (s *Script) checkpoint(th *starlark.Thread) {
	if th.Steps >= s.cfg.StepBudget {
		s.exceeded = true
		th.Cancel("step budget exceeded")
		return
	}
	if s.timeBudget > 0 {
		w := &s.watch
		now := threadCPU()
		switch {
		case !w.cpuKnown:
			w.cpuStart, w.cpuKnown = now, true
		case now-w.cpuStart >= s.timeBudget:
			w.timedOut = true
			th.Cancel(errTimeBudget)
			return
		}
	}
	s.nextCheckpoint(th)
}

// nextCheckpoint sets the thread's step limit to the next checkpoint,
// never past the step budget.
func (s *Script) nextCheckpoint(th *starlark.Thread) {
	next := s.cfg.StepBudget
	if s.timeBudget > 0 && th.Steps < s.cfg.StepBudget-checkEvery {
		next = th.Steps + checkEvery
	}
	th.SetMaxExecutionSteps(next)
}

// errTimeBudget is the reason a timed-out call's thread is cancelled.
const errTimeBudget = "time budget exceeded"

// timedOut reports (after the call) whether the call that just ended was
// cancelled for its time budget.
func (s *Script) timedOut() bool { return s.watch.timedOut }
