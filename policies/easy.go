package policies

import (
	"github.com/schedsim/schedsim/policies/internal/byend"
	"github.com/schedsim/schedsim/sim"
)

// easy is EASY backfilling with the head's reservation on specific nodes.
//
// The head's shadow time comes from the running jobs' expected ends only.
// Until the shadow no job starts, so free capacity on every node only grows:
// the earliest time the head fits is the first expected end after which
// enough tasks fit, and a backfill candidate fits throughout [now, end) iff
// it fits now and, when it runs past the shadow, fits in what the head
// leaves on its reserved nodes ("extra", per node).
type easy struct {
	pl   placer
	buf  []int32
	ends byend.List // running jobs by projected end
	resv headReservation
	hold headHold
	// After a pass, every job then queued has been tried against the state
	// the pass left. If no job has ended since and the head is the same,
	// none of them can start now either, so only newer jobs are tried —
	// unless caps now show a job they hid then (Context.Revealed).
	lastHead *sim.JobRun
	tried    int64 // jobs with Seq < tried were tried in the last pass
}

func (s *easy) Schedule(c *sim.Context) error {
	s.pl.sync(c)
	s.resv.ended(c)
	for _, j := range c.Ended() {
		s.hold.update(c, &s.resv, j.Nodes)
		s.ends.Remove(j)
	}
	q := c.Queue()
	i := 0
	// Start the head while it fits; a head found unschedulable is rejected
	// and the next job becomes the head.
	for ; i < len(q); i++ {
		nodes, err := s.pl.place(c, q[i], nil, nil, s.buf)
		if err != nil {
			return err
		}
		if q[i].Status == sim.Rejected {
			continue
		}
		if nodes == nil {
			break
		}
		s.resv.head = nil // the head starts: no reservation holds now
		if err := s.start(c, q[i], nodes); err != nil {
			return err
		}
	}
	if i >= len(q)-1 {
		return nil
	}
	head := q[i]
	unchanged := len(c.Ended()) == 0 && len(c.NodeChanges()) == 0 && len(c.Revealed()) == 0 && head == s.lastHead
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
			if !s.resv.keeps(c, head) {
				s.resv.compute(c, &s.ends, head)
			}
			shadow = s.resv.shadow
			shadowKnown = true
		}
		crosses := c.Now()+j.EstimatedRuntime() > shadow
		if crosses && !s.crossingAllowed(c, j) {
			continue
		}
		var limit func(n, fit int) int
		var skip []uint64
		if crosses {
			if positiveNeed(j) {
				skip = s.resv.exhausted
			}
			limit = func(n, fit int) int {
				if ex, ok := s.resv.extra.get(int32(n)); ok {
					R := c.Cluster().NumResources()
					if k := sim.TasksFittingIn(ex, R, 0, j.Needs(), fit); k < fit {
						return k
					}
				}
				return fit
			}
		}
		nodes, err := s.pl.place(c, j, limit, skip, s.buf)
		if err != nil {
			return err
		}
		if nodes == nil {
			continue
		}
		s.resv.starting(c, j, nodes)
		if err := s.start(c, j, nodes); err != nil {
			return err
		}
		if crosses {
			s.resv.takeExtra(j, nodes)
		}
		s.hold.update(c, &s.resv, nodes)
	}
	return nil
}

// crossingAllowed is a necessary condition for a job that runs past the
// shadow: the free totals minus what the head holds cover it.
func (s *easy) crossingAllowed(c *sim.Context, j *sim.JobRun) bool {
	if !s.hold.valid(&s.resv) {
		s.hold.sum(c, &s.resv)
	}
	k := sim.Amount(j.Job.Tasks)
	for _, q := range j.Needs() {
		if q.Amt*k > c.TotalFree(int(q.Res))-s.hold.total[q.Res] {
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
	s.ends.Insert(j)
	return nil
}

// positiveNeed reports whether j asks for a positive amount of something, so
// that no task of it fits where nothing is left.
func positiveNeed(j *sim.JobRun) bool {
	for _, q := range j.Needs() {
		if q.Amt > 0 {
			return true
		}
	}
	return false
}
