package conservative

import "github.com/schedsim/schedsim/sim"

// settle applies the reservation rule to j after jobs ended: it moves the
// reservation to the job's earliest slot if that is earlier (on the
// lowest-numbered nodes free there) and, under Repick, takes the
// lowest-numbered nodes free over the window when the start stays.
//
// The answer is always that of searching j in full (reference_test.go);
// the work is split into named strategies, tried in this order:
//
//   - unchanged: nothing came free since j was placed, so its slot is
//     still its first fit;
//   - moveOnPool: the pool model (one node, one resource), searched by
//     counts with the own slot counted free;
//   - then the pruning (prune) decides from the freed-capacity log, the
//     memos and the cluster totals whether j may start earlier, and from
//     when a search may begin. If it may:
//   - sweepOwn: several tasks of one resource on many nodes, a sweep with
//     the own slot counted free;
//   - searchOneTask: one task of one resource on many nodes, the same with
//     the own task counted free on its node;
//   - takeOutAndSearch: any other request: the slot taken out, searched for
//     afresh, and put back when nothing earlier fits;
//   - repickNodes: under Repick, when j keeps its start and a lower node
//     came free within its window, the lowest-numbered nodes free there.
func (s *scheduler) settle(c *sim.Context, j *sim.JobRun, r *reservation) {
	bound, done := s.unchanged(c, r)
	if done {
		return
	}
	if r.start > c.Now() && s.moveOnPool(c, j, r, min(bound, r.start)) {
		return
	}
	q := s.prune(c, j, r, bound)
	if q.earlier {
		var done bool
		switch {
		case q.countable && q.numNodes > 1 && q.k > 1:
			done = s.sweepOwn(j, r, q)
		case q.countable && q.numNodes > 1 && q.k == 1:
			done = s.searchOneTask(j, r, q)
		default:
			s.takeOutAndSearch(c, j, r, q)
			return
		}
		if done {
			return
		}
		s.exact.failed(q.res, q.unit, q.need, q.d, r.start, q.from, q.before)
		r.opened = false
	}
	if q.lower {
		s.repickNodes(j, r, q)
	}
}

// settleSearch is what the pruning leaves for the strategies: whether j
// may start earlier, and where a search for it begins and ends.
type settleSearch struct {
	// earlier: a window before the job's start may have opened (the freed
	// log, the memos and the totals did not rule it out).
	earlier bool
	// lower: under Repick, a node below one of the job's own came free
	// within its window; lowestFreed is the lowest such node.
	lower       bool
	lowestFreed int32
	// from is the memos' bound (no window starts before it), search the
	// start the strategies search from (from, or later by the freed log and
	// the totals), before the end of their starts.
	from, search, before sim.Time
	d                    sim.Time // the job's planned length, at least 1
	k                    int      // its tasks
	numNodes             int
	base                 []sim.Amount // the engine's free vector
	// countable: one resource res, unit per task, need for all k.
	countable bool
	res       int
	unit      sim.Amount
	need      sim.Amount
}

// unchanged reads the growth log: bound is the latest end of a growth since
// j's reservation r was last placed or visited. It reports true, done,
// when nothing grew, or when the job starts now and its nodes cannot
// change: its slot is still its first fit.
func (s *scheduler) unchanged(c *sim.Context, r *reservation) (bound sim.Time, done bool) {
	bound, grew := s.prof.grownSince(r.seen)
	r.seen = s.prof.logged()
	if !grew || (r.start == c.Now() && (!s.repick || len(c.Cluster().Nodes) == 1)) {
		r.freedSeen = s.freed.pos()
		return bound, true
	}
	return bound, false
}

// prune decides, without reading the job's nodes, whether j may start
// before r.start and from when: the capacity freed since its last visit
// must open a window (gains), no memo of a failed search of its shape
// rules it out, and the cluster totals, with its own slot counted free,
// must hold it. A failed totals check is remembered in the totals memo.
func (s *scheduler) prune(c *sim.Context, j *sim.JobRun, r *reservation, bound sim.Time) settleSearch {
	now := c.Now()
	q := settleSearch{
		k: j.Job.Tasks, d: max(r.dur, 1), before: min(bound, r.start),
		base: c.FreeVector(), numNodes: len(c.Cluster().Nodes), from: now,
	}
	opens, lower, lowestFreed := s.gains(j, r, now, q.before, q.base)
	q.lower, q.lowestFreed = lower, lowestFreed
	q.earlier = r.start > now && r.opened
	q.res, q.need, q.countable = countBased(j.Needs(), q.k)
	if q.countable {
		q.unit = j.Needs()[0].Amt
	}
	if q.earlier && q.countable {
		// No window starts before either memo's bound, on the totals or on
		// the nodes.
		q.from = max(s.memo.from(q.res, 0, q.need, q.d, r.start, q.from), s.exact.from(q.res, q.unit, q.need, q.d, r.start, q.from))
	}
	// The memos hold for every job of the shape; no window for this one
	// starts before the first that its nodes' gains open (gains).
	q.search = max(q.from, opens)
	if q.earlier {
		// The cluster-wide totals are a necessary condition; checking them
		// with the job's own slot counted free avoids taking it out and
		// putting it back when the job cannot move.
		own := slot{from: r.start, to: r.start + q.d, amt: sim.Amount(q.k)}
		t0, ok := s.prof.firstWindowTotals(q.d, j.Needs(), q.k, q.search, q.before, own)
		if !ok {
			if q.countable {
				s.memo.failed(q.res, 0, q.need, q.d, r.start, q.from, q.before)
			}
			q.earlier, r.opened = false, false
		}
		q.search = max(q.search, t0)
	}
	return q
}
