package sim

import "fmt"

// kill ends running job j now as killed, for reason: its run so far
// counts, its nodes are freed. An external scheduler's KILL_JOB comes
// here.
func (e *Engine) kill(j *JobRun, reason string) error {
	if j.Status != Running {
		return fmt.Errorf("job %s: cannot kill: it is %s", j.Job.ID, j.Status)
	}
	j.attempt++   // its pending finish event is stale…
	e.jobEvents-- // …and no longer keeps the run going
	j.finishing = Killed
	j.Reason = reason
	e.finish(j)
	return nil
}

// allSubmitted reports whether every job of the trace has been submitted:
// the trace is read to its end and no job waits on its dependencies.
func (e *Engine) allSubmitted() bool {
	if !e.traceDone || len(e.split) > 0 {
		return false
	}
	return !e.events.hasArrival && e.releases == 0 && len(e.deps.held) == 0
}
