package conservative

import (
	"math"
	"slices"
	"sort"

	"github.com/schedsim/schedsim/sim"
)

// Searches over a profile: the earliest window in which a job's tasks fit
// on specific nodes. A count-based path serves one-node profiles (the pool
// model) with plain comparisons; multi-node searches check the cluster
// totals first, then nodes exactly, then, when those fail, sweep every
// node's sliding-window minimum.

// windowMin returns how many tasks fit on the timeline throughout
// [t, t+d), at most limit.
func (p *profile) windowMin(l *timeline, t, d sim.Time, req []sim.Need, limit int) int {
	best := limit
	res, _, count := countBased(req, 1)
	// The summary rules out most timelines at once, but only a summary at
	// hand is worth reading: computing one scans the whole timeline, and
	// under Repick the walks meet mostly timelines changed since their
	// summary was made.
	if fs := &p.sums[l.idx].fits; count && fs.unit == req[0].Amt && fs.res == res && !fs.mayFit(d, t+1) {
		return 0
	}
	// Start at the segment holding t.
	first := segmentAt(l.times, t)
	if count {
		// One resource: the least amount decides, and one segment without
		// a task's amount ends the scan (most timelines a walk meets).
		amt := req[0].Amt
		lo := l.free[max(first, 0)*p.R+res]
		for i := max(first, 0) + 1; lo >= amt && i < len(l.times) && l.times[i] < t+d; i++ {
			lo = min(lo, l.free[i*p.R+res])
		}
		if lo < amt {
			return 0
		}
		return int(min(lo/amt, sim.Amount(limit)))
	}
	for i := max(first, 0); i < len(l.times); i++ {
		if l.times[i] >= t+d {
			break
		}
		if k := sim.TasksFittingIn(l.free, p.R, i, req, best); k < best {
			best = k
		}
	}
	return best
}

// earliest finds the first time t, now ≤ t < before, at which k tasks with
// request req fit throughout [t, t+d), and the nodes (lowest-numbered
// first) that take them. The caller knows no start before from fits
// (from ≥ now); searches over several nodes start there. base is the
// engine's free vector for nodes without a timeline. ok is false when no
// such time exists.
func (p *profile) earliest(base []sim.Amount, numNodes int, req []sim.Need, k int, d sim.Time, from, before sim.Time) (t sim.Time, nodes []int32, ok bool) {
	if d < 1 {
		d = 1 // a zero-length job still needs its nodes at the instant it runs
	}
	if numNodes == 1 {
		if l, has := p.lineOf(0); has {
			t, ok := p.firstWindow(l, d, req, k, before)
			if !ok {
				return 0, nil, false
			}
			for i := 0; i < k; i++ {
				nodes = append(nodes, 0)
			}
			return t, nodes, true
		}
	}
	if k == 1 {
		return p.earliestOne(base, numNodes, req, d, before)
	}
	// The totals are a necessary condition: try their feasible starts in
	// order, checking each exactly, for a few rounds; most searches end at
	// the first. Then fall back to the exact sweep over every node. With a
	// one-resource request the sweep skips the timelines where no task
	// fits (fitSummary), which makes it cheaper than a check: it starts at
	// the totals' first feasible start.
	rounds := 4
	if _, _, countable := countBased(req, 1); countable {
		rounds = 0
		t0, ok := p.firstWindowTotals(d, req, k, from, before, slot{})
		if !ok {
			return 0, nil, false
		}
		from = t0
	}
	for round := 0; round < rounds; round++ {
		t0, ok := p.firstWindowTotals(d, req, k, from, before, slot{})
		if !ok {
			return 0, nil, false
		}
		if nodes = p.pick(base, numNodes, req, k, d, t0); nodes != nil {
			return t0, nodes, true
		}
		// Node windows only open at breakpoints, and every node's
		// breakpoints are breakpoints of the totals.
		a := p.agg.times
		i := sort.Search(len(a), func(i int) bool { return a[i] > t0 })
		if i == len(a) {
			break
		}
		from = a[i]
	}
	// No start before from fits (the rounds above); sweep [from, before).
	t, ok, first := p.sweep(base, req, k, d, from, before, slot{}, nil)
	if !ok {
		return 0, nil, false
	}
	return t, p.pickKnown(base, numNodes, req, k, d, t, nil, int(first)), true
}

// earliestOne is earliest for a single task: the least first window over
// the nodes, the lowest-numbered node on ties (firstOne).
func (p *profile) earliestOne(base []sim.Amount, numNodes int, req []sim.Need, d, before sim.Time) (sim.Time, []int32, bool) {
	t, node, ok := p.firstOne(base, numNodes, req, d, p.now, before, ownTask{node: -1})
	if !ok {
		return 0, nil, false
	}
	return t, []int32{node}, true
}

