package conservative

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

// booking is capacity added (amt > 0) or taken over [from, to) on a node,
// by the addNodes call numbered call.
type booking struct {
	n        int32
	from, to sim.Time
	amt      sim.Amount
	call     int
}

// bruteProfile is the profile computed directly from its bookings.
type bruteProfile struct {
	base  []sim.Amount
	books []booking
}

// free is node n's amount at t, leaving out the bookings skip picks (nil:
// none).
func (b *bruteProfile) free(n int, t sim.Time, skip func(i int) bool) sim.Amount {
	f := b.base[n]
	for i, bk := range b.books {
		if (skip == nil || !skip(i)) && int(bk.n) == n && bk.from <= t && t < bk.to {
			f += bk.amt
		}
	}
	return f
}

// steps is node n's amounts as a step function from now: breakpoints and
// the amount from each on, with the bookings skip picks left out.
func (b *bruteProfile) steps(n int, now sim.Time, skip func(i int) bool) ([]sim.Time, []sim.Amount) {
	times := []sim.Time{now}
	for _, bk := range b.books {
		times = append(times, max(bk.from, now), max(bk.to, now))
	}
	slices.Sort(times)
	times = slices.Compact(times)
	free := make([]sim.Amount, len(times))
	for i, t := range times {
		free[i] = b.free(n, t, skip)
	}
	return times, free
}

// fits is how many tasks of amt fit throughout [t, t+d) on a step
// function (t one of its breakpoints), at most k.
func fits(times []sim.Time, free []sim.Amount, t, d sim.Time, amt sim.Amount, k int) int {
	i, _ := slices.BinarySearch(times, t)
	lo := free[i]
	for ; i < len(times) && times[i] < t+d; i++ {
		lo = min(lo, free[i])
	}
	if lo < amt {
		return 0
	}
	return int(min(lo/amt, sim.Amount(k)))
}

// earliest is the first start in [now, before) where k tasks fit, and the
// lowest-numbered nodes taking them.
func (b *bruteProfile) earliest(now, d, before sim.Time, amt sim.Amount, k int, skip func(i int) bool) (sim.Time, []int32, bool) {
	var times [][]sim.Time
	var free [][]sim.Amount
	for n := range b.base {
		t, f := b.steps(n, now, skip)
		times, free = append(times, t), append(free, f)
	}
	for _, t := range times[0] { // every node has every breakpoint
		if t >= before {
			break
		}
		var nodes []int32
		for n := range b.base {
			for w := fits(times[n], free[n], t, d, amt, k-len(nodes)); w > 0; w-- {
				nodes = append(nodes, int32(n))
			}
		}
		if len(nodes) == k {
			return t, nodes, true
		}
	}
	return 0, nil, false
}

