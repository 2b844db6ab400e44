package conservative

import (
	"github.com/schedsim/schedsim/policies/internal/byend"
	"github.com/schedsim/schedsim/sim"
)

// scheduler is conservative backfilling (the package comment says how it
// is layered). Node events (failures, drains) are not modelled: the
// caller that builds the engine refuses them with conservative
// backfilling.
type scheduler struct {
	prof    *profile
	running byend.List
	rebuild bool
	memo    shapeMemo  // failed searches of the totals (or the one node)
	exact   shapeMemos // failed node-level searches, per task amount
	// repick re-places every queued job at every job end (Config.Repick);
	// otherwise a reservation moves only to start earlier.
	repick bool
	// delay is added to every walltime for planning (Config).
	delay sim.Time
	// freed logs every gain of capacity with its nodes; passStart is its
	// position when the last compression pass began.
	freed     freedLog
	passStart int64
	// indexFrom is the profile's indexFrom (defaultIndexFrom).
	indexFrom int
}

// grew logs that capacity came back (f) and clears the memo if that can
// open a window it ruled out.
func (s *scheduler) grew(f freed) {
	s.prof.grew(f.to)
	s.freed.add(f)
	s.memo.clearIfOpened(f.from)
	s.exact.clearIfOpened(f.from)
}

// reservation is a queued job's slot in the plan (JobRun.PolicyState).
type reservation struct {
	start sim.Time
	dur   sim.Time
	nodes []int32 // node of each task, in node order
	seen  int64   // profile growth log position when last placed
	// opened: capacity freed since the job was last found unable to start
	// earlier overlaps a window starting before start (gains).
	opened    bool
	freedSeen int64 // freed log position when last visited
}

// planned is how long the plan holds j's nodes: its estimate plus the
// planning delay, at least an instant (a zero-length job still needs its
// nodes at the instant it runs).
func (s *scheduler) planned(j *sim.JobRun) sim.Time {
	return max(j.EstimatedRuntime()+s.delay, 1)
}

// reservationOf returns j's reservation, if it has one.
func reservationOf(j *sim.JobRun) *reservation {
	r, _ := j.PolicyState.(*reservation)
	return r
}

func (s *scheduler) Schedule(c *sim.Context) error {
	now := c.Now()
	base := c.FreeVector()
	compress := len(c.Ended()) > 0
	for _, j := range c.Ended() {
		s.running.Remove(j)
	}
	// A running job past its estimate (walltime kill disabled) breaks the
	// projection: it holds its nodes beyond what the profile assumed.
	if first := s.running.First(); first != nil && byend.Key(first)+s.delay <= now {
		s.rebuild = true
	}
	if s.rebuild || s.prof == nil {
		s.build(c)
	} else {
		s.prof.advance(now)
		for _, j := range c.Ended() {
			// The profile assumed j ran until its expected end.
			s.giveBack(j, base, j.End)
		}
	}
	s.replanMissed(c, base)
	q := c.Queue()
	if compress {
		s.freed.trim(s.passStart)
		s.passStart = s.freed.pos()
	}
	switch {
	case compress && s.repick:
		// batsched's order: every queued job, new ones included, in queue
		// order.
		for _, j := range q {
			if r := reservationOf(j); r != nil {
				s.settle(c, j, r)
			} else if err := s.admit(c, j); err != nil {
				return err
			}
		}
	case compress:
		for _, j := range q {
			if r := reservationOf(j); r != nil {
				s.settle(c, j, r)
			}
		}
	}
	for _, j := range q {
		if reservationOf(j) == nil {
			if err := s.admit(c, j); err != nil {
				return err
			}
		}
	}
	next := sim.Forever
	for _, j := range q {
		r := reservationOf(j)
		if r == nil {
			continue
		}
		if r.start != now {
			next = min(next, r.start)
			continue
		}
		j.PolicyState = nil
		if err := c.Start(j, r.nodes); err != nil {
			return err
		}
		s.running.Insert(j)
	}
	c.WakeAt(next)
	return nil
}