// ownTask is a one-task job's own reservation: its node and slot, which a
// search for an earlier start counts as free instead of taking it out.
type ownTask struct {
	node int32 // −1: none
	slot slot
}

// firstOne returns the earliest start in [from, before) of one task of req
// throughout [t, t+d) and its node, the lowest-numbered on ties; the caller
// knows no start before from fits. own, when set, is counted free on its
// node (its windows end before own.slot.to, as those of a search for an
// earlier start do: firstWindowCount).
//
// A one-resource request is searched per distinct timeline, each standing
// for the lowest-numbered node sharing it, and a timeline whose summary
// rules out a window that could win is not read. Requests of several
// resources go node by node from now, without own (firstOneByNode): settle
// counts an own slot free for one-resource requests only.
func (p *profile) firstOne(base []sim.Amount, numNodes int, req []sim.Need, d, from, before sim.Time, own ownTask) (sim.Time, int32, bool) {
	res, unit, countable := countBased(req, 1)
	if !countable {
		return p.firstOneByNode(base, numNodes, req, d, before)
	}
	best, node := before, int32(math.MaxInt32)
	// A node without a timeline fits from now on, or never.
	for _, n := range p.untouched() {
		if sim.TasksFittingIn(base, p.R, int(n), req, 1) >= 1 {
			best, node = from, n
			break
		}
	}
	// bound is the end of the starts at which a timeline whose lowest node
	// is n can still win: a tie wins when n is lower than the best's node.
	bound := func(n int32) sim.Time {
		if n < node && node != math.MaxInt32 {
			return best + 1
		}
		return best
	}
	var ownLine *timeline
	if own.node >= 0 {
		ownLine = p.lines[own.node]
	}
	lines := p.live
	if p.indexFor(res, unit) {
		lines = p.candidates(p.found[:0], d, before)
		p.found = lines[:0]
	}
	for _, l := range lines {
		sum := &p.sums[l.idx]
		low := sum.low
		if l == ownLine && low == own.node {
			// The own node, searched below with its slot free, finds no
			// later start than the other nodes sharing its timeline, and
			// is numbered lower.
			continue
		}
		b := bound(low)
		if b <= from {
			continue
		}
		fs := &sum.fits
		if fs.unit != unit || fs.res != res {
			fs = p.summary(l.idx, res, unit)
		}
		if !fs.mayFit(d, b) {
			continue
		}
		if t, ok := p.firstWindowCount(l, d, res, unit, from, b, slot{}); ok {
			best, node = t, low
		}
	}
	if ownLine != nil {
		if t, ok := p.firstWindowCount(ownLine, d, res, unit, from, bound(own.node), own.slot); ok {
			best, node = t, own.node
		}
	}
	return best, node, node != math.MaxInt32
}

// firstOneByNode is firstOne for requests of several resources, node by
// node: each node's search stops at the best start found so far, and a
// node free now ends the search.
func (p *profile) firstOneByNode(base []sim.Amount, numNodes int, req []sim.Need, d, before sim.Time) (sim.Time, int32, bool) {
	best, node := before, int32(-1)
	p.epoch++
	for n := 0; n < numNodes && best > p.now; n++ {
		if l, has := p.lineOf(n); has {
			if l.mark == p.epoch {
				continue // an earlier node has the same timeline, so wins ties
			}
			l.mark = p.epoch
			if t, ok := p.firstWindow(l, d, req, 1, best); ok && t < best {
				best, node = t, int32(n)
			}
		} else if sim.TasksFittingIn(base, p.R, n, req, 1) >= 1 {
			best, node = p.now, int32(n)
		}
	}
	return best, node, node >= 0
}

// pick returns the lowest-numbered nodes that hold k tasks throughout
// [t, t+d), or nil when they do not exist.
func (p *profile) pick(base []sim.Amount, numNodes int, req []sim.Need, k int, d, t sim.Time) []int32 {
	p.epoch++ // each shared timeline is measured once
	// When many nodes share few timelines, count first, once per distinct
	// timeline: most picks fail, and then need no walk over the nodes.
	if numNodes >= 4*len(p.live) && !p.enough(base, req, k, d, t) {
		return nil
	}
	return p.walk(base, numNodes, req, k, d, t, nil, 0)
}

