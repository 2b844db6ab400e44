package script

import (
	"sync"
	"sync/atomic"
	"time"
)

// The time budget and interruption of calls. The step budget does not
// bound time: one step of s.count() over a 48 MiB string or of
// `x in list(range(2000000))` takes milliseconds, so a million steps can
// take hours. A watchdog goroutine, running while calls are made, cancels
// the thread of a call that has run longer than the time budget;
// Interrupt (SIGINT, SIGTERM) cancels the running call at once and every
// later one. Calls pay two uncontended lock pairs, no clock reading: the
// watchdog notes when it first saw a call and reads the clock itself.

// watch is a script's call-timing state.
type watch struct {
	mu      sync.Mutex
	seq     uint64 // odd while a call runs; each call adds 2
	running bool   // the watchdog goroutine is alive
	// timedOut and interrupted say why the current call's thread was
	// cancelled; timedOut is reset with the cancellation at the next call.
	timedOut    bool
	interrupted atomic.Bool
}

// begin marks the start of a call (after reset) and starts the watchdog
// if none is running.
func (s *Script) begin() {
	w := &s.watch
	w.mu.Lock()
	w.seq++
	if s.interrupted() {
		s.thread.Cancel(errInterrupted)
	}
	start := !w.running && s.timeBudget > 0
	if start {
		w.running = true
	}
	w.mu.Unlock()
	if start {
		go s.watchdog()
	}
}

// end marks the end of a call.
func (s *Script) end() {
	w := &s.watch
	w.mu.Lock()
	w.seq++
	w.mu.Unlock()
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
	if w.seq%2 == 1 {
		s.thread.Cancel(errInterrupted)
	}
}

// watchdog cancels a call that runs past the time budget. It ticks at a
// tenth of the budget and ends after a second without calls (the next
// call starts another).
func (s *Script) watchdog() {
	w := &s.watch
	tick := max(s.timeBudget/10, time.Millisecond)
	t := time.NewTicker(tick)
	defer t.Stop()
	var seen uint64 // the call last seen running
	var since, idle time.Time
	for now := range t.C {
		w.mu.Lock()
		switch {
		case w.seq%2 == 0: // between calls
			if idle.IsZero() || seen != w.seq {
				idle, seen = now, w.seq
			} else if now.Sub(idle) >= time.Second {
				w.running = false
				w.mu.Unlock()
				return
			}
		case w.seq != seen:
			seen, since, idle = w.seq, now, time.Time{}
		case now.Sub(since) >= s.timeBudget && !w.timedOut:
			w.timedOut = true
			s.thread.Cancel(errTimeBudget)
		}
		w.mu.Unlock()
	}
}

// errTimeBudget is the reason a timed-out call's thread is cancelled.
const errTimeBudget = "time budget exceeded"

// timedOut reports (on the calling goroutine, after the call) whether the
// watchdog cancelled the call that just ended.
func (s *Script) timedOut() bool {
	w := &s.watch
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.timedOut
}
