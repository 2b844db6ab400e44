package policies

import (
	"sort"

	"github.com/schedsim/schedsim/sim"
)

// blockSize is the number of timeline segments a block index entry covers
// when it is built; inserted breakpoints grow blocks up to twice that.
const blockSize = 32

// blockIndex keeps the minimum and maximum free amount of one resource over
// runs of consecutive segments of a timeline (blocks), so a count-based
// search can step over whole blocks that all have room (or all lack it)
// instead of testing every segment. It is maintained incrementally: an
// amount added to a range of segments shifts the blocks it covers and
// marks the two it cuts; an inserted breakpoint copies its neighbour's
// amount, so it only makes its block one longer and moves the later block
// starts; folding drops whole blocks.
type blockIndex struct {
	res    int
	built  bool
	starts []int // first segment of each block; block k ends where k+1 starts
	// covered is the number of segments indexed; the rest (the tail) is
	// indexed at the next ensure.
	covered    int
	dirtyFrom  int    // blocks from here on must be recomputed
	dirty      []bool // single blocks to recompute
	dirtyList  []int  // the blocks marked in dirty
	mins, maxs []sim.Amount
}

// end is the segment after block k.
func (b *blockIndex) end(k int) int {
	if k+1 < len(b.starts) {
		return b.starts[k+1]
	}
	return b.covered
}

// blockOf returns the block holding segment i (i < covered).
func (b *blockIndex) blockOf(i int) int {
	return sort.Search(len(b.starts), func(k int) bool { return b.starts[k] > i }) - 1
}

// inserted records that segment i was inserted as a copy of segment i−1.
func (b *blockIndex) inserted(i int) {
	if !b.built || i >= b.covered || len(b.starts) == 0 {
		return // in the tail
	}
	k := b.blockOf(i - 1)
	for q := k + 1; q < len(b.starts); q++ {
		b.starts[q]++
	}
	b.covered++
	if b.end(k)-b.starts[k] > 2*blockSize {
		b.dirtyFrom = min(b.dirtyFrom, k) // re-cut from here
	}
}

// removed records that segment i was removed.
func (b *blockIndex) removed(i int) {
	if !b.built || i >= b.covered || len(b.starts) == 0 {
		return
	}
	b.dirtyFrom = min(b.dirtyFrom, b.blockOf(i))
}

// stale marks the whole index for recomputation.
func (b *blockIndex) stale() { b.dirtyFrom = 0 }

// dropped removes the blocks wholly before segment i and returns how many
// segments they held, which the caller removes.
func (b *blockIndex) dropped(i int) int {
	if !b.built || len(b.starts) == 0 {
		return 0
	}
	q := len(b.starts)
	if i < b.covered {
		q = b.blockOf(i)
	}
	q = min(q, b.dirtyFrom) // later starts may be stale
	if q == 0 {
		return 0
	}
	n := b.covered
	if q < len(b.starts) {
		n = b.starts[q]
	}
	b.starts = append(b.starts[:0], b.starts[q:]...)
	for k := range b.starts {
		b.starts[k] -= n
	}
	b.mins, b.maxs, b.dirty = b.mins[q:], b.maxs[q:], b.dirty[q:]
	b.covered -= n
	b.dirtyFrom -= q
	keep := b.dirtyList[:0]
	for _, k := range b.dirtyList {
		if k >= q {
			keep = append(keep, k-q)
		}
	}
	b.dirtyList = keep
	return n
}

// added records that delta was added to resource res of segments [i, j).
func (b *blockIndex) added(i, j int, res int, delta sim.Amount) {
	if !b.built || res != b.res || delta == 0 || i >= b.covered || len(b.starts) == 0 {
		return
	}
	for k := b.blockOf(i); k < len(b.starts) && b.starts[k] < j && k < b.dirtyFrom; k++ {
		if b.starts[k] >= i && b.end(k) <= j {
			b.mins[k] += delta
			b.maxs[k] += delta
		} else if !b.dirty[k] {
			b.dirty[k] = true
			b.dirtyList = append(b.dirtyList, k)
		}
	}
}

// ensure makes the index current for resource res of l.
func (b *blockIndex) ensure(l *timeline, R, res int) {
	if !b.built || b.res != res {
		b.built, b.res, b.dirtyFrom = true, res, 0
		b.starts, b.mins, b.maxs, b.dirty = b.starts[:0], b.mins[:0], b.maxs[:0], b.dirty[:0]
		b.covered, b.dirtyList = 0, b.dirtyList[:0]
	}
	if b.dirtyFrom < len(b.starts) {
		b.covered = b.starts[b.dirtyFrom]
		k := b.dirtyFrom
		b.starts, b.mins, b.maxs, b.dirty = b.starts[:k], b.mins[:k], b.maxs[:k], b.dirty[:k]
	}
	for _, k := range b.dirtyList {
		if k < len(b.mins) && b.dirty[k] {
			b.mins[k], b.maxs[k] = blockRange(l, R, res, b.starts[k], b.end(k))
			b.dirty[k] = false
		}
	}
	b.dirtyList = b.dirtyList[:0]
	for m := len(l.times); b.covered+blockSize <= m; b.covered += blockSize { // whole blocks only
		lo, hi := blockRange(l, R, res, b.covered, b.covered+blockSize)
		b.starts = append(b.starts, b.covered)
		b.mins, b.maxs, b.dirty = append(b.mins, lo), append(b.maxs, hi), append(b.dirty, false)
	}
	b.dirtyFrom = len(b.starts)
}

// blockRange is the least and greatest free amount of res in segments
// [from, to).
func blockRange(l *timeline, R, res, from, to int) (lo, hi sim.Amount) {
	lo, hi = l.free[from*R+res], l.free[from*R+res]
	for i := from + 1; i < to; i++ {
		v := l.free[i*R+res]
		lo, hi = min(lo, v), max(hi, v)
	}
	return lo, hi
}

// skippable reports whether whole block k can be stepped over when looking
// for a segment with room (free ≥ need, room = true) or without it. Segments
// in [ownLo, ownHi) count own more; a block partly inside that range is
// never skipped.
func (b *blockIndex) skippable(k int, room bool, need sim.Amount, ownLo, ownHi int, own sim.Amount) bool {
	lo, hi := b.starts[k], b.end(k)
	var add sim.Amount
	switch {
	case hi <= ownLo || lo >= ownHi:
	case lo >= ownLo && hi <= ownHi:
		add = own
	default:
		return false
	}
	if room {
		return b.maxs[k]+add < need // nothing in the block has room
	}
	return b.mins[k]+add >= need // everything in the block has room
}