// pickKnown is pick when k tasks are known to fit at t: after a search
// found t, or with own, a reservation of the job over exactly [t, t+d)
// (its nodes, one entry per task, sorted), counted free: on its nodes a
// window holds own's tasks there more than without it. The caller knows
// that the nodes numbered below first hold none of the tasks.
func (p *profile) pickKnown(base []sim.Amount, numNodes int, req []sim.Need, k int, d, t sim.Time, own []int32, first int) []int32 {
	p.epoch++
	return p.walk(base, numNodes, req, k, d, t, own, first)
}

// walk takes the lowest-numbered nodes holding k tasks over [t, t+d),
// from node first on, each timeline measured once per epoch, own's tasks
// added on its nodes.
func (p *profile) walk(base []sim.Amount, numNodes int, req []sim.Need, k int, d, t sim.Time, own []int32, first int) []int32 {
	nodes := make([]int32, 0, k)
	left, o := k, 0
	var prev *timeline // neighbours mostly share a timeline: no load then
	prevW := 0
	for n := first; n < numNodes && left > 0; n++ {
		if prevW == 0 && prev != nil {
			// Most nodes a walk passes hold no task, in runs sharing a
			// timeline: skip the run up to the next own node.
			stop := numNodes
			if o < len(own) {
				stop = int(own[o])
			}
			for n < stop && p.lines[n] == prev {
				n++
			}
			if n == numNodes {
				break
			}
		}
		var w int
		if l, has := p.lineOf(n); has {
			if l != prev {
				if l.mark != p.epoch {
					l.mark, l.memo = p.epoch, p.windowMin(l, t, d, req, k)
				}
				prev, prevW = l, l.memo
			}
			w = prevW
		} else {
			w = sim.TasksFittingIn(base, p.R, n, req, left)
		}
		for ; o < len(own) && own[o] <= int32(n); o++ {
			if own[o] == int32(n) {
				w++
			}
		}
		w = min(w, left)
		for i := 0; i < w; i++ {
			nodes = append(nodes, int32(n))
		}
		left -= w
	}
	if left > 0 {
		return nil
	}
	return nodes
}

// enough reports whether k tasks fit throughout [t, t+d) counting each
// distinct timeline once, times the nodes sharing it; it leaves each
// timeline's count in memo (pick).
func (p *profile) enough(base []sim.Amount, req []sim.Need, k int, d, t sim.Time) bool {
	total := 0
	for _, l := range p.live {
		l.mark, l.memo = p.epoch, p.windowMin(l, t, d, req, k)
		if total += l.memo * int(p.sums[l.idx].refs); total >= k {
			return true
		}
	}
	for _, n := range p.untouched() {
		if total += sim.TasksFittingIn(base, p.R, int(n), req, k); total >= k {
			return true
		}
	}
	return false
}

// firstWindowTotals is the earliest start in [from, before) at which the
// cluster's free totals cover k tasks throughout [t, t+d). own, when set,
// is the job's own reservation (own.amt tasks over [own.from, own.to)),
// counted as free.
func (p *profile) firstWindowTotals(d sim.Time, req []sim.Need, k int, from, before sim.Time, own slot) (sim.Time, bool) {
	l, R := p.agg, p.R
	if res, need, ok := countBased(req, k); ok {
		own.amt *= req[0].Amt
		return p.firstWindowCount(l, d, res, need, from, before, own)
	}
	fits := func(i int) bool {
		extra := sim.Amount(0)
		if own.amt != 0 && l.times[i] >= own.from && l.times[i] < own.to {
			extra = own.amt
		}
		for _, q := range req {
			if q.Amt > 0 && l.free[i*R+int(q.Res)]+extra*q.Amt < q.Amt*sim.Amount(k) {
				return false
			}
		}
		return true
	}
	return scanWindow(l.times, d, from, before, fits)
}

// firstWindow returns the earliest t, now ≤ t < before, at which k tasks
// fit on one timeline throughout [t, t+d). It stops at the first fit, so a
// job that can start soon costs little however long the profile.
func (p *profile) firstWindow(l *timeline, d sim.Time, req []sim.Need, k int, before sim.Time) (sim.Time, bool) {
	if r, need, ok := countBased(req, k); ok {
		return p.firstWindowCount(l, d, r, need, p.now, before, slot{})
	}
	fits := func(i int) bool { return sim.TasksFittingIn(l.free, p.R, i, req, k) >= k }
	return scanWindow(l.times, d, p.now, before, fits)
}

