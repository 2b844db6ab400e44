package policies

import (
	"sort"

	"github.com/schedsim/schedsim/sim"
)

// byEnd keeps running jobs sorted by projected end (start + estimate, then
// arrival), updated as jobs start and end instead of sorted every pass.
//
// It is a sorted list cut into chunks of at most 2·endChunk jobs: an
// insertion or removal moves one chunk's entries, not the whole list. A
// flat sorted slice moved every entry after the position, which dominated
// replays with 10⁵ jobs running at once (a Google-like trace on 12,500
// machines); the scans of EASY's shadow stop after the first few ends, so
// they walk the chunks in order.
//
// Entries name their job by a slot in jobs, not by pointer: the chunks then
// hold no pointers, so moving entries is a plain memory move and the
// garbage collector neither scans them nor puts write barriers on the
// moves (with 10⁵ jobs running, the barriers cost as much as the moves).
type byEnd struct {
	chunks [][]endEntry // each sorted and not empty, in order
	n      int
	jobs   []*sim.JobRun // by slot; nil when free
	free   []int32       // free slots
}

// endEntry is a running job's slot with its sort key, computed once.
type endEntry struct {
	end  sim.Time
	seq  int64
	slot int32
}

// entryOf is j's entry, without a slot.
func entryOf(j *sim.JobRun) endEntry { return endEntry{end: endKey(j), seq: j.Seq, slot: -1} }

// take gives j a slot.
func (b *byEnd) take(j *sim.JobRun) int32 {
	if n := len(b.free); n > 0 {
		s := b.free[n-1]
		b.free = b.free[:n-1]
		b.jobs[s] = j
		return s
	}
	b.jobs = append(b.jobs, j)
	return int32(len(b.jobs) - 1)
}

// release frees slot s.
func (b *byEnd) release(s int32) {
	b.jobs[s] = nil
	b.free = append(b.free, s)
}

func (e endEntry) before(f endEntry) bool {
	return e.end < f.end || (e.end == f.end && e.seq < f.seq)
}

// endChunk is the chunk size: a split makes two chunks of endChunk.
const endChunk = 256

func endKey(j *sim.JobRun) sim.Time { return j.Start + j.EstimatedRuntime() }

// endsBefore is the order: projected end, then arrival.
func endsBefore(a, b *sim.JobRun) bool { return entryOf(a).before(entryOf(b)) }

// len is the number of jobs held.
func (b *byEnd) len() int { return b.n }

// first is the job that ends first; nil when empty.
func (b *byEnd) first() *sim.JobRun {
	if b.n == 0 {
		return nil
	}
	return b.jobs[b.chunks[0][0].slot]
}

// locate returns the chunk where j belongs (the first whose last job does
// not end before j, else the last) and j's position in it.
func (b *byEnd) locate(e endEntry) (c, i int) {
	c = sort.Search(len(b.chunks), func(k int) bool {
		ch := b.chunks[k]
		return !ch[len(ch)-1].before(e)
	})
	if c == len(b.chunks) {
		c--
	}
	ch := b.chunks[c]
	i = sort.Search(len(ch), func(k int) bool { return !ch[k].before(e) })
	return c, i
}

func (b *byEnd) insert(j *sim.JobRun) {
	b.n++
	e := entryOf(j)
	e.slot = b.take(j)
	if len(b.chunks) == 0 {
		b.chunks = append(b.chunks, append(make([]endEntry, 0, 2*endChunk), e))
		return
	}
	c, i := b.locate(e)
	ch := append(b.chunks[c], endEntry{})
	copy(ch[i+1:], ch[i:])
	ch[i] = e
	b.chunks[c] = ch
	if len(ch) > 2*endChunk {
		// Split in two halves; the second gets a fresh array.
		second := append(make([]endEntry, 0, 2*endChunk), ch[endChunk:]...)
		clear(ch[endChunk:])
		b.chunks = append(b.chunks, nil)
		copy(b.chunks[c+2:], b.chunks[c+1:])
		b.chunks[c] = ch[:endChunk]
		b.chunks[c+1] = second
	}
}

func (b *byEnd) remove(j *sim.JobRun) {
	if b.n == 0 {
		return
	}
	c, i := b.locate(entryOf(j))
	if ch := b.chunks[c]; i >= len(ch) || b.jobs[ch[i].slot] != j {
		// Not where its key says: a job stopped by a node event has had
		// its saved work (so its estimate) changed since it was put in.
		if c, i = b.find(j); c < 0 {
			return
		}
	}
	ch := b.chunks[c]
	b.n--
	b.release(ch[i].slot)
	copy(ch[i:], ch[i+1:])
	ch[len(ch)-1] = endEntry{}
	ch = ch[:len(ch)-1]
	if len(ch) > 0 {
		b.chunks[c] = ch
		return
	}
	copy(b.chunks[c:], b.chunks[c+1:])
	b.chunks[len(b.chunks)-1] = nil
	b.chunks = b.chunks[:len(b.chunks)-1]
}

// find looks for j everywhere; c < 0 when it is not held.
func (b *byEnd) find(j *sim.JobRun) (c, i int) {
	for c, ch := range b.chunks {
		for i, e := range ch {
			if b.jobs[e.slot] == j {
				return c, i
			}
		}
	}
	return -1, -1
}

// endCursor walks a byEnd in order; it must not outlive a change to it.
type endCursor struct {
	b    *byEnd
	c, i int
}

// cursor is at the job that ends first.
func (b *byEnd) cursor() endCursor { return endCursor{b: b} }

func (e *endCursor) valid() bool      { return e.c < len(e.b.chunks) }
func (e *endCursor) job() *sim.JobRun { return e.b.jobs[e.b.chunks[e.c][e.i].slot] }
func (e *endCursor) next() {
	if e.i++; e.i == len(e.b.chunks[e.c]) {
		e.c, e.i = e.c+1, 0
	}
}
