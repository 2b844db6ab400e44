package sim

// Observer receives the engine's events in order. Recorders (package
// metrics) and the invariant checker are observers. Observers must not
// change what they are given.
type Observer interface {
	// Submitted is called when a job arrives, before it is queued or rejected.
	Submitted(now Time, j *JobRun)
	// Started is called when a job's tasks are placed and start.
	Started(now Time, j *JobRun)
	// Ended is called when a job completes or is killed.
	Ended(now Time, j *JobRun)
	// Rejected is called when a job can never run; j.Reason says why.
	Rejected(now Time, j *JobRun)
	// Stepped is called once per event time, after the scheduling pass.
	Stepped(now Time, c *Context)
	// Finished is called once at the end of the run with the jobs still
	// queued or running at the horizon.
	Finished(now Time, c *Context)
}