// TestProfileMatchesBruteForce books random intervals on a few nodes
// (shared timelines, merged breakpoints, block indexes, folds) and checks
// every node's amounts, the earliest-slot search and the one-node search
// with a job's own slot counted free against a direct computation.
func TestProfileMatchesBruteForce(t *testing.T) {
	for _, cfg := range []struct {
		numNodes, capacity int
		span               sim.Time
	}{
		{1, 64, 600}, // a deep timeline, so the block index is used
		{6, 4, 150},
		{6, 1, 150}, // whole nodes: one task fits at a time
	} {
		numNodes, capacity, span := cfg.numNodes, cfg.capacity, cfg.span
		rng := rand.New(rand.NewPCG(uint64(numNodes*capacity), 7))
		b := &bruteProfile{}
		for range numNodes {
			b.base = append(b.base, sim.Amount(capacity))
		}
		p := newProfile(1, numNodes, 0, []sim.Amount{sim.Amount(numNodes * capacity)})
		p.indexFrom = 2 // the summary index on a few nodes too
		now := sim.Time(0)
		for step := 0; step < 700; step++ {
			if numNodes > 1 && rng.IntN(10) == 0 {
				p.intern() // advance does it only on more nodes
			}
			if rng.IntN(4) == 0 {
				now += sim.Time(rng.IntN(8))
				p.advance(now)
				b.books = slices.DeleteFunc(b.books, func(bk booking) bool { return bk.to <= now || bk.amt == 0 })
			}
			// Take capacity where it is free, or give back an earlier take
			// (a job ending early, a reservation moving): amounts stay
			// within [0, capacity], as in a replay.
			var nodes []int32
			for range 1 + rng.IntN(3) {
				nodes = append(nodes, int32(rng.IntN(numNodes)))
			}
			slices.Sort(nodes)
			from := now + sim.Time(rng.IntN(int(span)))
			to := from + 1 + sim.Time(rng.IntN(int(span)/4))
			sign := sim.Amount(-1)
			size := sim.Amount(1 + rng.IntN(max(capacity/3, 1)))
			if i := rng.IntN(len(b.books) + 1); i < len(b.books) && b.books[i].amt < 0 && rng.IntN(3) == 0 {
				bk := b.books[i]
				nodes, from, to, sign, size = []int32{bk.n}, max(bk.from, now), bk.to, 1, -bk.amt
				b.books[i].amt = 0 // given back: drop both
			} else {
				ok := true
				for _, n := range nodes {
					c := sim.Amount(0)
					for _, m := range nodes {
						if m == n {
							c++
						}
					}
					times, free := b.steps(int(n), from, nil)
					ok = ok && fits(times, free, from, to-from, c*size, 1) > 0
				}
				if !ok {
					continue
				}
			}
			if len(nodes) == 0 || to <= from {
				continue
			}
			p.addNodes(nodes, b.base, from, to, []sim.Need{{Res: 0, Amt: size}}, sign)
			if sign < 0 {
				for _, n := range nodes {
					b.books = append(b.books, booking{n, from, to, -size, step})
				}
			}
			checkSharing(t, p, step)
			for n := 0; n < numNodes; n++ {
				for _, s := range []sim.Time{now, from, to - 1, to, now + sim.Time(rng.IntN(int(span)+50))} {
					got := b.base[n]
					if l, ok := p.lineOf(n); ok {
						i := sortSearch(l.times, s)
						got = l.free[i]
					}
					if want := b.free(n, s, nil); got != want {
						t.Fatalf("%d nodes, step %d: node %d at %d: profile %d, direct %d", numNodes, step, n, s, got, want)
					}
				}
			}
			amt := sim.Amount(1 + rng.IntN(capacity))
			k := 1 + rng.IntN(numNodes+1)
			d := sim.Time(1 + rng.IntN(int(span)/5))
			before := sim.Forever
			if rng.IntN(2) == 0 {
				before = now + sim.Time(rng.IntN(int(span)))
			}
			req := []sim.Need{{Res: 0, Amt: amt}}
			gt, gn, gok := p.earliest(b.base, numNodes, req, k, d, now, before)
			wt, wn, wok := b.earliest(now, d, before, amt, k, nil)
			if gok != wok || gok && (gt != wt || !slices.Equal(gn, wn)) {
				t.Fatalf("%d nodes, step %d: earliest(k %d, amt %d, d %d, before %d): profile %v %d %v, direct %v %d %v",
					numNodes, step, k, amt, d, before, gok, gt, gn, wok, wt, wn)
			}
			if numNodes > 1 {
				checkOwnSweep(t, p, b, rng, step, now, before)
			}
			checkLongestStretch(t, p, b, rng, step, now, span)
			checkFitSummary(t, p, b, rng, step, now, capacity, span)
			l, ok := p.lineOf(0)
			if numNodes != 1 || !ok {
				continue
			}
			// A taken slot counted free, as compression searches it.
			own := rng.IntN(len(b.books))
			bk := b.books[own]
			if bk.amt > 0 || bk.from < now {
				continue
			}
			need := sim.Amount(1 + rng.IntN(capacity))
			gt, gok = p.firstWindowCount(l, d, 0, need, now, before, slot{from: bk.from, to: bk.to, amt: -bk.amt})
			wt, _, wok = b.earliest(now, d, before, need, 1, func(i int) bool { return i == own })
			if gok != wok || gok && gt != wt {
				t.Fatalf("step %d: own-slot search (need %d, d %d, before %d): profile %v %d, direct %v %d",
					step, need, d, before, gok, gt, wok, wt)
			}
		}
	}
}

