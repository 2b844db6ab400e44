package conservative

import (
	"math"
	"slices"

	"github.com/schedsim/schedsim/sim"
)

// Shared timelines. A reservation or a running job books the same interval
// on all its nodes, so many nodes have the same timeline: a large machine
// has far fewer distinct timelines than nodes. Nodes with the same history share
// one timeline (copy on write, counted in refs), so updates and searches
// cost per distinct timeline rather than per node. Sharing never changes a
// node's step function, only where it is stored.

// lineGroup is the nodes of one addNodes call that share a source timeline
// (nil: no timeline yet, start from base) and a task count.
type lineGroup struct {
	src   *timeline
	base  []sim.Amount // the nodes' free vector when src is nil
	count int32
	size  int32
	dst   *timeline
}

// addNodes adds sign·req over [from, to) for each entry of nodes (one task
// each; a node may repeat), to the nodes' timelines and to the totals.
// base is the engine's free vector for nodes without a timeline.
func (p *profile) addNodes(nodes []int32, base []sim.Amount, from, to sim.Time, req []sim.Need, sign sim.Amount) {
	from = max(from, p.now)
	if to <= from || len(nodes) == 0 {
		return
	}
	p.addToLines(nodes, base, from, to, req, sign)
	if len(p.lines) == 1 {
		return // one node: the totals are that node's timeline
	}
	p.rangeAdd(p.agg, from, to, req, sign*sim.Amount(len(nodes)), false)
}

// moveTasks moves tasks of req over [from, to) from the nodes gone to as
// many entries came: the nodes' timelines change, the totals do not. A
// re-pick under Repick is such a move, and need not update the totals
// twice, on a timeline that keeps every breakpoint.
func (p *profile) moveTasks(gone, came []int32, base []sim.Amount, from, to sim.Time, req []sim.Need) {
	if len(gone) != len(came) {
		panic("conservative: a move of tasks between node lists of different lengths")
	}
	from = max(from, p.now)
	if to <= from || len(gone) == 0 {
		return
	}
	p.addToLines(gone, base, from, to, req, 1)
	p.addToLines(came, base, from, to, req, -1)
}

// addToLines is addNodes without the totals.
func (p *profile) addToLines(nodes []int32, base []sim.Amount, from, to sim.Time, req []sim.Need, sign sim.Amount) {
	if len(p.cnt) != len(p.lines) {
		p.cnt = make([]int32, len(p.lines))
	}
	p.touched = p.touched[:0]
	for _, n := range nodes {
		if p.cnt[n] == 0 {
			p.touched = append(p.touched, n)
		}
		p.cnt[n]++
	}
	// Group the nodes by (timeline, count): each group gets one update.
	p.epoch++
	p.groups, p.grpOf = p.groups[:0], p.grpOf[:0]
	for _, n := range p.touched {
		g := p.groupFor(n, base)
		p.groups[g].size++
		p.grpOf = append(p.grpOf, int32(g))
	}
	for g := range p.groups {
		gr := &p.groups[g]
		switch {
		case gr.src != nil && p.sums[gr.src.idx].refs == gr.size:
			gr.dst = gr.src // every node sharing it changes alike
		case gr.src != nil:
			gr.dst = p.newLine(slices.Clone(gr.src.times), slices.Clone(gr.src.free))
			p.sums[gr.src.idx].refs -= gr.size
			p.version++ // nodes leave a timeline they shared
		default:
			gr.dst = p.newLine([]sim.Time{p.now}, slices.Clone(gr.base))
			p.version++
		}
		p.sums[gr.dst.idx].refs = gr.size
		p.rangeAdd(gr.dst, from, to, req, sign*sim.Amount(gr.count), true)
	}
	for i, n := range p.touched {
		dst := p.groups[p.grpOf[i]].dst
		p.lines[n] = dst
		p.cnt[n] = 0
		if sum := &p.sums[dst.idx]; n < sum.low {
			sum.low = n
		}
	}
	for g := range p.groups {
		src := p.groups[g].src
		switch {
		case src == nil || src.idx < 0:
		case p.sums[src.idx].refs == 0:
			p.dropLine(src)
		case p.lines[p.sums[src.idx].low] != src:
			p.sums[src.idx].low = p.lowestOf(src)
		}
	}
}

// groupFor returns the index of node n's group in p.groups, adding one.
func (p *profile) groupFor(n int32, base []sim.Amount) int {
	c := p.cnt[n]
	l := p.lines[n]
	if l != nil && l.mark == p.epoch && p.groups[l.grp].count == c {
		return int(l.grp)
	}
	var v []sim.Amount
	if l == nil {
		v = base[int(n)*p.R : int(n)*p.R+p.R]
	}
	for g := range p.groups { // rare: untouched nodes, or mixed counts
		gr := &p.groups[g]
		if gr.src == l && gr.count == c && (l != nil || slices.Equal(gr.base, v)) {
			return g
		}
	}
	p.groups = append(p.groups, lineGroup{src: l, base: v, count: c})
	if l != nil && l.mark != p.epoch {
		l.mark, l.grp = p.epoch, int32(len(p.groups)-1)
	}
	return len(p.groups) - 1
}

