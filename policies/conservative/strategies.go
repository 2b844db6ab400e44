package conservative

import (
	"slices"

	"github.com/schedsim/schedsim/sim"
)

// The strategies of settle. Each moves j's reservation r to its earliest
// slot, or keeps it, exactly as a full search would; they differ in what
// they read and whether they take the slot out of the profile first.

// moveOnPool is settle for a one-node profile and a one-resource request,
// the count-based pool model: it searches with the job's own slot counted
// as free instead of taking it out and putting it back, which is most of
// the cost when the job does not move. It reports whether it handled the
// job.
func (s *scheduler) moveOnPool(c *sim.Context, j *sim.JobRun, r *reservation, before sim.Time) bool {
	if len(c.Cluster().Nodes) != 1 {
		return false
	}
	l, has := s.prof.lineOf(0)
	res, need, ok := countBased(j.Needs(), j.Job.Tasks)
	if !has || !ok {
		return false
	}
	d := max(r.dur, 1)
	// Queues often hold runs of identical jobs (a user's burst), or of
	// jobs with the same requested time. If the previous failed search was
	// for the same length and at most this job's need, the profile has not
	// gained capacity since and its slot is no later than this one's, then
	// no window ending by its start (and before its bound) exists for this
	// job either: the two views differ only in slots at or after that start.
	from := s.memo.from(res, 0, need, d, r.start, c.Now())
	// The job's own slot counts free, but nothing before it does: if the
	// amount just before its start is short of the need, every window that
	// reaches the segment holding that instant fails, so a window must end
	// by the segment's start. (At the job's first fit it was short, and most
	// searches fail there.)
	last := before
	if k := segmentAt(l.times, r.start-1); l.free[k*s.prof.R+res] < need {
		last = min(before, l.times[k]-d+1)
	}
	t, found := s.prof.firstWindowCount(l, d, res, need, from, last, slot{from: r.start, to: r.start + d, amt: need})
	if !found {
		s.memo.failed(res, 0, need, d, r.start, from, before)
		return true
	}
	// Move the slot from [old, old+d) to [t, t+d), t < old, updating only
	// where the two differ.
	old := r.start
	r.start = t
	base := c.FreeVector()
	s.prof.addNodes(r.nodes, base, t, min(t+d, old), j.Needs(), -1)
	s.prof.addNodes(r.nodes, base, max(t+d, old), old+d, j.Needs(), 1)
	s.grew(nodesFreed(r.nodes, old, old+d))
	return true
}

// sweepOwn searches several tasks of one resource over every node with
// the own slot counted free (sweep): taking it out and putting it back
// would cost two updates, and most searches fail. It reports whether the
// job moved.
func (s *scheduler) sweepOwn(j *sim.JobRun, r *reservation, q settleSearch) bool {
	own := slot{from: r.start, to: r.start + q.d, amt: q.unit}
	t, ok, first := s.prof.sweep(q.base, j.Needs(), q.k, q.d, q.search, q.before, own, s.prof.ownGroups(r.nodes))
	if !ok {
		return false
	}
	old := *r
	s.place(r, j, q.base, -1)
	first = min(first, old.nodes[0]) // its own nodes, free once it is out
	s.book(j, r, t, s.prof.pickKnown(q.base, q.numNodes, j.Needs(), q.k, q.d, t, nil, int(first)), q.base)
	s.grew(nodesFreed(old.nodes, old.start, old.start+q.d))
	return true
}

// searchOneTask searches one task of one resource with the own slot
// counted free on its node, as sweepOwn does. It reports whether the job
// moved.
func (s *scheduler) searchOneTask(j *sim.JobRun, r *reservation, q settleSearch) bool {
	own := ownTask{node: r.nodes[0], slot: slot{from: r.start, to: r.start + q.d, amt: q.unit}}
	t, n, ok := s.prof.firstOne(q.base, q.numNodes, j.Needs(), q.d, q.search, q.before, own)
	if !ok {
		return false
	}
	old := *r
	s.place(r, j, q.base, -1)
	s.book(j, r, t, []int32{n}, q.base)
	s.grew(nodesFreed(old.nodes, old.start, old.start+q.d))
	return true
}

// takeOutAndSearch is settle for the requests the strategies above do not
// serve (several resources, or a one-node profile the pool search does not
// take): the slot is taken out and searched for afresh; when nothing
// earlier fits it goes back (reservations made since were made around
// it), on the lowest-numbered nodes under Repick when lower ones came
// free.
func (s *scheduler) takeOutAndSearch(c *sim.Context, j *sim.JobRun, r *reservation, q settleSearch) {
	old := *r
	s.place(r, j, q.base, -1)
	if s.reserve(c, j, r, q.search, q.before) {
		s.grew(nodesFreed(old.nodes, old.start, old.start+q.d))
		return
	}
	if q.countable {
		s.exact.failed(q.res, q.unit, q.need, q.d, old.start, q.from, q.before)
	}
	*r = old
	r.opened = false
	if q.lower {
		if nodes := s.prof.pick(q.base, q.numNodes, j.Needs(), q.k, q.d, r.start); nodes != nil {
			r.nodes = nodes
		}
	}
	s.place(r, j, q.base, 1)
	if !slices.Equal(r.nodes, old.nodes) {
		s.grew(nodesFreed(left(old.nodes, r.nodes), r.start, r.start+q.d))
	}
}

// repickNodes is Repick for a job that keeps its start: the
// lowest-numbered nodes free over the window with the job's own slot
// counted free, and the profile touched only where they differ.
func (s *scheduler) repickNodes(j *sim.JobRun, r *reservation, q settleSearch) {
	first := min(q.lowestFreed, r.nodes[0])
	nodes := s.prof.pickKnown(q.base, q.numNodes, j.Needs(), q.k, q.d, r.start, r.nodes, int(first))
	if nodes == nil || slices.Equal(nodes, r.nodes) {
		return
	}
	// Only the nodes that differ change: a re-pick mostly keeps most of a
	// large job's nodes.
	gone, came := left(r.nodes, nodes), left(nodes, r.nodes)
	s.prof.moveTasks(gone, came, q.base, r.start, r.start+q.d, j.Needs())
	r.nodes = nodes
	s.grew(nodesFreed(gone, r.start, r.start+q.d))
}

// left returns the entries of old that are not in now (both sorted).
func left(old, now []int32) []int32 {
	var out []int32
	i := 0
	for _, n := range old {
		for i < len(now) && now[i] < n {
			i++
		}
		if i < len(now) && now[i] == n {
			i++
			continue
		}
		out = append(out, n)
	}
	return out
}
