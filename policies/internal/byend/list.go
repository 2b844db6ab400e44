package byend

import (
	"cmp"
	"slices"
	"sort"

	"github.com/schedsim/schedsim/sim"
)

// List keeps running jobs sorted by projected end (start + estimate, then
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
//
// Jobs that start wait unsorted in pending until the order is read (first,
// cursor); one that ends before then leaves in constant time, found by its
// slot (JobRun.PolicySlot). When nothing waits, EASY never reads the
// order, and on a Google-like trace on 2,500 machines the sorted inserts
// and removes were a tenth of the engine's time.
type List struct {
	chunks  [][]endEntry  // each sorted and not empty, in order
	pending []endEntry    // not yet in the chunks, in no order
	n       int           // jobs held, in the chunks and pending
	jobs    []*sim.JobRun // by slot; nil when free
	where   []int32       // by slot: the index in pending, −1 in the chunks
	free    []int32       // free slots
}

// endEntry is a running job's slot with its sort key, computed once.
type endEntry struct {
	end  sim.Time
	seq  int64
	slot int32
}

// entryOf is j's entry, without a slot.
func entryOf(j *sim.JobRun) endEntry { return endEntry{end: Key(j), seq: j.Seq, slot: -1} }

// take gives j a slot, noted in j.PolicySlot (plus one: 0 is none).
func (b *List) take(j *sim.JobRun) int32 {
	var s int32
	if n := len(b.free); n > 0 {
		s = b.free[n-1]
		b.free = b.free[:n-1]
		b.jobs[s] = j
	} else {
		b.jobs = append(b.jobs, j)
		b.where = append(b.where, -1)
		s = int32(len(b.jobs) - 1)
	}
	j.PolicySlot = s + 1
	return s
}

// release frees slot s.
func (b *List) release(s int32) {
	if j := b.jobs[s]; j.PolicySlot == s+1 {
		j.PolicySlot = 0
	}
	b.jobs[s] = nil
	b.free = append(b.free, s)
}

// slotOf returns j's slot, or −1 when j.PolicySlot does not name one of
// this list's slots holding j.
func (b *List) slotOf(j *sim.JobRun) int32 {
	s := j.PolicySlot - 1
	if s < 0 || int(s) >= len(b.jobs) || b.jobs[s] != j {
		return -1
	}
	return s
}

func (e endEntry) before(f endEntry) bool {
	return e.end < f.end || (e.end == f.end && e.seq < f.seq)
}

// endChunk is the chunk size: a split makes two chunks of endChunk.
const endChunk = 256

// Key is a running job's projected end: its start plus its estimate.
func Key(j *sim.JobRun) sim.Time { return j.Start + j.EstimatedRuntime() }

// Len is the number of jobs held.
func (b *List) Len() int { return b.n }

// First is the job that ends first; nil when empty.
func (b *List) First() *sim.JobRun {
	b.settle()
	if b.n == 0 {
		return nil
	}
	return b.jobs[b.chunks[0][0].slot]
}

// locate returns the chunk where j belongs (the first whose last job does
// not end before j, else the last) and j's position in it.
func (b *List) locate(e endEntry) (c, i int) {
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

// Insert adds a job that started; it waits in pending.
func (b *List) Insert(j *sim.JobRun) {
	b.n++
	e := entryOf(j)
	e.slot = b.take(j)
	b.where[e.slot] = int32(len(b.pending))
	b.pending = append(b.pending, e)
}

// settle sorts the pending jobs into the chunks.
func (b *List) settle() {
	if len(b.pending) == 0 {
		return
	}
	slices.SortFunc(b.pending, func(x, y endEntry) int {
		if c := cmp.Compare(x.end, y.end); c != 0 {
			return c
		}
		return cmp.Compare(x.seq, y.seq)
	})
	for _, e := range b.pending {
		b.where[e.slot] = -1
		b.place(e)
	}
	b.pending = b.pending[:0]
}

// place puts entry e in its chunk.
func (b *List) place(e endEntry) {
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

// Remove takes out a job that ended, wherever it is.
func (b *List) Remove(j *sim.JobRun) {
	if b.n == 0 {
		return
	}
	if s := b.slotOf(j); s >= 0 {
		if b.where[s] >= 0 {
			b.unpend(s)
			return
		}
	} else {
		// Its PolicySlot does not name it here (a job not held, or one
		// whose PolicySlot another list overwrote): look in pending too.
		for _, e := range b.pending {
			if b.jobs[e.slot] == j {
				b.unpend(e.slot)
				return
			}
		}
	}
	if len(b.chunks) == 0 {
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

// unpend takes the job of slot s out of pending.
func (b *List) unpend(s int32) {
	p := b.where[s]
	last := b.pending[len(b.pending)-1]
	b.pending[p] = last
	b.where[last.slot] = p
	b.pending = b.pending[:len(b.pending)-1]
	b.where[s] = -1
	b.n--
	b.release(s)
}

// find looks for j in the chunks; c < 0 when it is not there.
func (b *List) find(j *sim.JobRun) (c, i int) {
	for c, ch := range b.chunks {
		for i, e := range ch {
			if b.jobs[e.slot] == j {
				return c, i
			}
		}
	}
	return -1, -1
}

// Cursor walks a List in order; it must not outlive a change to it.
type Cursor struct {
	b    *List
	c, i int
}

// Cursor is at the job that ends first.
func (b *List) Cursor() Cursor {
	b.settle()
	return Cursor{b: b}
}

func (e *Cursor) Valid() bool      { return e.c < len(e.b.chunks) }
func (e *Cursor) Job() *sim.JobRun { return e.b.jobs[e.b.chunks[e.c][e.i].slot] }
func (e *Cursor) Next() {
	if e.i++; e.i == len(e.b.chunks[e.c]) {
		e.c, e.i = e.c+1, 0
	}
}
