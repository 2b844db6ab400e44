package conservative

import (
	"slices"
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
	// live holds each distinct timeline once: nodes with the same history
	// share one (lines.go), so searches visit a timeline, not every node.
	// sums[i] is live[i]'s sharing count and fit summary, kept apart so
	// that a scan of the summaries reads one small array rather than a
	// timeline each.
	live    []*timeline
	sums    []lineSum
	index   summaryIndex
	lineIDs uint64  // timelines made so far (timeline.id)
	bare    []int32 // a superset of the nodes without a timeline (untouched)
	// epoch stamps timeline.mark, a per-operation scratch mark.
	epoch uint64
	// scratch for addNodes
	cnt     []int32
	touched []int32
	groups  []lineGroup
	grpOf   []int32
	// interned is the number of distinct timelines at the last intern;
	// byHash is its scratch.
	interned int
	byHash   map[uint64][]*timeline
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
	// scratch for sweep
	cands  []sweepCand
	found  []*timeline // scratch for the summary index's candidates
	events []fitEvent
	sorter fitSorter // scratch of the sweeps' event ordering
	owned  []ownGroup
	// version counts the changes to which nodes share which timeline
	// (addNodes, intern); caches of distinct timelines check it.
	version uint64
	// indexFrom is how many live timelines make the summary index worth
	// building (defaultIndexFrom; tests lower it on small clusters).
	indexFrom int
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
// vector forever; times[0] is the profile's now, or earlier (fold).
type timeline struct {
	times []sim.Time
	free  []sim.Amount
	// blocks indexes one resource's free amounts for count-based searches
	// (blockindex.go).
	blocks blockIndex
	idx    int32 // position in profile.live (and sums); −1 for the totals
	// The summary index's bookkeeping: queued to be put back in place,
	// filed, and under which keys.
	dirty, indexed bool
	tailKey        sim.Time
	innerBucket    int16  // −1: not filed by inner stretch
	innerSlot      int32  // position in its inner bucket
	id             uint64 // the order of timelines with equal tails
	mark           uint64 // profile.epoch of the last visit by a search or addNodes
	// scratch of the visit that set mark
	grp   int32
	memo  int
	canon *timeline
}

func newProfile(R, numNodes int, now sim.Time, totals []sim.Amount) *profile {
	agg := &timeline{times: []sim.Time{now}, free: append([]sim.Amount(nil), totals...), idx: -1}
	bare := make([]int32, numNodes)
	for n := range bare {
		bare[n] = int32(n)
	}
	return &profile{R: R, now: now, lines: make([]*timeline, numNodes), agg: agg, bare: bare, indexFrom: defaultIndexFrom}
}

// untouched returns the nodes without a timeline, in index order.
func (p *profile) untouched() []int32 {
	// Nodes only ever gain a timeline, so pruning the list suffices.
	keep := p.bare[:0]
	for _, n := range p.bare {
		if p.lines[n] == nil {
			keep = append(keep, n)
		}
	}
	p.bare = keep
	return keep
}

// lineOf returns node n's timeline, if it has one.
func (p *profile) lineOf(n int) (*timeline, bool) {
	l := p.lines[n]
	return l, l != nil
}

// advance moves the profile's now forward, folding past breakpoints.
func (p *profile) advance(now sim.Time) {
	p.now = now
	p.fold(p.agg, true)
	for _, l := range p.live {
		p.fold(l, len(p.lines) == 1) // node timelines stay comparable (intern)
	}
	if len(p.lines) > 1 && len(p.live) > 2*p.interned+32 {
		p.intern()
	}
}

// fold drops the breakpoints before now. With lazy, a timeline with a
// block index drops only whole blocks, keeping the index (rather than
// rebuilding it after every fold); searches start
// at the segment holding their from, so the rest does no harm.
func (p *profile) fold(l *timeline, lazy bool) {
	now := p.now
	i := segmentAt(l.times, now)
	if lazy && l.blocks.built {
		if q := l.blocks.dropped(i); q > 0 {
			l.times = append(l.times[:0], l.times[q:]...)
			l.free = append(l.free[:0], l.free[q*p.R:]...)
		}
		return
	}
	if i > 0 {
		l.times = append(l.times[:0], l.times[i:]...)
		l.free = append(l.free[:0], l.free[i*p.R:]...)
		l.blocks.stale()
	}
	l.times[0] = now
}

// segmentAt returns the index of the segment of times holding t (the last
// breakpoint at or before t), −1 when t is before them all. Searches call
// it often, mostly near the start (now), in short timelines. So it steps
// over the first few segments, then searches the rest by halves.
func segmentAt(times []sim.Time, t sim.Time) int {
	const steps = 4
	n := len(times)
	for i := range min(n, steps) {
		if times[i] > t {
			return i - 1
		}
	}
	lo, hi := min(n, steps), n // times[lo-1] ≤ t
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if times[mid] > t {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo - 1
}

// breakAt makes sure the timeline has a breakpoint at t (t ≥ now) and
// returns its index.
func (p *profile) breakAt(l *timeline, t sim.Time) int {
	i, found := slices.BinarySearch(l.times, t)
	if found {
		return i
	}
	l.blocks.inserted(i)
	l.times = append(l.times, 0)
	copy(l.times[i+1:], l.times[i:])
	l.times[i] = t
	prev := l.free[(i-1)*p.R : i*p.R]
	l.free = append(l.free, prev...) // grow by R
	copy(l.free[(i+1)*p.R:], l.free[i*p.R:len(l.free)-p.R])
	copy(l.free[i*p.R:(i+1)*p.R], prev)
	return i
}

// addRange adds k·req to segments [i, j) of l.
func (p *profile) addRange(l *timeline, i, j int, req []sim.Need, k sim.Amount) {
	if l.idx >= 0 {
		p.sums[l.idx].fits.unit = 0 // to be computed again
		p.index.changed(l)
	}
	for _, q := range req {
		l.blocks.added(i, j, int(q.Res), k*q.Amt)
	}
	// One resource at a time, a stride over the segments: the totals'
	// timeline keeps every breakpoint, so a booking far ahead spans
	// thousands of its segments.
	free := l.free[:j*p.R]
	for _, q := range req {
		delta := k * q.Amt
		for at := i*p.R + int(q.Res); at < len(free); at += p.R {
			free[at] += delta
		}
	}
}