// checkLongestStretch checks a freed record's stretch bound on random
// nodes and spans against the step functions: among the stretches from now
// on in which amt fits throughout, overlapping the span, over the record's
// nodes, the longest that ends and the earliest start of one that lasts for
// good (Forever and now, a bound that rules nothing, when one of them has
// no timeline).
func checkLongestStretch(t *testing.T, p *profile, b *bruteProfile, rng *rand.Rand, step int, now, span sim.Time) {
	var nodes []int32
	for range 1 + rng.IntN(3) {
		nodes = append(nodes, int32(rng.IntN(len(b.base))))
	}
	from := now - 5 + sim.Time(rng.IntN(int(span)))
	f := nodesFreed(nodes, from, from+1+sim.Time(rng.IntN(int(span)/3)))
	amt := sim.Amount(1 + rng.IntN(int(b.base[0])))
	got, gotTail := (&scheduler{prof: p}).longestStretch(&f, 0, amt)
	var want sim.Time
	wantTail := sim.Forever
	for _, n := range f.nodes.list {
		if _, ok := p.lineOf(int(n)); !ok {
			want, wantTail = sim.Forever, now
			break
		}
		times, free := b.steps(int(n), now, nil)
		for _, st := range stretchesOf(times, free, amt) {
			switch {
			case st.from >= f.to || st.to <= max(f.from, now):
			case st.to == sim.Forever:
				wantTail = min(wantTail, st.from)
			default:
				want = max(want, st.to-st.from)
			}
		}
	}
	if max(f.from, now) >= f.to {
		want, wantTail = 0, sim.Forever
	}
	if got != want || gotTail != wantTail {
		t.Fatalf("step %d: stretches of %d on %v over [%d, %d) at now %d: longest %d, tail %d; direct %d, %d",
			step, amt, f.nodes.list, f.from, f.to, now, got, gotTail, want, wantTail)
	}
}

// stretch is a stretch of time in which a task fits: [from, to), to
// Forever for one that lasts.
type stretch struct{ from, to sim.Time }

// stretchesOf lists the stretches of a step function in which amt fits,
// in order.
func stretchesOf(times []sim.Time, free []sim.Amount, amt sim.Amount) []stretch {
	var out []stretch
	for i := 0; i < len(times); {
		if free[i] < amt {
			i++
			continue
		}
		a := times[i]
		for i < len(times) && free[i] >= amt {
			i++
		}
		end := sim.Forever
		if i < len(times) {
			end = times[i]
		}
		out = append(out, stretch{a, end})
	}
	return out
}

// checkFitSummary checks a random timeline's fit summary for one task
// against its node's step function: every stretch in which a task fits
// must be admitted (the summary in use, perhaps from before a fold), and a
// summary computed afresh, with few enough stretches to keep them all, must
// admit nothing more.
func checkFitSummary(t *testing.T, p *profile, b *bruteProfile, rng *rand.Rand, step int, now sim.Time, capacity int, span sim.Time) {
	t.Helper()
	n := rng.IntN(len(b.base))
	l, has := p.lineOf(n)
	if !has {
		return
	}
	amt := sim.Amount(1 + rng.IntN(capacity))
	times, free := b.steps(n, now, nil)
	stretches := stretchesOf(times, free, amt)
	// admits is the exact answer of mayFit: a window of d starting before
	// `before` lies in one of the stretches.
	admits := func(d, before sim.Time) bool {
		for _, st := range stretches {
			if st.from < before && st.to-st.from >= d {
				return true
			}
		}
		return false
	}
	cached := *p.summary(l.idx, 0, amt)
	fresh := *p.summarize(l.idx, 0, amt)
	// The stretches before the tail that are longer than all earlier ones.
	climbs, longest := 0, sim.Time(0)
	for _, st := range stretches {
		if st.to != sim.Forever && st.to-st.from > longest {
			climbs, longest = climbs+1, st.to-st.from
		}
	}
	exact := l.times[0] == now && climbs <= len(fresh.stairs)
	for range 20 {
		d := sim.Time(1 + rng.IntN(int(span)/3))
		before := now + sim.Time(rng.IntN(int(span)+50))
		want := admits(d, before)
		for _, fs := range []fitSummary{cached, fresh} {
			if got := fs.mayFit(d, before); want && !got {
				t.Fatalf("step %d: node %d, amount %d: a window of %d starting before %d fits (stretches %v), summary %+v says none",
					step, n, amt, d, before, stretches, fs)
			}
		}
		if got := fresh.mayFit(d, before); exact && got != want {
			t.Fatalf("step %d: node %d, amount %d: a window of %d starting before %d: summary %+v says %v, stretches %v",
				step, n, amt, d, before, fresh, got, stretches)
		}
	}
}

