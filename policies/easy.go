package policies

import "github.com/schedsim/schedsim/sim"

// easy is EASY backfilling with the head's reservation on specific nodes.
//
// The head's shadow time comes from the running jobs' expected ends only.
// Until the shadow no job starts, so free capacity on every node only grows:
// the earliest time the head fits is the first expected end after which
// enough tasks fit, and a backfill candidate fits throughout [now, end) iff
// it fits now and, when it runs past the shadow, fits in what the head
// leaves on its reserved nodes ("extra", per node).
type easy struct {
	buf     []int32
	ends    byEnd                  // running jobs by projected end
	scratch map[int32][]sim.Amount // free at the shadow, for nodes freed before it
	extra   map[int32][]sim.Amount // what the head leaves on its reserved nodes
	// After a pass, every job then queued has been tried against the state
	// the pass left. If no job has ended since and the head is the same,
	// none of them can start now either, so only newer jobs are tried.
	lastHead *sim.JobRun
	tried    int64 // jobs with Seq < tried were tried in the last pass
}

func (s *easy) Schedule(c *sim.Context) error {
	for _, j := range c.Ended() {
		s.ends.remove(j)
	}
	q := c.Queue()
	i := 0
	// Start the head while it fits.
	for ; i < len(q); i++ {
		nodes := firstFit(c, q[i], nil, s.buf)
		if nodes == nil {
			break
		}
		if err := s.start(c, q[i], nodes); err != nil {
			return err
		}
	}
	if i >= len(q)-1 {
		return nil
	}
	head := q[i]
	unchanged := len(c.Ended()) == 0 && head == s.lastHead
	s.lastHead = head
	tried := s.tried
	s.tried = c.Arrived()
	shadowKnown := false
	var shadow sim.Time
	for _, j := range q[i+1:] {
		if unchanged && j.Seq < tried {
			continue
		}
		if !totalsAllow(c, j) {
			continue
		}
		if !shadowKnown {
			shadow = s.reserve(c, head)
			shadowKnown = true
		}
		crosses := c.Now()+j.EstimatedRuntime() > shadow
		var limit func(n, fit int) int
		if crosses {
			limit = func(n, fit int) int {
				if ex, ok := s.extra[int32(n)]; ok {
					R := c.Cluster().NumResources()
					if k := sim.TasksFittingIn(ex, R, 0, j.Needs(), fit); k < fit {
						return k
					}
				}
				return fit
			}
		}
		nodes := firstFit(c, j, limit, s.buf)
		if nodes == nil {
			continue
		}
		if err := s.start(c, j, nodes); err != nil {
			return err
		}
		if crosses {
			for _, n := range nodes {
				if ex, ok := s.extra[n]; ok {
					for _, need := range j.Needs() {
						ex[need.Res] -= need.Amt
					}
				}
			}
		}
	}
	return nil
}

func (s *easy) start(c *sim.Context, j *sim.JobRun, nodes []int32) error {
	if err := c.Start(j, nodes); err != nil {
		return err
	}
	s.buf = nodes
	s.ends.insert(j)
	return nil
}

// reserve finds the head's shadow time and fills s.extra with what its
// reservation leaves on each reserved node. With no possible reservation it
// returns sim.Forever and an empty extra.
func (s *easy) reserve(c *sim.Context, head *sim.JobRun) sim.Time {
	now := c.Now()
	cl := c.Cluster()
	R := cl.NumResources()
	free := c.FreeVector()
	need := head.Job.Tasks
	req := head.Needs()
	s.scratch = map[int32][]sim.Amount{}
	s.extra = map[int32][]sim.Amount{}

	fitNow := 0
	for n := range cl.Nodes {
		fitNow += sim.TasksFittingIn(free, R, n, req, need)
	}
	total := fitNow
	shadow := sim.Forever
	for i := 0; i < len(s.ends) && total < need; {
		t := s.ends[i].ExpectedEnd(now)
		// Release every job ending at t before checking.
		for ; i < len(s.ends) && s.ends[i].ExpectedEnd(now) == t; i++ {
			r := s.ends[i]
			for _, n := range r.Nodes {
				v, ok := s.scratch[n]
				if !ok {
					v = append([]sim.Amount(nil), free[int(n)*R:int(n)*R+R]...)
					s.scratch[n] = v
				}
				before := sim.TasksFittingIn(v, R, 0, req, need)
				for _, q := range r.Needs() {
					v[q.Res] += q.Amt
				}
				total += sim.TasksFittingIn(v, R, 0, req, need) - before
			}
		}
		if total >= need {
			shadow = t
		}
	}
	if shadow == sim.Forever {
		return shadow
	}
	// The reservation: lowest-numbered nodes with room at the shadow.
	left := need
	for n := 0; n < len(cl.Nodes) && left > 0; n++ {
		v, ok := s.scratch[int32(n)]
		if !ok {
			v = free[n*R : n*R+R]
		}
		k := sim.TasksFittingIn(v, R, 0, req, left)
		if k == 0 {
			continue
		}
		ex := append([]sim.Amount(nil), v...)
		for _, q := range req {
			ex[q.Res] -= q.Amt * sim.Amount(k)
		}
		s.extra[int32(n)] = ex
		left -= k
	}
	return shadow
}
