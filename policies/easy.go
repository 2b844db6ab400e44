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
	pl      placer
	buf     []int32
	ends    byEnd       // running jobs by projected end
	scratch nodeVectors // free at the shadow, for nodes freed before it
	extra   nodeVectors // what the head leaves on its reserved nodes
	cand    []uint64    // nodes with room at the shadow
	// held[r] is the free amount of r now that jobs running past the
	// shadow cannot use because the head needs it then; valid while
	// heldOK. A quick test before scanning nodes.
	held   []sim.Amount
	heldOK bool
	// After a pass, every job then queued has been tried against the state
	// the pass left. If no job has ended since and the head is the same,
	// none of them can start now either, so only newer jobs are tried.
	lastHead *sim.JobRun
	tried    int64 // jobs with Seq < tried were tried in the last pass
	// The head's reservation (shadow and extra), kept from pass to pass
	// while it stays what reserve would compute again: see keepReservation.
	resvHead   *sim.JobRun
	resvShadow sim.Time
}

func (s *easy) Schedule(c *sim.Context) error {
	s.pl.sync(c)
	s.keepReservation(c)
	for _, j := range c.Ended() {
		s.ends.remove(j)
	}
	q := c.Queue()
	i := 0
	// Start the head while it fits; a head found unschedulable is rejected
	// and the next job becomes the head.
	for ; i < len(q); i++ {
		nodes, err := s.pl.place(c, q[i], nil, s.buf)
		if err != nil {
			return err
		}
		if q[i].Status == sim.Rejected {
			continue
		}
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
	unchanged := len(c.Ended()) == 0 && len(c.NodeChanges()) == 0 && head == s.lastHead
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
			if head != s.resvHead || s.resvShadow <= c.Now() {
				s.resvShadow = s.reserve(c, head)
				s.resvHead = head
				s.heldOK = false
			}
			shadow = s.resvShadow
			shadowKnown = true
		}
		crosses := c.Now()+j.EstimatedRuntime() > shadow
		if crosses && !s.crossingAllowed(c, j) {
			continue
		}
		var limit func(n, fit int) int
		if crosses {
			limit = func(n, fit int) int {
				if ex, ok := s.extra.get(int32(n)); ok {
					R := c.Cluster().NumResources()
					if k := sim.TasksFittingIn(ex, R, 0, j.Needs(), fit); k < fit {
						return k
					}
				}
				return fit
			}
		}
		nodes, err := s.pl.place(c, j, limit, s.buf)
		if err != nil {
			return err
		}
		if nodes == nil {
			continue
		}
		if err := s.start(c, j, nodes); err != nil {
			return err
		}
		if crosses {
			for _, n := range nodes {
				if ex, ok := s.extra.get(n); ok {
					for _, need := range j.Needs() {
						ex[need.Res] -= need.Amt
					}
				}
			}
		}
	}
	return nil
}

// keepReservation forgets the head's reservation unless what changed since
// the last pass leaves it as reserve would compute it again.
//
// Backfilled jobs leave it unchanged: one that ends by the shadow is free
// again at the shadow, and one that runs past it took only what the head
// leaves (extra, updated as it starts). A job that ends before its
// expected end E < shadow frees its nodes earlier, but from E on the
// capacity is as the reservation saw it, so the fit total before the
// shadow stays short of the head (it is monotone in time and was short at
// the last end before the shadow) and the capacity at the shadow is the
// same. Any other change recomputes: a node event, a job expected to end
// at the shadow or later, a shadow no longer in the future (running jobs
// past their estimate are then expected to end now, a time that moves).
func (s *easy) keepReservation(c *sim.Context) {
	if len(c.Ended()) > 0 || len(c.NodeChanges()) > 0 {
		s.heldOK = false
	}
	if s.resvHead == nil {
		return
	}
	stale := len(c.NodeChanges()) > 0
	for _, j := range c.Ended() {
		stale = stale || endKey(j) >= s.resvShadow
	}
	if stale {
		s.resvHead = nil
	}
}

// crossingAllowed is a necessary condition for a job that runs past the
// shadow: the free totals minus what the head holds cover it.
func (s *easy) crossingAllowed(c *sim.Context, j *sim.JobRun) bool {
	R := c.Cluster().NumResources()
	if !s.heldOK {
		s.held = s.held[:0]
		for r := 0; r < R; r++ {
			s.held = append(s.held, 0)
		}
		free := c.FreeVector()
		for _, n := range s.extra.nodes {
			ex, _ := s.extra.get(n)
			for r := 0; r < R; r++ {
				f := free[int(n)*R+r]
				if f == sim.Absent || f <= 0 {
					continue
				}
				s.held[r] += f - max(0, min(f, ex[r]))
			}
		}
		s.heldOK = true
	}
	k := sim.Amount(j.Job.Tasks)
	for _, q := range j.Needs() {
		if q.Amt*k > c.TotalFree(int(q.Res))-s.held[q.Res] {
			return false
		}
	}
	return true
}

func (s *easy) start(c *sim.Context, j *sim.JobRun, nodes []int32) error {
	if err := c.Start(j, nodes); err != nil {
		return err
	}
	s.buf = nodes
	s.ends.insert(j)
	s.heldOK = false
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
	s.scratch.reset(len(cl.Nodes), R)
	s.extra.reset(len(cl.Nodes), R)

	total := 0
	candidates(c, req, func(n int) bool {
		total += sim.TasksFittingIn(free, R, n, req, need)
		return true
	})
	shadow := sim.Forever
	for e := s.ends.cursor(); e.valid() && total < need; {
		t := e.job().ExpectedEnd(now)
		// Release every job ending at t before checking.
		for ; e.valid() && e.job().ExpectedEnd(now) == t; e.next() {
			r := e.job()
			for _, n := range r.Nodes {
				v, ok := s.scratch.get(n)
				if !ok {
					v = s.scratch.put(n, free[int(n)*R:int(n)*R+R])
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
	// The reservation: lowest-numbered nodes with room at the shadow, among
	// those with room now and those freed by then.
	s.cand = s.cand[:0]
	candidates(c, req, func(n int) bool {
		for len(s.cand) <= n/64 {
			s.cand = append(s.cand, 0)
		}
		s.cand[n/64] |= 1 << (n % 64)
		return true
	})
	for _, n := range s.scratch.nodes {
		for len(s.cand) <= int(n)/64 {
			s.cand = append(s.cand, 0)
		}
		s.cand[n/64] |= 1 << (n % 64)
	}
	left := need
	sim.ForEachNode(s.cand, func(n int) bool {
		v, ok := s.scratch.get(int32(n))
		if !ok {
			v = free[n*R : n*R+R]
		}
		k := sim.TasksFittingIn(v, R, 0, req, left)
		if k == 0 {
			return true
		}
		ex := s.extra.put(int32(n), v)
		for _, q := range req {
			ex[q.Res] -= q.Amt * sim.Amount(k)
		}
		left -= k
		return left > 0
	})
	return shadow
}
