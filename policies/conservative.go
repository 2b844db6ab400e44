package policies

import (
	"slices"

	"github.com/schedsim/schedsim/sim"
)

// conservative is conservative backfilling: every queued job holds a
// reservation on specific nodes. A job gets its reservation when it
// arrives (the earliest slot in the profile of running jobs and earlier
// reservations) and keeps it, so no job is ever delayed by a later one.
// When jobs end (early, the usual case), reservations are compressed: each
// queued job in queue order gives up its slot and takes the earliest one
// available, as in pyss and Mu'alem & Feitelson (2001), keeping its nodes
// when its start does not change (Keep); under Repick it also takes the
// lowest-numbered nodes free over its window then (batsched). A job starts
// when its reservation comes due.
//
// The profile persists between passes and is updated incrementally: an
// early end gives back [end, expected end) on the job's nodes.
//
// Compression is the costly part: every queued job, on every job end. Two
// facts make most of it free. A job's slot can only move earlier if
// capacity grew somewhere since it was last placed (an early end, or a job
// leaving an old slot), and then only to a start before the end of such a
// growth. The profile logs every growth; a job with none since its last
// placement is skipped, and the search of the others stops at the bound.
// A log of the capacity freed, with its nodes and times (freed.go), sharpens
// this: a new window must hold a node freed since the job's last search,
// with room for a task throughout it, so the job is searched again only
// when such a node's timeline has one, and from the earliest found; each
// record keeps a bound on the stretches its nodes have free over its span,
// so that longer jobs skip it (stretchBound). Under
// Repick, a job whose start cannot move is re-picked only when a node
// numbered below one of its own, freed within its window, now has room
// for a task throughout it. The search itself counts the job's own slot
// free instead of taking it out (sweep.go), as do one-task searches and
// Repick's re-pick of the nodes, and reads only the timelines a summary
// says may hold a task (fitsummary.go), found through an index on large
// clusters (summaryindex.go). The result is the same as
// searching every job in full (conservative_ref_test.go checks it against
// a plain version).
//
// Node events (failures, drains) are not modelled: NewPlacedBatch's caller
// refuses them with conservative backfilling.
type conservative struct {
	prof    *profile
	running byEnd
	rebuild bool
	memo    shapeMemo  // failed searches of the totals (or the one node)
	exact   shapeMemos // failed node-level searches, per task amount
	// repick re-places every queued job at every job end (Repick);
	// otherwise a reservation moves only to start earlier (Keep).
	repick bool
	// delay is added to every walltime for planning (Options).
	delay sim.Time
	// freed logs every gain of capacity with its nodes; passStart is its
	// position when the last compression pass began.
	freed     freedLog
	passStart int64
	// indexFrom is the profile's indexFrom (defaultIndexFrom).
	indexFrom int
}

// shapeMemo remembers an unsuccessful count-based search, on the one-node
// profile or on the cluster totals (see compressCount), or on the nodes
// (shapeMemos): no window for a job of that shape, or of the same length
// needing more, with a slot no earlier, starts before lowest. Reservations
// made or moved since only take capacity, which cannot open a window;
// capacity given back before lowest + dur can, and clears the memo
// (conservative.grew).
//
// A node-level search depends on how the need splits into tasks, not only
// on the total, so the exact memo also keys on the task amount (unit): more
// tasks of the same amount are a larger need. The totals memo has unit 0.
type shapeMemo struct {
	valid      bool
	res        int
	unit, need sim.Amount
	dur, start sim.Time
	lowest     sim.Time
}

// from is where a search for a job of this shape and slot start may
// begin: the memo's bound when it applies, else now.
func (m *shapeMemo) from(res int, unit, need sim.Amount, d, start, now sim.Time) sim.Time {
	if m.valid && m.res == res && m.unit == unit && need >= m.need && m.dur == d && start >= m.start {
		return max(now, m.lowest)
	}
	return now
}

// failed records a search over [from, before) that found no window.
func (m *shapeMemo) failed(res int, unit, need sim.Amount, d, start, from, before sim.Time) {
	*m = shapeMemo{valid: true, res: res, unit: unit, need: need, dur: d, start: start,
		lowest: max(from, min(before, start-d+1))}
}

// clearIfOpened clears the memo if capacity given back from `from` on can
// open a window it ruled out.
func (m *shapeMemo) clearIfOpened(from sim.Time) {
	if m.valid && from < m.lowest+m.dur {
		m.valid = false
	}
}

// shapeMemos keeps the failed node-level searches of the last few shapes:
// a queue interleaves several (users' bursts of identical jobs), which
// overwrote a single memo in turn. Each memo is a claim of its own, so a
// search may begin at the latest bound among those that apply. The
// count-based searches keep one memo: they are cheap, and a loop over
// several made the pool model's conservative replays 15 % slower.
type shapeMemos struct {
	m    [8]shapeMemo
	next int // the slot a new shape takes, round robin
}

// from is shapeMemo.from over the memos.
func (ms *shapeMemos) from(res int, unit, need sim.Amount, d, start, now sim.Time) sim.Time {
	from := now
	for i := range ms.m {
		from = max(from, ms.m[i].from(res, unit, need, d, start, now))
	}
	return from
}