// checkOwnSweep takes the bookings of one earlier take still in force as a
// job's own reservation and checks the sweep for an earlier start with it
// counted free against the direct search without it.
func checkOwnSweep(t *testing.T, p *profile, b *bruteProfile, rng *rand.Rand, step int, now, before sim.Time) {
	if len(b.books) == 0 {
		return
	}
	call := b.books[rng.IntN(len(b.books))].call
	var nodes []int32
	var own booking
	for _, bk := range b.books {
		if bk.call == call && bk.amt < 0 { // not given back
			nodes, own = append(nodes, bk.n), bk
		}
	}
	if len(nodes) == 0 || own.from <= now {
		return
	}
	slices.Sort(nodes)
	d, size := own.to-own.from, -own.amt
	before = min(before, own.from)
	k := 1 + rng.IntN(len(b.base)+1)
	req := []sim.Need{{Res: 0, Amt: size}}
	gt, gok, _ := p.sweep(b.base, req, k, d, now, before, slot{from: own.from, to: own.to, amt: size}, p.ownGroups(nodes))
	wt, _, wok := b.earliest(now, d, before, size, k, func(i int) bool { return b.books[i].call == call })
	if gok != wok || gok && gt != wt {
		t.Fatalf("step %d: sweep with own slot %v on %v (k %d, before %d): profile %v %d, direct %v %d",
			step, own, nodes, k, before, gok, gt, wok, wt)
	}
	// Re-picking the nodes at the reservation's own start, with it counted
	// free: the lowest-numbered nodes holding its tasks there.
	var want []int32
	for n := range b.base {
		times, free := b.steps(n, now, func(i int) bool { return b.books[i].call == call })
		for w := fits(times, free, own.from, d, size, len(nodes)-len(want)); w > 0; w-- {
			want = append(want, int32(n))
		}
	}
	if got := p.pickKnown(b.base, len(b.base), req, len(nodes), d, own.from, nodes, 0); !slices.Equal(got, want) {
		t.Fatalf("step %d: re-pick of own slot %v on %v: profile %v, direct %v", step, own, nodes, got, want)
	}
	if len(nodes) != 1 {
		return
	}
	// A one-task reservation: firstOne, with its node.
	ot, on, ook := p.firstOne(b.base, len(b.base), req, d, now, before, ownTask{node: nodes[0], slot: slot{from: own.from, to: own.to, amt: size}})
	wt, wn, wok := b.earliest(now, d, before, size, 1, func(i int) bool { return b.books[i].call == call })
	if ook != wok || ook && (ot != wt || []int32{on}[0] != wn[0]) {
		t.Fatalf("step %d: one-task search with own slot %v on node %d (before %d): profile %v %d on %d, direct %v %d on %v",
			step, own, nodes[0], before, ook, ot, on, wok, wt, wn)
	}
}

// checkSharing checks the live timelines' bookkeeping against the nodes:
// each live timeline's position, how many nodes share it and the lowest.
func checkSharing(t *testing.T, p *profile, step int) {
	t.Helper()
	for i, l := range p.live {
		refs, low := int32(0), int32(-1)
		for n, m := range p.lines {
			if m == l {
				if low < 0 {
					low = int32(n)
				}
				refs++
			}
		}
		if s := p.sums[i]; l.idx != int32(i) || s.refs != refs || s.low != low {
			t.Fatalf("step %d: live timeline %d: idx %d, refs %d, lowest node %d; the nodes say refs %d, lowest %d", step, i, l.idx, s.refs, s.low, refs, low)
		}
	}
	// The summary index, brought up to date, files every live timeline
	// once, in order, under keys that admit at least what its summary
	// admits (folds since the keys were taken only narrow the summary).
	x := &p.index
	if !x.built || !p.indexFor(x.res, x.unit) {
		return
	}
	for _, l := range p.live {
		fs := *p.summary(l.idx, x.res, x.unit)
		byTail, byInner := 0, 0
		for _, e := range x.byTail {
			if e.l == l {
				byTail++
				if e.key > fs.tail {
					t.Fatalf("step %d: timeline filed under tail %d, summary says %d", step, e.key, fs.tail)
				}
			}
		}
		for k, list := range x.byInner.lists {
			for i, m := range list {
				if m != l {
					continue
				}
				byInner++
				if k < innerBucket(fs.inner()) || int(l.innerBucket) != k || int(l.innerSlot) != i {
					t.Fatalf("step %d: timeline filed in inner bucket %d (slot %d) at %d, %d; summary says inner stretch %d (bucket %d)",
						step, l.innerBucket, l.innerSlot, k, i, fs.inner(), innerBucket(fs.inner()))
				}
			}
		}
		if byTail != 1 || byInner > 1 || fs.inner() > 0 && byInner == 0 {
			t.Fatalf("step %d: a live timeline filed %d times by tail, %d by inner stretch (summary: %d)", step, byTail, byInner, fs.inner())
		}
	}
	if len(x.byTail) != len(p.live) {
		t.Fatalf("step %d: index of %d timelines by tail, for %d live ones", step, len(x.byTail), len(p.live))
	}
	if !slices.IsSortedFunc(x.byTail, func(a, b indexEntry) int { return cmp.Compare(a.key, b.key) }) {
		t.Fatalf("step %d: summary index out of order", step)
	}
	for k, list := range x.byInner.lists {
		if used := x.byInner.used[k/64]&(1<<(k%64)) != 0; used != (len(list) > 0) {
			t.Fatalf("step %d: inner bucket %d of %d timelines marked used %v", step, k, len(list), used)
		}
	}
}

