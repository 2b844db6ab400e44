package sim

import "fmt"

// Calendar is a site's rules on when a job may start, by the hour and
// the day (Config.Calendar). Batch sites long ran a run-time limit per
// time of day: a short limit in working hours, a longer one at night
// and at weekends, and sometimes "synchronization points", instants no
// job may run across, so that the machine is empty at the start of the
// working day. A job its window does not admit is held back from the
// scheduler, as a job over a user's cap is (limits.go): it is not in
// Context.Queue, holds no reservation and blocks no one; the engine runs
// a pass when the next window begins. A job that no window from its
// arrival on admits is rejected at arrival rather than held for ever, and
// so is a held job once no window still to come admits it (the window
// that would have come and went while the machine was busy, and a later
// phase's limits are lower): the engine would otherwise wake at every
// window for ever.
//
// The rule reads the job's estimated runtime (JobRun.EstimatedRuntime):
// its requested walltime when the trace has one, which is what a site's
// limit applies to.
type Calendar interface {
	// At returns the window holding t.
	At(t Time) Window
	// EverAdmits reports whether some window from t on admits a job
	// whose estimated runtime is est.
	EverAdmits(t, est Time) bool
}

// Window is a stretch of a calendar under one rule.
type Window struct {
	// End is when the next window begins; Forever when none does.
	End Time
	// MaxWalltime > 0 is the longest estimated runtime a job may start
	// with in the window; 0: no limit.
	MaxWalltime Time
	// SyncAt is the next synchronization point: a job started in the
	// window must end, by its estimated runtime, by it. Forever: none.
	SyncAt Time
}

// Admits reports whether a job of estimated runtime est may start at now,
// inside the window.
func (w Window) Admits(now, est Time) bool {
	if w.MaxWalltime > 0 && est > w.MaxWalltime {
		return false
	}
	return w.SyncAt == Forever || est <= w.SyncAt-now
}

// calendarReason is why a job the calendar will never admit is rejected.
func calendarReason(est Time) string {
	return fmt.Sprintf("no window of the calendar from now on admits its walltime of %s s: over each one's limit or, with synchronization points, longer than it", est)
}

// rejectStranded rejects the queued jobs the pass's window holds back and
// no window from now on admits. A pass runs it once a window: a job
// becomes stranded only as windows go by.
func (e *Engine) rejectStranded() {
	w := e.limits.window
	for _, j := range e.queue {
		est := j.EstimatedRuntime()
		if j.Status == Queued && !w.Admits(e.now, est) && !e.cfg.Calendar.EverAdmits(e.now, est) {
			_ = e.reject(j, calendarReason(est)) // j is queued: no error
		}
	}
}