// replanMissed books again, at its earliest slot from now, every queued
// job whose reservation's start went by without a pass, in queue order.
// That happens only under a scheduling cycle (sim.Cycle), where the
// scheduler runs at ticks and a reservation's start need not be one. The
// profile has already dropped the part of the slot before now (advance),
// so taking the slot out frees what is left of it.
func (s *scheduler) replanMissed(c *sim.Context, base []sim.Amount) {
	now := c.Now()
	for _, j := range c.Queue() {
		r := reservationOf(j)
		if r == nil || j.Status != sim.Queued || r.start >= now || r.nodes == nil {
			continue
		}
		old := *r
		s.place(r, j, base, -1)
		s.reserve(c, j, r, now, sim.Forever)
		if end := old.start + max(old.dur, 1); end > now {
			s.grew(nodesFreed(old.nodes, now, end))
		}
	}
}

// admit gives a queued job without a reservation its first fit, or
// rejects it when it carries placement constraints.
func (s *scheduler) admit(c *sim.Context, j *sim.JobRun) error {
	if j.Status != sim.Queued {
		return nil
	}
	if j.Job.Traits != nil {
		// Reservations are first fit in time on the lowest-numbered
		// nodes: they do not model a job's own constraints.
		return c.Reject(j, "conservative backfilling does not apply placement constraints; use backfill none or easy")
	}
	r := &reservation{dur: s.planned(j)}
	s.reserve(c, j, r, c.Now(), sim.Forever)
	j.PolicyState = r
	return nil
}

// reserve books j's earliest slot starting in [from, before), when the
// caller knows no earlier start fits, and reports whether there was one.
func (s *scheduler) reserve(c *sim.Context, j *sim.JobRun, r *reservation, from, before sim.Time) bool {
	t, nodes, ok := s.prof.earliest(c.FreeVector(), len(c.Cluster().Nodes), j.Needs(), j.Job.Tasks, max(r.dur, 1), from, before)
	if !ok {
		// Only possible with a bound: the engine accepts only jobs that fit
		// the empty cluster, and every reservation ends.
		r.start, r.nodes = sim.Forever, nil
		return false
	}
	s.book(j, r, t, nodes, c.FreeVector())
	return true
}

// book places r at its first fit: start t on nodes.
func (s *scheduler) book(j *sim.JobRun, r *reservation, t sim.Time, nodes []int32, base []sim.Amount) {
	r.start, r.nodes = t, nodes
	r.seen = s.prof.logged()
	// First fit: no earlier window holds all the tasks.
	r.opened, r.freedSeen = false, s.freed.pos()
	s.place(r, j, base, 1)
}

// place books (sign 1) or frees (sign −1) r in the profile.
func (s *scheduler) place(r *reservation, j *sim.JobRun, base []sim.Amount, sign sim.Amount) {
	if r.nodes == nil {
		return
	}
	s.prof.addNodes(r.nodes, base, r.start, r.start+max(r.dur, 1), j.Needs(), -sign)
}

// giveBack returns a job's capacity from `from` to its expected end.
func (s *scheduler) giveBack(j *sim.JobRun, base []sim.Amount, from sim.Time) {
	exp := j.Start + s.planned(j)
	if from >= exp {
		return
	}
	s.prof.addNodes(j.Nodes, base, from, exp, j.Needs(), 1)
	s.grew(nodesFreed(j.Nodes, from, exp))
}

// build starts the profile afresh from the engine's state: running jobs end
// at their expected ends; reservations are booked again.
func (s *scheduler) build(c *sim.Context) {
	s.rebuild = false
	now := c.Now()
	R := c.Cluster().NumResources()
	totals := make([]sim.Amount, R)
	for r := range totals {
		totals[r] = c.TotalFree(r)
	}
	var version uint64
	if s.prof != nil {
		version = s.prof.version + 1 // the freed log's caches name the old one's
	}
	s.prof = newProfile(R, len(c.Cluster().Nodes), now, totals)
	s.prof.version, s.prof.indexFrom = version, s.indexFrom
	base := c.FreeVector()
	for _, j := range c.Running() {
		end := max(j.Start+j.EstimatedRuntime()+s.delay, now)
		if end == now {
			end = now + 1 // expected to end any moment
		}
		s.prof.addNodes(j.Nodes, base, end, sim.Forever, j.Needs(), 1)
	}
	for _, j := range c.Queue() {
		if r := reservationOf(j); r != nil && j.Status == sim.Queued {
			s.place(r, j, base, 1)
		}
	}
	// Anything may have changed: every reservation may move.
	s.grew(freed{from: now, to: sim.Forever, lowest: -1})
}