// sortSearch is the index of the segment holding t.
func sortSearch(times []sim.Time, t sim.Time) int {
	i, _ := slices.BinarySearch(times, t+1)
	return i - 1
}

// TestBlockIndexInvariant edits one timeline at random (breakpoints added
// and removed, amounts added to ranges, lazy folds) and checks after each
// edit that the block index tiles the indexed segments and holds each
// block's least and greatest amount.
func TestBlockIndexInvariant(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	p := newProfile(1, 1, 0, []sim.Amount{0})
	l := p.newLine([]sim.Time{0}, []sim.Amount{100})
	now := sim.Time(0)
	for step := 0; step < 5000; step++ {
		switch rng.IntN(10) {
		case 0:
			now += sim.Time(rng.IntN(20))
			p.now = now
			p.fold(l, true)
		case 1:
			if i := rng.IntN(len(l.times)); i > 0 {
				p.unbreak(l, i)
			}
		default:
			from := now + sim.Time(rng.IntN(2000))
			to := from + 1 + sim.Time(rng.IntN(400))
			p.rangeAdd(l, from, to, []sim.Need{{Res: 0, Amt: 1}}, sim.Amount(rng.IntN(21)-10), false)
		}
		if rng.IntN(3) == 0 {
			l.blocks.ensure(l, 1, 0)
			b := &l.blocks
			for k := range b.mins {
				if b.end(k) > len(l.times) {
					t.Fatalf("step %d: block %d ends at %d of %d segments", step, k, b.end(k), len(l.times))
				}
				lo, hi := blockRange(l, 1, 0, k)
				if lo != b.mins[k] || hi != b.maxs[k] {
					t.Fatalf("step %d: block %d: index %d..%d, segments %d..%d", step, k, b.mins[k], b.maxs[k], lo, hi)
				}
			}
		}
	}
}

// TestGallop checks gallop against a linear scan on random sorted lists.
func TestGallop(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		nodes := make([]int32, 1+rng.IntN(40))
		for i := range nodes {
			nodes[i] = int32(rng.IntN(60))
		}
		slices.Sort(nodes)
		i := rng.IntN(len(nodes))
		target := nodes[i] + 1 + int32(rng.IntN(30))
		want := i + 1
		for want < len(nodes) && nodes[want] < target {
			want++
		}
		if got := gallop(nodes, i, target); got != want {
			t.Fatalf("gallop(%v, %d, %d) = %d, want %d", nodes, i, target, got, want)
		}
	}
}

// TestInnerBucket checks that the inner-stretch buckets are within range
// and monotone, so that a search reading from d's bucket up reads every
// timeline with a stretch of d or more.
func TestInnerBucket(t *testing.T) {
	prev := 0
	for x := sim.Time(1); x < 1<<20; x++ {
		b := innerBucket(x)
		if b < prev || b >= innerBucketCount {
			t.Fatalf("innerBucket(%d) = %d after %d", x, b, prev)
		}
		prev = b
	}
	for _, x := range []sim.Time{1 << 40, 1<<62 - 1, sim.Forever} {
		if b := innerBucket(x); b < prev || b >= innerBucketCount {
			t.Fatalf("innerBucket(%d) = %d", x, b)
		}
	}
}

// TestSegmentAt checks segmentAt against a linear scan, at and around
// every breakpoint of random timelines, and at the ends of time.
func TestSegmentAt(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for range 500 {
		times := make([]sim.Time, rng.IntN(30))
		at := sim.Time(rng.IntN(100))
		for i := range times {
			at += 1 + sim.Time(rng.IntN(50))
			times[i] = at
		}
		probes := []sim.Time{0, sim.Forever, -1}
		for _, b := range times {
			probes = append(probes, b-1, b, b+1)
		}
		for _, p := range probes {
			want := -1
			for i, b := range times {
				if b <= p {
					want = i
				}
			}
			if got := segmentAt(times, p); got != want {
				t.Fatalf("segmentAt(%v, %d) = %d, want %d", times, p, got, want)
			}
		}
	}
}
