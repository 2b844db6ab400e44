package run

import (
	"github.com/spf13/pflag"

	"github.com/schedsim/schedsim/sim"
)

// ScheduleOnKinds are the events --schedule-on names.
var ScheduleOnKinds = []string{"submit", "end"}

// cycle is the engine's scheduling cycle of the spec.
func (c *Spec) cycle() (sim.Cycle, error) {
	var cy sim.Cycle
	if c.SchedulingIntervalS < 0 {
		return cy, c.problem("scheduling_interval_s", "want ≥ 0 seconds (0: a pass at every event), got %s", sim.FormatNumber(c.SchedulingIntervalS))
	}
	iv, err := sim.CheckSeconds(c.SchedulingIntervalS)
	if err != nil {
		return cy, c.problem("scheduling_interval_s", "%v", err)
	}
	cy.Interval = iv
	for _, k := range c.ScheduleOn {
		switch k {
		case "submit":
			cy.OnSubmit = true
		case "end":
			cy.OnEnd = true
		default:
			return cy, c.problem("schedule_on", "unknown event %q (known: submit, end)", k)
		}
	}
	if len(c.ScheduleOn) > 0 && cy.Interval == 0 {
		return cy, c.problem("schedule_on", "needs a scheduling interval (--scheduling-interval): without one the scheduler already runs at every event")
	}
	return cy, nil
}

// LimitsSpec is what a user and a queue may run at once (sim.Limits): the
// most running jobs and processors (the cluster's main resource). 0: no
// cap.
type LimitsSpec struct {
	MaxJobsPerUser   int64 `yaml:"max_jobs_per_user,omitempty"`
	MaxProcsPerUser  int64 `yaml:"max_procs_per_user,omitempty"`
	MaxJobsPerQueue  int64 `yaml:"max_jobs_per_queue,omitempty"`
	MaxProcsPerQueue int64 `yaml:"max_procs_per_queue,omitempty"`
}

func (l *LimitsSpec) bindFlags(fs *pflag.FlagSet) {
	fs.Int64Var(&l.MaxJobsPerUser, "max-jobs-per-user", l.MaxJobsPerUser, "a user runs at most this many jobs at once (Slurm's MaxJobsPerUser, Maui's MAXJOB; 0: no cap)")
	fs.Int64Var(&l.MaxProcsPerUser, "max-procs-per-user", l.MaxProcsPerUser, "a user's running jobs hold at most this many processors (the main resource: Slurm's MaxTRESPerUser=cpu=N, Maui's MAXPROC; 0: no cap)")
	fs.Int64Var(&l.MaxJobsPerQueue, "max-jobs-per-queue", l.MaxJobsPerQueue, "a queue (the trace's queue field) runs at most this many jobs at once (0: no cap)")
	fs.Int64Var(&l.MaxProcsPerQueue, "max-procs-per-queue", l.MaxProcsPerQueue, "a queue's running jobs hold at most this many processors (0: no cap)")
}

func (l *LimitsSpec) validate(c *Spec) []error {
	var errs []error
	for _, f := range []struct {
		key string
		v   int64
	}{{"max_jobs_per_user", l.MaxJobsPerUser}, {"max_procs_per_user", l.MaxProcsPerUser}, {"max_jobs_per_queue", l.MaxJobsPerQueue}, {"max_procs_per_queue", l.MaxProcsPerQueue}} {
		if f.v < 0 {
			errs = append(errs, c.problem(f.key, "want ≥ 0 (0: no cap), got %d", f.v))
		}
	}
	return errs
}

// limits merges the spec's caps with the cluster file's: the spec's win
// where set.
func (l LimitsSpec) limits(cluster sim.Limits) sim.Limits {
	pick := func(spec, file int64) int64 {
		if spec > 0 {
			return spec
		}
		return file
	}
	return sim.Limits{
		JobsPerUser: pick(l.MaxJobsPerUser, cluster.JobsPerUser), ProcsPerUser: pick(l.MaxProcsPerUser, cluster.ProcsPerUser),
		JobsPerQueue: pick(l.MaxJobsPerQueue, cluster.JobsPerQueue), ProcsPerQueue: pick(l.MaxProcsPerQueue, cluster.ProcsPerQueue),
	}
}