// rangeAdd adds k·req to l over [from, to), from ≥ now. With merge it
// drops the breakpoints the add made redundant (giving back a slot usually
// does), so node timelines stay as short as their step functions: moved
// reservations would otherwise leave their old bounds behind for every
// later search to walk. The
// totals keep them: earliest takes their breakpoints as every node's.
func (p *profile) rangeAdd(l *timeline, from, to sim.Time, req []sim.Need, k sim.Amount, merge bool) {
	i := p.breakAt(l, from)
	j := len(l.times)
	if to != sim.Forever {
		j = p.breakAt(l, to)
	}
	p.addRange(l, i, j, req, k)
	if !merge {
		return
	}
	p.unbreakIfSame(l, j)
	p.unbreakIfSame(l, i)
}

// unbreakIfSame removes breakpoint i if segment i has the amounts of
// segment i−1.
func (p *profile) unbreakIfSame(l *timeline, i int) {
	if i > 0 && i < len(l.times) && p.sameAsPrev(l, i) {
		p.unbreak(l, i)
	}
}

// sameAsPrev reports whether segment i has the free vector of segment i−1.
func (p *profile) sameAsPrev(l *timeline, i int) bool {
	R := p.R
	return slices.Equal(l.free[(i-1)*R:i*R], l.free[i*R:(i+1)*R])
}

// unbreak removes breakpoint i (i > 0), merging segment i into i−1.
func (p *profile) unbreak(l *timeline, i int) {
	l.blocks.removed(i)
	l.times = slices.Delete(l.times, i, i+1)
	l.free = slices.Delete(l.free, i*p.R, (i+1)*p.R)
}

// lowestOf returns the lowest-numbered node with timeline l, when its
// former lowest has left it: the nodes above that one are searched.
func (p *profile) lowestOf(l *timeline) int32 {
	for n := p.sums[l.idx].low + 1; int(n) < len(p.lines); n++ {
		if p.lines[n] == l {
			return n
		}
	}
	panic("conservative: a live timeline without a node")
}

// newLine adds a timeline to the live set.
func (p *profile) newLine(times []sim.Time, free []sim.Amount) *timeline {
	p.lineIDs++
	l := &timeline{times: times, free: free, idx: int32(len(p.live)), id: p.lineIDs, innerBucket: -1}
	p.live = append(p.live, l)
	p.sums = append(p.sums, lineSum{low: math.MaxInt32}) // addNodes sets low
	p.index.changed(l)
	return l
}

// dropLine removes a timeline no node uses from the live set.
func (p *profile) dropLine(l *timeline) {
	last := p.live[len(p.live)-1]
	p.live[l.idx], p.sums[l.idx] = last, p.sums[last.idx]
	last.idx, l.idx = l.idx, -1
	p.live = p.live[:len(p.live)-1]
	p.sums = p.sums[:len(p.sums)-1]
	p.index.changed(l)
}

// intern makes nodes whose timelines have become equal (folding forgets
// what told them apart) share one. Node timelines drop redundant
// breakpoints, so equal step functions have equal arrays. It costs a pass
// over the nodes, so advance calls it only when the live set has doubled.
func (p *profile) intern() {
	if p.byHash == nil {
		p.byHash = map[uint64][]*timeline{}
	}
	clear(p.byHash)
	p.version++
	keep := p.live[:0]
	for i, l := range p.live {
		h := l.hash()
		l.canon = l
		for _, c := range p.byHash[h] {
			if slices.Equal(c.times, l.times) && slices.Equal(c.free, l.free) {
				l.canon = c
				break
			}
		}
		if l.canon == l {
			p.byHash[h] = append(p.byHash[h], l)
			l.idx = int32(len(keep))
			p.sums[l.idx] = p.sums[i] // i ≥ len(keep): not yet moved
			keep = append(keep, l)
		} else {
			c := &p.sums[l.canon.idx]
			c.refs += p.sums[i].refs
			c.low = min(c.low, p.sums[i].low)
			l.idx = -1
			p.index.changed(l)
		}
	}
	for n, l := range p.lines {
		if l != nil && l.canon != l {
			p.lines[n] = l.canon
		}
	}
	clear(p.live[len(keep):])
	p.live = keep
	p.sums = p.sums[:len(keep)]
	p.interned = len(keep)
}

// hash is an FNV-1a hash of the timeline's breakpoints and amounts.
func (l *timeline) hash() uint64 {
	h := uint64(14695981039346656037)
	for _, t := range l.times {
		h = (h ^ uint64(t)) * 1099511628211
	}
	for _, v := range l.free {
		h = (h ^ uint64(v)) * 1099511628211
	}
	return h
}
