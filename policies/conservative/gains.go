package conservative

import (
	"math"
	"slices"

	"github.com/schedsim/schedsim/sim"
)

// gains reads the records since r's last visit at time now, for job j
// whose search for an earlier slot may look at starts in [now, before).
//
// A window for j starting before r.start that did not exist at the last
// visit (when j's slot was its first fit) holds a node that has gained
// capacity inside the window since: a node of a record overlapping it, on
// which one more task fits throughout the window now (j's own slot counted
// free). gains looks for such a window on each such node's timeline; if
// there is one it sets r.opened and returns the earliest start found,
// which no window for j can precede. Requests of several resources skip
// the node check: any overlapping record opens.
//
// lower reports, under Repick, whether a node numbered below one of r's
// own came free within r's window and now holds one more task throughout
// it: only then can re-picking the lowest-numbered nodes give another set.
// lowest is then the lowest such node. r's nodes were the lowest-numbered
// free over its window at its last visit (first fit), and below lowest no
// node has gained room for a task since (none came free within the window,
// or its record's stretch bound admits no task, or it has no room now), so
// the nodes under both lowest and r's own hold none of its tasks, and a
// re-pick can start there.
//
// It moves r's read position to the end of the log.
func (s *scheduler) gains(j *sim.JobRun, r *reservation, now, before sim.Time, base []sim.Amount) (from sim.Time, lower bool, lowest int32) {
	recs, ok := s.freed.since(r.freedSeen)
	r.freedSeen = s.freed.pos()
	from, lowest = sim.Forever, math.MaxInt32
	if !ok {
		r.opened = true
		return now, true, 0
	}
	highest := int32(-1)
	if n := len(r.nodes); n > 0 {
		highest = r.nodes[n-1]
	}
	d := max(r.dur, 1)
	end := r.start + d
	res, unit, countable := countBased(j.Needs(), 1)
	for i := range recs {
		f := &recs[i]
		// ruled: no window of r's length starting up to r's own start
		// holds a task on f's timelines (a record that stands for every
		// node has no bound).
		ruled := countable && f.longest.rules(res, unit, d, r.start+1)
		if ruled && f.apartFrom(r.nodes) {
			// And none of f's nodes is r's: both checks below would pass
			// it. Most records, first.
			continue
		}
		if f.to <= now || f.empty() {
			continue // in the past, or nothing: no window can use it
		}
		// A window starting in [lo, hi) overlaps the record.
		lo, hi := max(now, f.from-d+1), min(before, f.to)
		if lo < hi && lo < from {
			switch {
			case f.everything() || !countable:
				r.opened, from = true, now
			case f.longest.rules(res, unit, d, min(hi, from)) && f.apartFrom(r.nodes):
				// Ruled out on f's timelines, and no node of f is r's: the
				// case of most records, decided here without a call.
			default:
				if t, ok := s.newWindow(j, r, f, res, unit, lo, min(hi, from), base); ok {
					r.opened, from = true, t
				}
			}
		}
		if !s.repick || f.from >= end || f.to <= r.start {
			continue // nothing came free within r's window
		}
		// r's window overlaps f: a task fits throughout it only in a
		// stretch the record's bound admits, so a record the bound rules
		// out gave none of its nodes room for one.
		if ruled {
			continue
		}
		switch {
		case f.everything():
			lowest, lower = 0, true
		case f.lowest < min(lowest, highest):
			if n, ok := s.lowestRoom(j, r, f, min(lowest, highest), base); ok {
				lowest, lower = n, true
			}
		}
	}
	return from, lower, lowest
}

// representatives returns one node of each distinct timeline among f's
// nodes, the lowest, computed once per profile version. Nodes without a
// timeline each stand for themselves.
func (s *scheduler) representatives(f *freed) []int32 {
	p := s.prof
	fn := f.nodes
	if fn.reps != nil && fn.repsAt == p.version {
		return fn.reps
	}
	p.epoch++
	fn.reps, fn.repsAt = fn.reps[:0], p.version
	var prev *timeline
	for _, n := range fn.list {
		if l, has := p.lineOf(int(n)); has {
			if l == prev || l.mark == p.epoch {
				continue // neighbours mostly share a timeline: no load then
			}
			l.mark, prev = p.epoch, l
		}
		fn.reps = append(fn.reps, n)
	}
	return fn.reps
}

// fitsOne reports whether one task of j fits on node n, which has no
// timeline, for good.
func (s *scheduler) fitsOne(j *sim.JobRun, n int32, base []sim.Amount) bool {
	return sim.TasksFittingIn(base, s.prof.R, int(n), j.Needs(), 1) >= 1
}