// clearIfOpened is shapeMemo.clearIfOpened over the memos.
func (ms *shapeMemos) clearIfOpened(from sim.Time) {
	for i := range ms.m {
		ms.m[i].clearIfOpened(from)
	}
}

// failed records a failed search in place of the memo of the same shape
// if there is one.
func (ms *shapeMemos) failed(res int, unit, need sim.Amount, d, start, from, before sim.Time) {
	slot := -1
	for i := range ms.m {
		if m := &ms.m[i]; m.valid && m.res == res && m.unit == unit && m.need == need && m.dur == d {
			slot = i
			break
		}
	}
	if slot < 0 {
		slot, ms.next = ms.next, (ms.next+1)%len(ms.m)
	}
	ms.m[slot].failed(res, unit, need, d, start, from, before)
}

// grew logs that capacity came back (f) and clears the memo if that can
// open a window it ruled out.
func (s *conservative) grew(f freed) {
	s.prof.grew(f.to)
	s.freed.add(f)
	s.memo.clearIfOpened(f.from)
	s.exact.clearIfOpened(f.from)
}

type reservation struct {
	start sim.Time
	dur   sim.Time
	nodes []int32 // node of each task, in node order
	seen  int64   // profile growth log position when last placed
	// opened: capacity freed since the job was last found unable to start
	// earlier overlaps a window starting before start (freed.go).
	opened    bool
	freedSeen int64 // freed log position when last visited
}

func newConservative(o Options) *conservative {
	return &conservative{rebuild: true, repick: o.Reservations == Repick, delay: o.PlanningDelay, indexFrom: defaultIndexFrom}
}

// planned is how long the plan holds j's nodes: its estimate plus the
// planning delay, at least an instant (a zero-length job still needs its
// nodes at the instant it runs).
func (s *conservative) planned(j *sim.JobRun) sim.Time {
	return max(j.EstimatedRuntime()+s.delay, 1)
}

// reservationOf returns j's reservation, if it has one.
func reservationOf(j *sim.JobRun) *reservation {
	r, _ := j.PolicyState.(*reservation)
	return r
}

