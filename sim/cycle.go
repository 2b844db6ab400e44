package sim

// Scheduling cycles (Config.Cycle): a real batch scheduler does not decide
// at every event. Slurm's main scheduler runs every sched_interval and its
// backfill every bf_interval, with a quick pass on submit and job end;
// Maui polls the resource manager every RMPOLLINTERVAL. With a cycle of S
// seconds the engine calls the scheduler only at multiples of S (from
// time 0 of the trace), and, when asked, also at the instants when a job
// arrived or ended. Events between two passes are applied when they happen
// (a job ends and frees its nodes at its end); the scheduler sees them at
// the next pass: Context.Ended and Context.NodeChanges then hold
// everything since the last pass, and a policy's WakeAt is served at the
// first pass at or after it.

// Cycle is when the scheduler runs. The zero value runs it at every event
// time, as without cycles.
type Cycle struct {
	// Interval > 0 runs the scheduler at multiples of it.
	Interval Time
	// OnSubmit and OnEnd also run it at an instant when a job arrived
	// (was submitted or released by its dependencies) or ended.
	OnSubmit, OnEnd bool
}

// Enabled says whether passes are restricted to a cycle.
func (c Cycle) Enabled() bool { return c.Interval > 0 }

// nextTick is the first multiple of the interval after t.
func (c Cycle) nextTick(t Time) Time { return (t/c.Interval + 1) * c.Interval }

// passDue says whether the scheduler runs at now, given which kinds of
// event were applied then.
func (c Cycle) passDue(now Time, submitted, ended bool) bool {
	return !c.Enabled() || now%c.Interval == 0 || (c.OnSubmit && submitted) || (c.OnEnd && ended)
}
