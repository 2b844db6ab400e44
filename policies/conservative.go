package policies

import (
	"github.com/schedsim/schedsim/sim"
)

// conservative is conservative backfilling: every queued job holds a
// reservation on specific nodes. A job gets its reservation when it
// arrives (the earliest slot in the profile of running jobs and earlier
// reservations) and keeps it, so no job is ever delayed by a later one.
// When jobs end (early, the usual case), reservations are compressed: each
// queued job in queue order gives up its slot and takes the earliest one
// available, as in pyss and Mu'alem & Feitelson (2001). A job starts when
// its reservation comes due.
//
// The profile persists between passes and is updated incrementally: an
// early end gives back [end, expected end) on the job's nodes.
type conservative struct {
	prof    *profile
	res     map[*sim.JobRun]*reservation
	events  []fitEvent
	rebuild bool
}

type reservation struct {
	start sim.Time
	dur   sim.Time
	nodes []int32 // node of each task
}

func newConservative() *conservative {
	return &conservative{res: map[*sim.JobRun]*reservation{}, rebuild: true}
}

func (s *conservative) Schedule(c *sim.Context) error {
	now := c.Now()
	base := c.FreeVector()
	compress := len(c.Ended()) > 0
	if s.rebuild || s.prof == nil {
		s.build(c)
	} else {
		s.prof.advance(now)
		for _, j := range c.Ended() {
			// The profile assumed j ran until its expected end.
			s.giveBack(j, base, j.End)
		}
	}
	// A running job past its estimate (walltime kill disabled) breaks the
	// projection: it holds its nodes beyond what the profile assumed.
	for _, j := range c.Running() {
		if j.Start+j.EstimatedRuntime() <= now {
			s.rebuild = true
		}
	}
	if s.rebuild {
		s.build(c)
	}
	q := c.Queue()
	if compress {
		for _, j := range q {
			r, ok := s.res[j]
			if !ok {
				continue
			}
			s.place(r, j, base, -1)
			if err := s.reserve(c, j, r); err != nil {
				return err
			}
		}
	}
	for _, j := range q {
		if _, ok := s.res[j]; ok {
			continue
		}
		r := &reservation{dur: j.EstimatedRuntime()}
		if err := s.reserve(c, j, r); err != nil {
			return err
		}
		s.res[j] = r
	}
	next := sim.Forever
	for _, j := range q {
		r := s.res[j]
		if r == nil {
			continue
		}
		if r.start != now {
			next = min(next, r.start)
			continue
		}
		delete(s.res, j)
		if err := c.Start(j, r.nodes); err != nil {
			return err
		}
	}
	c.WakeAt(next)
	return nil
}

// reserve finds j's earliest slot and books it in the profile.
func (s *conservative) reserve(c *sim.Context, j *sim.JobRun, r *reservation) error {
	t, nodes, ok, ev := s.prof.earliest(c.FreeVector(), len(c.Cluster().Nodes), j.Needs(), j.Job.Tasks, r.dur, s.events)
	s.events = ev
	if !ok {
		// Cannot happen for a job the engine accepted (it fits the empty
		// cluster, and every reservation ends); keep it far away anyway.
		r.start, r.nodes = sim.Forever, nil
		return nil
	}
	r.start, r.nodes = t, nodes
	s.place(r, j, c.FreeVector(), 1)
	return nil
}

// place books (sign 1) or frees (sign −1) r in the profile.
func (s *conservative) place(r *reservation, j *sim.JobRun, base []sim.Amount, sign sim.Amount) {
	if r.nodes == nil {
		return
	}
	end := r.start + max(r.dur, 1)
	for _, n := range r.nodes {
		s.prof.add(n, base, r.start, end, j.Needs(), 1, -sign)
	}
}

// giveBack returns a job's capacity from `from` to its expected end.
func (s *conservative) giveBack(j *sim.JobRun, base []sim.Amount, from sim.Time) {
	exp := j.Start + max(j.EstimatedRuntime(), 1)
	if from >= exp {
		return
	}
	for _, n := range j.Nodes {
		s.prof.add(n, base, from, exp, j.Needs(), 1, 1)
	}
}

// build starts the profile afresh from the engine's state: running jobs end
// at their expected ends; reservations are booked again.
func (s *conservative) build(c *sim.Context) {
	s.rebuild = false
	now := c.Now()
	s.prof = newProfile(c.Cluster().NumResources(), now)
	base := c.FreeVector()
	for _, j := range c.Running() {
		end := j.ExpectedEnd(now)
		if end == now {
			end = now + 1 // expected to end any moment
		}
		for _, n := range j.Nodes {
			s.prof.add(n, base, end, sim.Forever, j.Needs(), 1, 1)
		}
	}
	for _, j := range c.Queue() {
		if r, ok := s.res[j]; ok && j.Status == sim.Queued {
			s.place(r, j, base, 1)
		}
	}
}
