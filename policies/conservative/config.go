package conservative

import "github.com/schedsim/schedsim/sim"

// Config chooses the reservation rule and the planning delay. The zero
// value keeps reservations (a job moves only to start earlier, Mu'alem &
// Feitelson, pyss) and plans no delay.
type Config struct {
	// Repick takes every queued job, in queue order, out of the schedule
	// at every job end and puts it back at its first fit, nodes included
	// (batsched, the scheduler of Batsim).
	Repick bool
	// PlanningDelay is added to every walltime for planning only
	// (batsched's RJMS delay); jobs are still killed at their walltime.
	// It must be ≥ 0.
	PlanningDelay sim.Time
}

// New returns conservative backfilling under cfg. It starts jobs on the
// nodes of their reservations (first fit in time, lowest-numbered nodes)
// and rejects jobs that carry placement constraints.
func New(cfg Config) sim.Scheduler { return newScheduler(cfg, defaultIndexFrom) }

// newScheduler is New with the summary index built from indexFrom live
// timelines on (tests lower it to exercise the index on small clusters).
func newScheduler(cfg Config, indexFrom int) *scheduler {
	return &scheduler{rebuild: true, repick: cfg.Repick, delay: cfg.PlanningDelay, indexFrom: indexFrom}
}