// newWindow returns the earliest start in [lo, hi) (hi ≤ r.start) of a
// window of r's length in which one more task of j (unit of res) fits
// throughout on one of f's nodes, with j's own slot counted free on those
// of f's nodes that are j's own: each distinct timeline among f's nodes is
// searched once, and each of f's nodes that is also r's once more with r's
// tasks there added back.
func (s *scheduler) newWindow(j *sim.JobRun, r *reservation, f *freed, res int, unit sim.Amount, lo, hi sim.Time, base []sim.Amount) (sim.Time, bool) {
	p := s.prof
	d := max(r.dur, 1)
	best, found := hi, false
	// search looks on l for a window before best and reports whether the
	// search is over (a window at lo: none can be earlier).
	search := func(l *timeline, own slot) bool {
		if t, ok := p.firstWindowCount(l, d, res, unit, lo, best, own); ok {
			best, found = t, true
			return t == lo
		}
		return false
	}
	if !f.longest.rules(res, unit, d, hi) {
		for _, n := range s.representatives(f) {
			l, has := p.lineOf(int(n))
			if !has {
				if s.fitsOne(j, n, base) {
					return lo, true
				}
				continue
			}
			if p.fitsFor(l, res, unit).mayFit(d, best) && search(l, slot{}) {
				return best, true
			}
		}
		if !found {
			// Measured again whenever a search comes back empty: the
			// bookings made since the last measure mostly tightened it,
			// and later jobs it rules skip the record.
			n, tail := s.longestStretch(f, res, unit)
			f.longest = stretchBound{measured: true, res: int32(res), unit: unit, len: n, tail: tail}
		}
	}
	// The nodes f and r share, walking both sorted lists, galloping over
	// the stretches of one that the other skips.
	if f.apartFrom(r.nodes) {
		return best, found
	}
	rn := r.nodes
	fn := f.nodes.list
	var last *timeline
	lastTasks := 0
	for k, i := 0, 0; k < len(fn) && i < len(rn); {
		switch n := fn[k]; {
		case n < rn[i]:
			k = gallop(fn, k, rn[i])
		case n > rn[i]:
			i = gallop(rn, i, n)
		default:
			tasks := 0
			for ; i < len(rn) && rn[i] == n; i++ {
				tasks++
			}
			for ; k < len(fn) && fn[k] == n; k++ {
			}
			l := p.lines[n] // a reserved node has a timeline
			if l == last && tasks == lastTasks {
				continue // searched already
			}
			last, lastTasks = l, tasks
			own := slot{from: r.start, to: r.start + d, amt: sim.Amount(tasks) * unit}
			if !p.fitsFor(l, res, unit).mayFit(d, best) && !p.roomAt(l, res, unit, own.from-1) {
				// No window before best lies where a task fits, nor reaches
				// into the own slot (it would hold the instant before).
				continue
			}
			if search(l, own) {
				return best, true
			}
		}
	}
	return best, found
}

// longestStretch measures the stretches of time from now on in which one
// task of unit of res fits throughout on one of f's nodes, among those that
// overlap [f.from, f.to): the length of the longest that ends, and the
// earliest start of one that lasts for good (Forever: none).
func (s *scheduler) longestStretch(f *freed, res int, unit sim.Amount) (longest, tail sim.Time) {
	p := s.prof
	from := max(f.from, p.now)
	tail = sim.Forever
	if from >= f.to {
		return 0, tail
	}
	for _, n := range s.representatives(f) {
		l, has := p.lineOf(int(n))
		if !has {
			// Untouched: free for good (or never, and then no stretch at
			// all); a bound that rules nothing.
			return sim.Forever, p.now
		}
		times, R := l.times, p.R
		room := func(i int) bool { return l.free[i*R+res] >= unit }
		// i: the segment holding from; back to where its stretch starts.
		i := max(segmentAt(times, from), 0)
		for i > 0 && room(i) && room(i-1) {
			i-- // the stretch began earlier; its length counts from now
		}
		for i < len(times) && times[i] < f.to {
			if !room(i) {
				i++
				continue
			}
			a := max(times[i], p.now)
			for i < len(times) && room(i) {
				i++
			}
			if i == len(times) {
				tail = min(tail, a)
				break
			}
			longest = max(longest, times[i]-a)
		}
	}
	return longest, tail
}

// gallop returns the first index after i of an entry of the sorted nodes
// at or above target, given nodes[i] < target: steps of doubling length,
// then a binary search, so a long stretch below target costs its logarithm
// and a short one a step or two.
func gallop(nodes []int32, i int, target int32) int {
	if i+1 == len(nodes) || nodes[i+1] >= target {
		return i + 1 // the usual case: a step
	}
	lo, step := i, 1 // nodes[lo] < target
	for lo+step < len(nodes) && nodes[lo+step] < target {
		lo += step
		step *= 2
	}
	j, _ := slices.BinarySearch(nodes[lo+1:min(lo+step, len(nodes))], target)
	return lo + 1 + j
}

// lowestRoom returns the lowest of f's nodes numbered below limit on which
// one more task of j fits throughout r's window, if there is one. The
// booked slot is r's own on r's nodes, so a task more fits only where there
// is room beyond it. The representatives are in node order, and each is
// the lowest node of its timeline among f's.
func (s *scheduler) lowestRoom(j *sim.JobRun, r *reservation, f *freed, limit int32, base []sim.Amount) (int32, bool) {
	p := s.prof
	d := max(r.dur, 1)
	for _, n := range s.representatives(f) {
		if n >= limit {
			break
		}
		l, has := p.lineOf(int(n))
		if !has {
			if s.fitsOne(j, n, base) {
				return n, true
			}
			continue
		}
		if p.windowMin(l, r.start, d, j.Needs(), 1) >= 1 {
			return n, true
		}
	}
	return 0, false
}