func (s *conservative) Schedule(c *sim.Context) error {
	now := c.Now()
	base := c.FreeVector()
	compress := len(c.Ended()) > 0
	for _, j := range c.Ended() {
		s.running.remove(j)
	}
	// A running job past its estimate (walltime kill disabled) breaks the
	// projection: it holds its nodes beyond what the profile assumed.
	if first := s.running.first(); first != nil && endKey(first)+s.delay <= now {
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
	q := c.Queue()
	switch {
	case compress:
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
		s.running.insert(j)
	}
	c.WakeAt(next)
	return nil
}

// admit gives a queued job without a reservation its first fit, or
// rejects it when it carries placement constraints.
func (s *conservative) admit(c *sim.Context, j *sim.JobRun) error {
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

// settle applies the reservation rule to j after jobs ended: it moves the
// reservation to the job's earliest slot if that is earlier (on the
// lowest-numbered nodes free there) and, under Repick, takes the
// lowest-numbered nodes free over the window when the start stays.
func (s *conservative) settle(c *sim.Context, j *sim.JobRun, r *reservation) {
	now := c.Now()
	bound, grew := s.prof.grownSince(r.seen)
	r.seen = s.prof.logged()
	if !grew || (r.start == now && (!s.repick || len(c.Cluster().Nodes) == 1)) {
		// Nothing came free since the job was placed or last looked at:
		// its slot is still its first fit.
		r.freedSeen = s.freed.pos()
		return
	}
	if r.start > now && s.compressCount(c, j, r, min(bound, r.start)) {
		return
	}
	k := j.Job.Tasks
	d := max(r.dur, 1)
	before := min(bound, r.start)
	base := c.FreeVector()
	opens, lower, lowestFreed := s.gains(j, r, now, before, base)
	earlier := r.start > now && r.opened
	// The cluster-wide totals are a necessary condition; checking them with
	// the job's own slot counted free avoids taking it out and putting it
	// back when the job cannot move.
	from := now
	res, need, countable := countBased(j.Needs(), k)
	if earlier && countable {
		// No window starts before either memo's bound, on the totals or on
		// the nodes.
		unit := j.Needs()[0].Amt
		from = max(s.memo.from(res, 0, need, d, r.start, from), s.exact.from(res, unit, need, d, r.start, from))
	}
	// The memos hold for every job of the shape; no window for this one
	// starts before the first that its nodes' gains open (gains).
	search := max(from, opens)
	if earlier {
		own := slot{from: r.start, to: r.start + d, amt: sim.Amount(k)}
		t0, ok := s.prof.firstWindowTotals(d, j.Needs(), k, search, before, own)
		if !ok {
			if countable {
				s.memo.failed(res, 0, need, d, r.start, from, before)
			}
			earlier, r.opened = false, false
		}
		search = max(search, t0)
	}
	numNodes := len(c.Cluster().Nodes)
	if earlier && countable && k > 1 && numNodes > 1 {
		// Sweep with the own slot counted free: taking it out and putting
		// it back would cost two updates, and most searches fail.
		unit := j.Needs()[0].Amt
		own := slot{from: r.start, to: r.start + d, amt: unit}
		if t, ok, first := s.prof.sweep(base, j.Needs(), k, d, search, before, own, s.prof.ownGroups(r.nodes)); ok {
			old := *r
			s.place(r, j, base, -1)
			first = min(first, old.nodes[0]) // its own nodes, free once it is out
			s.book(j, r, t, s.prof.pickKnown(base, numNodes, j.Needs(), k, d, t, nil, int(first)), base)
			s.grew(nodesFreed(old.nodes, old.start, old.start+d))
			return
		}
		s.exact.failed(res, unit, need, d, r.start, from, before)
		earlier, r.opened = false, false
	}
	if earlier && countable && k == 1 && numNodes > 1 {
		// One task: search with the own slot counted free on its node, as
		// the sweep does, rather than taking it out and putting it back.
		unit := j.Needs()[0].Amt
		own := ownTask{node: r.nodes[0], slot: slot{from: r.start, to: r.start + d, amt: unit}}
		if t, n, ok := s.prof.firstOne(base, numNodes, j.Needs(), d, search, before, own); ok {
			old := *r
			s.place(r, j, base, -1)
			s.book(j, r, t, []int32{n}, base)
			s.grew(nodesFreed(old.nodes, old.start, old.start+d))
			return
		}
		s.exact.failed(res, unit, need, d, r.start, from, before)
		earlier, r.opened = false, false
	}
	if !earlier && !lower {
		return
	}
	if !earlier {
		// Repick, same start: the lowest-numbered nodes free over the
		// window with the job's own slot counted free, and the profile
		// touched only when they differ.
		first := min(lowestFreed, r.nodes[0])
		nodes := s.prof.pickKnown(base, numNodes, j.Needs(), k, d, r.start, r.nodes, int(first))
		if nodes == nil || slices.Equal(nodes, r.nodes) {
			return
		}
		// Only the nodes that differ change: a re-pick mostly keeps most
		// of a large job's nodes.
		gone, came := left(r.nodes, nodes), left(nodes, r.nodes)
		s.prof.moveTasks(gone, came, base, r.start, r.start+d, j.Needs())
		r.nodes = nodes
		s.grew(nodesFreed(gone, r.start, r.start+d))
		return
	}
	old := *r
	s.place(r, j, base, -1)
	if earlier {
		if s.reserve(c, j, r, search, before) {
			s.grew(nodesFreed(old.nodes, old.start, old.start+d))
			return
		}
		// Nothing earlier: the old slot is still free (reservations made
		// since were made around it).
		if countable {
			s.exact.failed(res, j.Needs()[0].Amt, need, d, old.start, from, before)
		}
		*r = old
		r.opened = false
	}
	if lower {
		if nodes := s.prof.pick(base, numNodes, j.Needs(), k, d, r.start); nodes != nil {
			r.nodes = nodes
		}
	}
	s.place(r, j, base, 1)
	if !slices.Equal(r.nodes, old.nodes) {
		s.grew(nodesFreed(left(old.nodes, r.nodes), r.start, r.start+d))
	}
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

// compressCount is compress for a one-node profile and a one-resource
// request, the count-based model: it searches with the job's own slot
// counted as free instead of taking it out and putting it back, which is
// most of the cost when the job does not move. It reports whether it
// handled the job.
func (s *conservative) compressCount(c *sim.Context, j *sim.JobRun, r *reservation, before sim.Time) bool {
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

// reserve books j's earliest slot starting in [from, before), when the
// caller knows no earlier start fits, and reports whether there was one.
func (s *conservative) reserve(c *sim.Context, j *sim.JobRun, r *reservation, from, before sim.Time) bool {
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
func (s *conservative) book(j *sim.JobRun, r *reservation, t sim.Time, nodes []int32, base []sim.Amount) {
	r.start, r.nodes = t, nodes
	r.seen = s.prof.logged()
	// First fit: no earlier window holds all the tasks.
	r.opened, r.freedSeen = false, s.freed.pos()
	s.place(r, j, base, 1)
}

// place books (sign 1) or frees (sign −1) r in the profile.
func (s *conservative) place(r *reservation, j *sim.JobRun, base []sim.Amount, sign sim.Amount) {
	if r.nodes == nil {
		return
	}
	s.prof.addNodes(r.nodes, base, r.start, r.start+max(r.dur, 1), j.Needs(), -sign)
}

// giveBack returns a job's capacity from `from` to its expected end.
func (s *conservative) giveBack(j *sim.JobRun, base []sim.Amount, from sim.Time) {
	exp := j.Start + s.planned(j)
	if from >= exp {
		return
	}
	s.prof.addNodes(j.Nodes, base, from, exp, j.Needs(), 1)
	s.grew(nodesFreed(j.Nodes, from, exp))
}

// build starts the profile afresh from the engine's state: running jobs end
// at their expected ends; reservations are booked again.
func (s *conservative) build(c *sim.Context) {
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
