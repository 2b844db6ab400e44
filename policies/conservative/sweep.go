package conservative

import (
	"math"

	"github.com/schedsim/schedsim/sim"
)

// The sweep: the exact earliest window over every node, for the searches
// that a check at a few candidate starts cannot settle. Each distinct
// timeline reports how many tasks fit over the window as it slides
// (lineEvents); their sum, weighted by the nodes sharing each timeline, is
// scanned in time order for the first start where k tasks fit.

// ownGroup is the nodes of a job's own reservation that share a timeline
// and hold as many of its tasks each: a search that counts the reservation
// free (ownGroups) sweeps them with it added back.
type ownGroup struct {
	line  *timeline
	tasks int32 // the job's tasks on each node
	nodes int32 // how many such nodes
}

// ownGroups groups a reservation's nodes (sorted, one entry per task) by
// timeline and task count.
func (p *profile) ownGroups(nodes []int32) []ownGroup {
	groups := p.owned[:0]
	p.epoch++ // a timeline's mark and grp name its first group
	for i := 0; i < len(nodes); {
		n := nodes[i]
		tasks := int32(0)
		for ; i < len(nodes) && nodes[i] == n; i++ {
			tasks++
		}
		l := p.lines[n] // a reserved node has a timeline
		g := -1
		switch {
		case l.mark != p.epoch:
			l.mark, l.grp = p.epoch, int32(len(groups))
		case groups[l.grp].tasks == tasks:
			g = int(l.grp)
		default: // rare: the job has several task counts on this timeline
			for g = len(groups) - 1; g >= 0; g-- {
				if groups[g].line == l && groups[g].tasks == tasks {
					break
				}
			}
		}
		if g < 0 {
			groups = append(groups, ownGroup{line: l, tasks: tasks})
			g = len(groups) - 1
		}
		groups[g].nodes++
	}
	p.owned = groups
	return groups
}

// sweepCand is a timeline a sweep reads: mult nodes share it (the job's
// own excepted); single, when at most one task fits on a node at a time,
// is its fit summary (stretchEvents).
type sweepCand struct {
	line   *timeline
	mult   int
	single *fitSummary
}

// roomAt reports whether one task of unit of res fits on l at t.
func (p *profile) roomAt(l *timeline, res int, unit sim.Amount, t sim.Time) bool {
	i := segmentAt(l.times, t)
	return l.free[max(i, 0)*p.R+res] >= unit
}

// sweep returns the earliest t in [from, before) at which k tasks with
// request req fit throughout [t, t+d) over all nodes; base is the engine's
// free vector for nodes without a timeline. With groups (ownGroups), the
// job's own reservation own (one task's amount in own.amt) is
// counted free on its nodes; its windows must end before own.to, as those
// of a search for an earlier start do (firstWindowCount).
//
// first is a node below which none but the own nodes holds a task
// throughout any window the sweep looked at, so a pick at the start found
// may begin there (pickKnown).
func (p *profile) sweep(base []sim.Amount, req []sim.Need, k int, d, from, before sim.Time, own slot, groups []ownGroup) (t sim.Time, ok bool, first int32) {
	first = math.MaxInt32
	if from >= before {
		return 0, false, first
	}
	res, unit, countable := countBased(req, 1)
	total := 0
	for _, n := range p.untouched() {
		w := sim.TasksFittingIn(base, p.R, int(n), req, k)
		if w > 0 && first == math.MaxInt32 {
			first = n
		}
		total += w
	}
	// The own groups' nodes are swept with the slot added back, apart
	// from the other nodes sharing their timelines.
	for _, g := range groups {
		p.sums[g.line.idx].own += g.nodes
	}
	// The timelines on which some task may fit, and how many tasks they
	// could hold at most: when that is too few, there is no window.
	cands, room := p.cands[:0], total
	lines := p.live
	if countable && p.indexFor(res, unit) {
		lines = p.candidates(p.found[:0], d, before)
		p.found = lines[:0]
	}
	for _, l := range lines {
		sum := &p.sums[l.idx]
		mult := int(sum.refs - sum.own)
		if mult == 0 {
			continue
		}
		var single *fitSummary
		if countable {
			fs := &sum.fits
			if fs.unit != unit || fs.res != res {
				fs = p.summary(l.idx, res, unit)
			}
			if !fs.mayFit(d, before) {
				continue // no task fits there throughout any window
			}
			room += mult * int(min(fs.most/unit, sim.Amount(k)))
			if k == 1 || fs.most < 2*unit {
				single = fs
			}
		} else {
			room = k
		}
		cands = append(cands, sweepCand{l, mult, single})
		first = min(first, sum.low)
	}
	p.cands = cands[:0]
	for _, g := range groups {
		p.sums[g.line.idx].own = 0
	}
	owned := groups[:0] // in place: the own counts are read already
	for _, g := range groups {
		if countable && !p.fitsFor(g.line, res, unit).mayFit(d, before) && !p.roomAt(g.line, res, unit, own.from-1) {
			// A window that reaches into the own slot holds the instant
			// before it; one that does not must fit where the summary
			// says nothing does.
			continue
		}
		owned = append(owned, g)
		room += int(g.nodes) * k
	}
	if room < k {
		return 0, false, first
	}
	events := p.events[:0]
	for _, c := range cands {
		var w int
		if c.single != nil {
			w, events = p.stretchEvents(c.line, c.single, res, unit, d, from, before, c.mult, events)
		} else {
			w, events = p.lineEvents(c.line, d, req, k, from, before, c.mult, slot{}, events)
		}
		total += w
	}
	for _, g := range owned {
		var w int
		o := own
		o.amt *= sim.Amount(g.tasks)
		w, events = p.lineEvents(g.line, d, req, k, from, before, int(g.nodes), o, events)
		total += w
	}
	p.events = events[:0]
	if total >= k {
		return from, true, first
	}
	// Even if every gain came at once, too few: no need to order them.
	most := total
	for _, e := range events {
		most += max(e.delta, 0)
	}
	if most < k {
		return 0, false, first
	}
	found := false
	p.sorter.visit(events, func(at sim.Time, delta int) bool {
		total += delta
		if at >= before {
			return false
		}
		t, found = at, total >= k
		return !found
	})
	if !found {
		return 0, false, first
	}
	return t, true, first
}

