package policies

import (
	"sort"

	"github.com/schedsim/schedsim/sim"
)

// profile is the projected free capacity of every node over time: the
// running jobs' expected ends and the reservations made so far. Nodes that
// nothing touches keep the engine's current free vector; the others get a
// timeline, a step function of free vectors.
type profile struct {
	R     int
	now   sim.Time
	lines []*timeline // by node; nil for nodes nothing has touched
	// agg is the cluster-wide total of free amounts over time. A window
	// the totals do not admit cannot hold the job on any set of nodes, so
	// multi-node searches check it first.
	agg *timeline
	// Growth log: every time capacity grows somewhere before time b, an
	// entry (sequence number, b). Only the suffix maxima of b matter, so
	// the log is kept as a stack with b decreasing.
	growth  []growth
	growths int64
	// scratch for lineEvents
	levels, deque []int
}

type growth struct {
	seq int64
	end sim.Time
}

// grew logs that free capacity grew somewhere before end.
func (p *profile) grew(end sim.Time) {
	for len(p.growth) > 0 && p.growth[len(p.growth)-1].end <= end {
		p.growth = p.growth[:len(p.growth)-1]
	}
	p.growth = append(p.growth, growth{p.growths, end})
	p.growths++
}

// logged is the log position now.
func (p *profile) logged() int64 { return p.growths }

// grownSince returns the latest end of the growths logged at or after
// position pos, and whether there were any.
func (p *profile) grownSince(pos int64) (sim.Time, bool) {
	i := sort.Search(len(p.growth), func(i int) bool { return p.growth[i].seq >= pos })
	if i == len(p.growth) {
		return 0, false
	}
	return p.growth[i].end, true
}

// timeline: free[i*R:(i+1)*R] holds on [times[i], times[i+1]), the last
// vector forever; times[0] is the profile's now.
type timeline struct {
	times []sim.Time
	free  []sim.Amount
}

func newProfile(R, numNodes int, now sim.Time, totals []sim.Amount) *profile {
	agg := &timeline{times: []sim.Time{now}, free: append([]sim.Amount(nil), totals...)}
	return &profile{R: R, now: now, lines: make([]*timeline, numNodes), agg: agg}
}

// lineOf returns node n's timeline, if it has one.
func (p *profile) lineOf(n int) (*timeline, bool) {
	l := p.lines[n]
	return l, l != nil
}

// line returns node n's timeline, starting one from base if needed.
func (p *profile) line(n int32, base []sim.Amount) *timeline {
	l := p.lines[n]
	if l == nil {
		v := base[int(n)*p.R : int(n)*p.R+p.R]
		l = &timeline{times: []sim.Time{p.now}, free: append([]sim.Amount(nil), v...)}
		p.lines[n] = l
	}
	return l
}

// advance moves the profile's now forward, folding past breakpoints.
func (p *profile) advance(now sim.Time) {
	p.now = now
	p.fold(p.agg)
	for _, l := range p.lines {
		if l != nil {
			p.fold(l)
		}
	}
}

// fold drops the breakpoints before now.
func (p *profile) fold(l *timeline) {
	now := p.now
	i := sort.Search(len(l.times), func(i int) bool { return l.times[i] > now }) - 1
	if i > 0 {
		l.times = append(l.times[:0], l.times[i:]...)
		l.free = append(l.free[:0], l.free[i*p.R:]...)
	}
	l.times[0] = now
}

// breakAt makes sure the timeline has a breakpoint at t (t ≥ now) and
// returns its index.
func (p *profile) breakAt(l *timeline, t sim.Time) int {
	i := sort.Search(len(l.times), func(i int) bool { return l.times[i] >= t })
	if i < len(l.times) && l.times[i] == t {
		return i
	}
	l.times = append(l.times, 0)
	copy(l.times[i+1:], l.times[i:])
	l.times[i] = t
	prev := l.free[(i-1)*p.R : i*p.R]
	l.free = append(l.free, prev...) // grow by R
	copy(l.free[(i+1)*p.R:], l.free[i*p.R:len(l.free)-p.R])
	copy(l.free[i*p.R:(i+1)*p.R], prev)
	return i
}

// add adds sign·count·req to node n's free capacity over [from, to);
// to == sim.Forever means for ever.
func (p *profile) add(n int32, base []sim.Amount, from, to sim.Time, req []sim.Need, count int, sign sim.Amount) {
	if from < p.now {
		from = p.now
	}
	if to <= from {
		return
	}
	l := p.line(n, base)
	i := p.breakAt(l, from)
	j := len(l.times)
	if to != sim.Forever {
		j = p.breakAt(l, to)
	}
	k := sign * sim.Amount(count)
	p.addRange(l, i, j, req, k)
	if len(p.lines) == 1 {
		return // one node: the totals are that node's timeline
	}
	a := p.agg
	i = p.breakAt(a, from)
	j = len(a.times)
	if to != sim.Forever {
		j = p.breakAt(a, to)
	}
	p.addRange(a, i, j, req, k)
}