// scanWindow returns the earliest t in [from, before) such that every
// segment overlapping [t, t+d) fits. A segment that does not fit rules out
// every start up to it, so the scan never looks at a segment twice.
func scanWindow(times []sim.Time, d, from, before sim.Time, fits func(i int) bool) (sim.Time, bool) {
	m := len(times)
	i := 0
	if from > times[0] {
		i = segmentAt(times, from)
	}
	for i < m && times[i] < before {
		if !fits(i) {
			i++
			continue
		}
		start := max(times[i], from)
		j := i + 1
		for j < m && times[j] < start+d && fits(j) {
			j++
		}
		if j == m || times[j] >= start+d {
			return start, start < before
		}
		i = j + 1 // segment j is too full; a window must start after it
	}
	return 0, false
}

// countBased reports whether a request is one positive amount of one
// resource (the count-based case of SWF replays), and the total k tasks
// need of it.
func countBased(req []sim.Need, k int) (res int, need sim.Amount, ok bool) {
	if len(req) != 1 || req[0].Amt <= 0 {
		return 0, 0, false
	}
	return int(req[0].Res), req[0].Amt * sim.Amount(k), true
}

// slot is an amount held over [from, to): a job's own reservation, which a
// search for its new slot counts as free without taking it out first.
type slot struct {
	from, to sim.Time
	amt      sim.Amount
}

// firstWindowCount is firstWindow for one resource, with own counted as
// free, for starts in [from, before): plain comparisons on the amounts.
//
// A compression search has before ≤ own.from and the job's own length d,
// so its windows end before own.to, and the segments holding own's bounds
// need not start there: where the amount does not change at own.from (a
// neighbour's change cancels the slot's, and node timelines drop such
// breakpoints) the segment before it has the same amount f, so a window
// reaching into the slot either has f ≥ need without it or fails before
// it. Counting own only from the first breakpoint at or after own.from, and
// to the segment holding own.to, gives the same answer.
func (p *profile) firstWindowCount(l *timeline, d sim.Time, res int, need sim.Amount, from, before sim.Time, own slot) (sim.Time, bool) {
	m, R := len(l.times), p.R
	times, free := l.times, l.free
	if from >= before {
		return 0, false
	}
	if m < 8*blockSize {
		return scanCount(times, free[res:], R, need, d, from, before, own)
	}
	index := func(t sim.Time) int { i, _ := slices.BinarySearch(times, t); return i }
	// Segments [ownLo, ownHi) lie in the own slot: they have own.amt more.
	ownLo, ownHi := m, m
	if own.amt != 0 {
		ownLo, ownHi = index(own.from), index(own.to)
	}
	i := 0
	if from > times[0] {
		i = index(from+1) - 1 // the segment holding from
	}
	room := func(i int) bool {
		f := free[i*R+res]
		if i >= ownLo && i < ownHi {
			f += own.amt
		}
		return f >= need
	}
	// A long timeline: step over whole blocks of segments that all have
	// room, or all lack it.
	b := &l.blocks
	b.ensure(l, R, res)
	indexed := func(k int) bool { return k%blockSize == 0 && k/blockSize < len(b.mins) }
	for i < m && times[i] < before {
		if indexed(i) && b.skippable(i/blockSize, true, need, ownLo, ownHi, own.amt) {
			i += blockSize
			continue
		}
		if !room(i) {
			i++
			continue
		}
		start := max(times[i], from)
		j := i + 1
		for j < m && times[j] < start+d {
			if indexed(j) && times[j+blockSize-1] < start+d && b.skippable(j/blockSize, false, need, ownLo, ownHi, own.amt) {
				j += blockSize
				continue
			}
			if !room(j) {
				break
			}
			j++
		}
		if j == m || times[j] >= start+d {
			return start, true
		}
		i = j + 1
	}
	return 0, false
}

// scanCount is firstWindowCount's plain scan for short timelines:
// amounts[k*R] is segment k's free amount, and segments starting in
// [own.from, own.to) have own.amt more. A segment without room rules out
// every start up to it, so no segment is looked at twice, and no binary
// search is worth its cost.
func scanCount(times []sim.Time, amounts []sim.Amount, R int, need sim.Amount, d, from, before sim.Time, own slot) (sim.Time, bool) {
	m := len(times)
	room := func(k int) bool {
		f := amounts[k*R]
		if times[k] >= own.from && times[k] < own.to {
			f += own.amt
		}
		return f >= need
	}
	i := 0
	for i+1 < m && times[i+1] <= from {
		i++ // to the segment holding from
	}
	for i < m && times[i] < before {
		if !room(i) {
			i++
			continue
		}
		start := max(times[i], from)
		j := i + 1
		for j < m && times[j] < start+d && room(j) {
			j++
		}
		if j == m || times[j] >= start+d {
			return start, true
		}
		i = j + 1
	}
	return 0, false
}
