package conservative

import "github.com/schedsim/schedsim/sim"

// blockSize is the number of timeline segments a block index entry covers.
const blockSize = 32

// blockIndex keeps the minimum and maximum free amount of one resource over
// each run of blockSize segments of a timeline, so a count-based search can
// step over whole blocks that all have room (or all lack it) instead of
// testing every segment. It is maintained incrementally: an amount added to
// a range of segments shifts the blocks it covers and marks the two it cuts;
// an inserted breakpoint shifts the blocks after it, which are recomputed
// at the next search (breakpoints are mostly added near the end).
type blockIndex struct {
	res        int
	built      bool
	dirtyFrom  int    // blocks from here on must be recomputed
	dirty      []bool // single blocks to recompute
	mins, maxs []sim.Amount
}

// start and end bound block k: segments [start, end).
func (b *blockIndex) end(k int) int { return (k + 1) * blockSize }

// inserted records that segment i was inserted: the blocks from it on are
// stale. (Blocks that grow instead would skip less: they get longer.)
func (b *blockIndex) inserted(i int) { b.shifted(i) }

// removed records that segment i was removed.
func (b *blockIndex) removed(i int) { b.shifted(i) }

// stale marks the whole index for recomputation.
func (b *blockIndex) stale() { b.shifted(0) }

// shifted marks every block from segment i on as stale.
func (b *blockIndex) shifted(i int) {
	b.dirtyFrom = min(b.dirtyFrom, i/blockSize)
}

// dropped removes the whole blocks before segment i and returns how many
// segments they held, which the caller removes.
func (b *blockIndex) dropped(i int) int {
	q := i / blockSize
	k := min(q, len(b.mins))
	b.mins, b.maxs, b.dirty = b.mins[k:], b.maxs[k:], b.dirty[k:]
	b.dirtyFrom = max(b.dirtyFrom-q, 0)
	return q * blockSize
}

// added records that delta was added to resource res of segments [i, j).
func (b *blockIndex) added(i, j int, res int, delta sim.Amount) {
	if !b.built || res != b.res || delta == 0 {
		return
	}
	for k := i / blockSize; k*blockSize < j && k < len(b.mins) && k < b.dirtyFrom; k++ {
		if k*blockSize >= i && (k+1)*blockSize <= j {
			b.mins[k] += delta
			b.maxs[k] += delta
		} else {
			b.dirty[k] = true
		}
	}
}

// ensure makes the index current for resource res of l.
func (b *blockIndex) ensure(l *timeline, R, res int) {
	if !b.built || b.res != res {
		b.built, b.res, b.dirtyFrom = true, res, 0
		b.mins, b.maxs, b.dirty = b.mins[:0], b.maxs[:0], b.dirty[:0]
	}
	n := len(l.times) / blockSize // only whole blocks are indexed
	if b.dirtyFrom < len(b.mins) {
		b.mins, b.maxs, b.dirty = b.mins[:b.dirtyFrom], b.maxs[:b.dirtyFrom], b.dirty[:b.dirtyFrom]
	}
	if len(b.mins) > n {
		b.mins, b.maxs, b.dirty = b.mins[:n], b.maxs[:n], b.dirty[:n]
	}
	for k := range b.mins {
		if b.dirty[k] {
			b.mins[k], b.maxs[k] = blockRange(l, R, res, k)
			b.dirty[k] = false
		}
	}
	for k := len(b.mins); k < n; k++ {
		lo, hi := blockRange(l, R, res, k)
		b.mins, b.maxs, b.dirty = append(b.mins, lo), append(b.maxs, hi), append(b.dirty, false)
	}
	b.dirtyFrom = n
}

// blockRange is the least and greatest free amount of res in block k.
func blockRange(l *timeline, R, res, k int) (lo, hi sim.Amount) {
	lo, hi = l.free[k*blockSize*R+res], l.free[k*blockSize*R+res]
	for i := k*blockSize + 1; i < (k+1)*blockSize; i++ {
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
	lo, hi := k*blockSize, (k+1)*blockSize
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