// stretchEvents is lineEvents for a timeline on which at most one task
// fits at a time (k = 1, or whole nodes): a window holds it iff it lies in
// a stretch where the task fits, so each stretch long enough gives the
// interval of starts it admits. Without a stretch of length d before its
// tail that starts before `before` (fs, its fit summary), the timeline
// counts only from the tail on.
func (p *profile) stretchEvents(l *timeline, fs *fitSummary, res int, unit sim.Amount, d, from, before sim.Time, mult int, events []fitEvent) (int, []fitEvent) {
	if !fs.innerFit(d, before) {
		switch {
		case fs.tail <= from:
			return mult, events
		case fs.tail < before:
			events = append(events, fitEvent{fs.tail, mult})
		}
		return 0, events
	}
	times, R := l.times, p.R
	m := len(times)
	i := segmentAt(times, from)
	i = max(i, 0)
	first := 0
	for i < m && times[i] < before {
		if l.free[i*R+res] < unit {
			i++
			continue
		}
		a := max(times[i], from)
		for i < m && l.free[i*R+res] >= unit {
			i++
		}
		b := sim.Forever // the stretch is [a, b)
		if i < m {
			b = times[i]
		}
		if b-a < d {
			continue
		}
		if a == from {
			first = mult
		} else {
			events = append(events, fitEvent{a, mult})
		}
		if b != sim.Forever && b-d+1 < before {
			events = append(events, fitEvent{b - d + 1, -mult})
		}
	}
	return first, events
}

// lineEvents computes how many tasks fit node l throughout the window
// [t, t+d) as t moves over [from, before): it returns mult times the count
// at from and appends every later change, times mult, as an event. A
// sliding-window minimum over the timeline's segments (a monotone deque)
// keeps it linear in the segments the windows touch.
//
// Segment i, on [T_i, T_{i+1}), is in the window iff T_i < t+d and
// T_{i+1} > t: it enters at t = T_i − d + 1 (integer microseconds) and
// leaves at t = T_{i+1}.
//
// A one-resource request may count own free: the segments starting in
// [own.from, own.to) get own.amt more, which is exact for windows that end
// before own.to (firstWindowCount says why).
func (p *profile) lineEvents(l *timeline, d sim.Time, req []sim.Need, k int, from, before sim.Time, mult int, own slot, events []fitEvent) (int, []fitEvent) {
	times := l.times
	m := len(times)
	if cap(p.levels) < m {
		p.levels = make([]int, m)
	}
	levels := p.levels[:m]
	dq := p.deque[:0] // segment indices, levels increasing
	res, _, count := countBased(req, 1)
	push := func(i int) {
		var lv int
		if count { // one resource: a division, as in windowMin
			f := l.free[i*p.R+res]
			if times[i] >= own.from && times[i] < own.to {
				f += own.amt
			}
			if f >= req[0].Amt {
				lv = int(min(f/req[0].Amt, sim.Amount(k)))
			}
		} else {
			lv = sim.TasksFittingIn(l.free, p.R, i, req, k)
		}
		levels[i] = lv
		for len(dq) > 0 && levels[dq[len(dq)-1]] >= lv {
			dq = dq[:len(dq)-1]
		}
		dq = append(dq, i)
	}
	lo := segmentAt(times, from) // first segment in the window
	hi := lo                     // next segment to enter
	for hi < m && times[hi] < from+d {
		push(hi)
		hi++
	}
	cur := levels[dq[0]]
	first := cur
	for {
		// Next change: the next segment entering, or the first leaving.
		next := sim.Forever
		if hi < m {
			next = times[hi] - d + 1
		}
		if lo+1 < m && times[lo+1] < next {
			next = times[lo+1]
		}
		if next >= before {
			break
		}
		for hi < m && times[hi]-d+1 <= next {
			push(hi)
			hi++
		}
		for lo+1 < m && times[lo+1] <= next {
			lo++
		}
		for dq[0] < lo {
			dq = dq[1:]
		}
		if v := levels[dq[0]]; v != cur {
			events = append(events, fitEvent{next, (v - cur) * mult})
			cur = v
		}
	}
	p.deque = dq[:0]
	return first * mult, events
}
