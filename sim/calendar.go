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
// arrival on admits is rejected at arrival rather than held for ever.
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

// rejectNeverAdmitted rejects the jobs the last pass's window held back
// that no window from now on admits, the calendar having changed phase
// under them: held for ever, they would wake the engine at every window.
func (e *Engine) rejectNeverAdmitted() error {
	if e.cfg.Calendar == nil || e.limits == nil {
		return nil
	}
	for _, j := range e.limits.held {
		if j.Status == Queued && !e.cfg.Calendar.EverAdmits(e.now, j.EstimatedRuntime()) {
			if err := e.reject(j, fmt.Sprintf("its walltime of %s s is over the limit of every window of the calendar from then on", j.EstimatedRuntime())); err != nil {
				return err
			}
		}
	}
	return nil
}