// addRange adds k·req to segments [i, j) of l.
func (p *profile) addRange(l *timeline, i, j int, req []sim.Need, k sim.Amount) {
	for s := i; s < j; s++ {
		v := l.free[s*p.R : (s+1)*p.R]
		for _, q := range req {
			v[q.Res] += k * q.Amt
		}
	}
}

// windowMin returns how many tasks fit on the timeline throughout
// [t, t+d), at most limit.
func (p *profile) windowMin(l *timeline, t, d sim.Time, req []sim.Need, limit int) int {
	best := limit
	// Start at the segment holding t.
	first := sort.Search(len(l.times), func(i int) bool { return l.times[i] > t }) - 1
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

type fitEvent struct {
	at    sim.Time
	delta int
}

// earliest finds the first time t, now ≤ t < before, at which k tasks with
// request req fit throughout [t, t+d), and the nodes (lowest-numbered
// first) that take them. base is the engine's free vector for nodes without
// a timeline. ok is false when no such time exists.
func (p *profile) earliest(base []sim.Amount, numNodes int, req []sim.Need, k int, d sim.Time, before sim.Time, events []fitEvent) (t sim.Time, nodes []int32, ok bool, buf []fitEvent) {
	if d < 1 {
		d = 1 // a zero-length job still needs its nodes at the instant it runs
	}
	if numNodes == 1 {
		if l, has := p.lineOf(0); has {
			t, ok := p.firstWindow(l, d, req, k, before)
			if !ok {
				return 0, nil, false, events
			}
			for i := 0; i < k; i++ {
				nodes = append(nodes, 0)
			}
			return t, nodes, true, events
		}
	}
	if k == 1 {
		return p.earliestOne(base, numNodes, req, d, before, events)
	}
	// The totals are a necessary condition: try their feasible starts in
	// order, checking each exactly, for a few rounds; most searches end at
	// the first. Then fall back to the exact sweep over every node.
	from := p.now
	for round := 0; round < 4; round++ {
		t0, ok := p.firstWindowTotals(d, req, k, from, before, slot{})
		if !ok {
			return 0, nil, false, events
		}
		if nodes = p.pick(base, numNodes, req, k, d, t0); nodes != nil {
			return t0, nodes, true, events
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
	total := 0
	events = events[:0]
	for n := 0; n < numNodes; n++ {
		l, has := p.lineOf(n)
		if !has {
			total += sim.TasksFittingIn(base, p.R, n, req, k)
			continue
		}
		var w int
		w, events = p.lineEvents(l, d, req, k, events)
		total += w
	}
	t = p.now
	if t >= before {
		return 0, nil, false, events
	}
	if total < k {
		sort.Slice(events, func(a, b int) bool { return events[a].at < events[b].at })
		found := false
		for i := 0; i < len(events); {
			at := events[i].at
			for ; i < len(events) && events[i].at == at; i++ {
				total += events[i].delta
			}
			if at >= before {
				break
			}
			if total >= k {
				t, found = at, true
				break
			}
		}
		if !found {
			return 0, nil, false, events
		}
	}
	return t, p.pick(base, numNodes, req, k, d, t), true, events
}

// earliestOne is earliest for a single task: the least first window over
// the nodes, the lowest-numbered node on ties. Each node's search stops at
// the best start found so far, and a node free now ends the search.
func (p *profile) earliestOne(base []sim.Amount, numNodes int, req []sim.Need, d, before sim.Time, events []fitEvent) (sim.Time, []int32, bool, []fitEvent) {
	best, node := before, -1
	for n := 0; n < numNodes && best > p.now; n++ {
		if l, has := p.lineOf(n); has {
			if t, ok := p.firstWindow(l, d, req, 1, best); ok && t < best {
				best, node = t, n
			}
		} else if sim.TasksFittingIn(base, p.R, n, req, 1) >= 1 {
			best, node = p.now, n
		}
	}
	if node < 0 {
		return 0, nil, false, events
	}
	return best, []int32{int32(node)}, true, events
}

// pick returns the lowest-numbered nodes that hold k tasks throughout
// [t, t+d), or nil when they do not exist.
func (p *profile) pick(base []sim.Amount, numNodes int, req []sim.Need, k int, d, t sim.Time) []int32 {
	var nodes []int32
	left := k
	for n := 0; n < numNodes && left > 0; n++ {
		var w int
		if l, has := p.lineOf(n); has {
			w = p.windowMin(l, t, d, req, left)
		} else {
			w = sim.TasksFittingIn(base, p.R, n, req, left)
		}
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

// firstWindowTotals is the earliest start in [from, before) at which the
// cluster's free totals cover k tasks throughout [t, t+d). own, when set,
// is the job's own reservation (own.amt tasks over [own.from, own.to)),
// counted as free.
func (p *profile) firstWindowTotals(d sim.Time, req []sim.Need, k int, from, before sim.Time, own slot) (sim.Time, bool) {
	l, R := p.agg, p.R
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
	m := len(l.times)
	i := 0
	if from > l.times[0] {
		i = sort.Search(m, func(i int) bool { return l.times[i] > from }) - 1
	}
	for i < m && l.times[i] < before {
		if !fits(i) {
			i++
			continue
		}
		start := max(l.times[i], from)
		j := i + 1
		for j < m && l.times[j] < start+d && fits(j) {
			j++
		}
		if j == m || l.times[j] >= start+d {
			return start, start < before
		}
		i = j + 1
	}
	return 0, false
}

// firstWindow returns the earliest t, now ≤ t < before, at which k tasks
// fit on one timeline throughout [t, t+d). It stops at the first fit, so a
// job that can start soon costs little however long the profile.
func (p *profile) firstWindow(l *timeline, d sim.Time, req []sim.Need, k int, before sim.Time) (sim.Time, bool) {
	if r, need, ok := countBased(req, k); ok {
		return p.firstWindowCount(l, d, r, need, p.now, before, slot{})
	}
	m := len(l.times)
	fits := func(i int) bool { return sim.TasksFittingIn(l.free, p.R, i, req, k) >= k }
	for i := 0; i < m && l.times[i] < before; {
		if !fits(i) {
			i++
			continue
		}
		start := l.times[i]
		j := i + 1
		for j < m && l.times[j] < start+d && fits(j) {
			j++
		}
		if j == m || l.times[j] >= start+d {
			return start, true
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
func (p *profile) firstWindowCount(l *timeline, d sim.Time, res int, need sim.Amount, from, before sim.Time, own slot) (sim.Time, bool) {
	m, R := len(l.times), p.R
	times, free := l.times, l.free
	index := func(t sim.Time) int { return sort.Search(m, func(i int) bool { return times[i] >= t }) }
	// Segments [ownLo, ownHi) lie in the own slot: they have own.amt more.
	ownLo, ownHi := m, m
	if own.amt != 0 {
		ownLo, ownHi = index(own.from), index(own.to)
	}
	room := func(i int) bool {
		f := free[i*R+res]
		if i >= ownLo && i < ownHi {
			f += own.amt
		}
		return f >= need
	}
	i := 0
	if from > times[0] {
		// Start in the segment holding from.
		i = sort.Search(m, func(i int) bool { return times[i] > from }) - 1
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
			if start >= before {
				return 0, false
			}
			return start, true
		}
		i = j + 1
	}
	return 0, false
}

// lineEvents computes how many tasks fit node l throughout the window
// [t, t+d) as t moves from now on: it returns the count at now and appends
// every later change as an event. A sliding-window minimum over the
// timeline's segments (a monotone deque) keeps it linear.
//
// Segment i, on [T_i, T_{i+1}), is in the window iff T_i < t+d and
// T_{i+1} > t: it enters at t = T_i − d + 1 (integer microseconds) and
// leaves at t = T_{i+1}.
func (p *profile) lineEvents(l *timeline, d sim.Time, req []sim.Need, k int, events []fitEvent) (int, []fitEvent) {
	m := len(l.times)
	// Each segment's level once; the deque compares them many times.
	p.levels = p.levels[:0]
	for i := 0; i < m; i++ {
		p.levels = append(p.levels, sim.TasksFittingIn(l.free, p.R, i, req, k))
	}
	levels := p.levels
	level := func(i int) int { return levels[i] }
	now := l.times[0]
	dq := p.deque[:0] // segment indices, levels increasing
	defer func() { p.deque = dq[:0] }()
	push := func(i int) {
		lv := level(i)
		for len(dq) > 0 && level(dq[len(dq)-1]) >= lv {
			dq = dq[:len(dq)-1]
		}
		dq = append(dq, i)
	}
	hi := 0 // next segment to enter
	for hi < m && l.times[hi] < now+d {
		push(hi)
		hi++
	}
	lo := 0 // first segment still in the window
	cur := level(dq[0])
	first := cur
	for {
		// Next change: the next segment entering, or the first leaving.
		next := sim.Forever
		if hi < m {
			next = l.times[hi] - d + 1
		}
		if lo+1 < m && l.times[lo+1] < next {
			next = l.times[lo+1]
		}
		if next == sim.Forever {
			break
		}
		for hi < m && l.times[hi]-d+1 <= next {
			push(hi)
			hi++
		}
		for lo+1 < m && l.times[lo+1] <= next {
			lo++
		}
		for dq[0] < lo {
			dq = dq[1:]
		}
		if v := level(dq[0]); v != cur {
			events = append(events, fitEvent{next, v - cur})
			cur = v
		}
	}
	return first, events
}
