package lattice

import (
	"sort"

	"github.com/schedsim/schedsim/sim"
)

// Preemption by priority class (seed: "Preemption only moves down
// tiers"). When Config.Preemption is on, the best-scored job that cannot
// start now may stop running jobs of a strictly lower class (the job's
// Priority clamped to 0…10, as f₁) to start at once: never an equal or a
// higher class, so two jobs can never preempt each other and a chain of
// preemptions always ends (each step goes down a tier).
//
// The victims are the cheapest set that frees enough: candidates are
// ordered by class (lowest first), then by the work they would lose since
// their last checkpoint (task-seconds: run time since the last multiple
// of Job.CheckpointInterval, times the tasks; all the run time without an
// interval), then by Seq; the shortest prefix of that order after which
// the job fits (nodes, conformance, power) is taken, and then every
// victim but the last is dropped again, most expensive first, if the job
// still fits without it. The engine's Context.Preempt keeps the
// checkpointed work, charges Job.CheckpointCost when the victim resumes
// and queues it again after the pass.

// Class is a job's priority class: its Priority clamped to 0…10.
func Class(j *sim.Job) int { return min(max(j.Priority, 0), MaxPriorityClass) }

// lostIfStopped is the work (task-seconds) j would lose if stopped now:
// the engine keeps whole checkpoint intervals of its run (sim's stop).
func lostIfStopped(j *sim.JobRun, now sim.Time) sim.Time {
	// A job waiting for its nodes to wake (power-down) starts in the
	// future: it has run nothing yet.
	ran := max(now-j.Start, 0)
	saved := sim.Time(0)
	if c := j.Job.CheckpointInterval; c > 0 {
		saved = min(ran/c*c, j.Remaining())
	}
	return (ran - saved) * sim.Time(len(j.Nodes))
}

// victim is a preemption candidate with its cost.
type victim struct {
	job   *sim.JobRun
	class int
	lost  sim.Time
}

// preemptFor tries to start j (blocked now, no reservation yet) by
// stopping running jobs: with vClusters, first the borrowers on its
// vCluster's nodes (reclaim, onto its own and shared nodes only); then,
// with Config.Preemption, jobs of a lower class. It reports whether j
// started.
func (s *Scheduler) preemptFor(c *sim.Context, j *sim.JobRun, in *jobInfo, require bool) (bool, error) {
	now := c.Now()
	if s.vcs != nil {
		cands := s.victims[:0]
		for _, r := range c.Running() {
			if s.vcs.borrows(r, in.vc) {
				cands = append(cands, victim{r, Class(r.Job), lostIfStopped(r, now)})
			}
		}
		s.victims = cands
		if ok, err := s.stopFor(c, j, in, require, cands, false); ok || err != nil {
			return ok, err
		}
	}
	class := Class(j.Job)
	if !s.cfg.Preemption || class == 0 {
		return false, nil
	}
	cands := s.victims[:0]
	for _, r := range c.Running() {
		if k := Class(r.Job); k < class {
			cands = append(cands, victim{r, k, lostIfStopped(r, now)})
		}
	}
	s.victims = cands
	return s.stopFor(c, j, in, require, cands, true)
}

// stopFor stops the cheapest subset of cands after which j starts now,
// and starts it; borrow says whether j may use borrowed nodes.
func (s *Scheduler) stopFor(c *sim.Context, j *sim.JobRun, in *jobInfo, require bool, cands []victim, borrow bool) (bool, error) {
	if len(cands) == 0 {
		return false, nil
	}
	sort.Slice(cands, func(a, b int) bool {
		x, y := &cands[a], &cands[b]
		if x.class != y.class {
			return x.class < y.class
		}
		if x.lost != y.lost {
			return x.lost < y.lost
		}
		return x.job.Seq < y.job.Seq
	})
	proj := append(s.projFree[:0], c.FreeVector()...)
	s.projFree = proj
	power := c.PowerW()
	var held []int // tasks per node as the victims leave them
	if s.vcs != nil {
		held = append(s.vcs.proj[:0], s.vcs.held...)
		s.vcs.proj = held
	}
	free := func(r *sim.JobRun, sign sim.Amount) {
		for _, n := range r.Nodes {
			s.cl.Consume(proj, int(n), r.Needs(), r.Immune(), -sign)
			if held != nil && s.vcs.home[n] != "" {
				held[n] -= int(sign)
			}
		}
		power -= float64(sign) * s.pw.draw[r]
	}
	online := s.unheld(func(visit func(n int) bool) {
		for n := range s.cl.Nodes {
			if c.NodeOnline(n) && !visit(n) {
				return
			}
		}
	})
	if s.vcs != nil {
		online = s.vcs.filter(online, in.vc, borrow, held)
		if borrow {
			s.sel.prefer = func(n int32) bool { return s.vcs.home[n] == "" || s.vcs.home[n] == in.vc }
			defer func() { s.sel.prefer = nil }()
		}
	}
	fits := func() bool {
		nodes, f := s.sel.pick(j, proj, online, nil, require, s.buf)
		if f != fitOK {
			return false
		}
		s.buf = nodes
		return s.pw.fits(power, s.pw.adds(j, nodes))
	}
	m, ok := 0, false
	for m < len(cands) && !ok {
		free(cands[m].job, 1)
		m++
		ok = fits()
	}
	if !ok {
		return false, nil
	}
	take := s.take[:0]
	for range m {
		take = append(take, true)
	}
	s.take = take
	for i := m - 2; i >= 0; i-- { // cands[m-1] is needed: the prefix without it did not fit
		free(cands[i].job, -1)
		if fits() {
			take[i] = false
		} else {
			free(cands[i].job, 1)
		}
	}
	for i, v := range cands[:m] {
		if !take[i] {
			continue
		}
		if err := c.Preempt(v.job); err != nil {
			return false, err
		}
		// A stopped run ends its usage and draw now; the engine reports
		// it in no later Ended.
		s.stopped(c.Now(), v.job)
		s.preemptions++
		if !borrow { // only a reclaim keeps j at home
			s.reclaims++
		}
	}
	// Free capacity grew: fits cached as failed in this pass may fit now.
	clear(s.failed)
	nodes, why := s.tryNow(c, j, in, require, false, borrow)
	if why != fitOK {
		return false, nil // cannot happen: the projection was the engine's state
	}
	return true, s.start(c, j, nodes, false)
}

// Preemptions counts the jobs this scheduler preempted, by priority or to
// reclaim borrowed nodes; Reclaims counts the latter.
func (s *Scheduler) Preemptions() int64 { return s.preemptions }

// Reclaims counts the borrowers preempted to give nodes back home.
func (s *Scheduler) Reclaims() int64 { return s.reclaims }
