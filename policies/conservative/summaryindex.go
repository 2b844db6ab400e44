package conservative

import (
	"cmp"
	"math/bits"
	"slices"

	"github.com/schedsim/schedsim/sim"
)

// summaryIndex orders the live timelines by their fit summaries for one
// task shape (resource and unit), so that a search for a window of length
// d starting before b reads only the timelines that may hold one: those
// whose tail is before b, then those with an inner stretch of d or more
// (fitSummary.mayFit). It never leaves out a timeline a plain scan would
// find a window on; it may return some that have none, which the callers
// check as a scan does.
//
// The timelines are kept sorted by tail, and in buckets of similar inner
// stretch (innerBuckets), unsorted within a bucket: a search needs only
// those at least so long, in any order, and the callers' results do not
// depend on the order.
//
// It is built for the first shape asked and serves only that one (other
// shapes scan every timeline), and only while there are at least
// profile.indexFrom live timelines. A timeline whose amounts change, or that
// comes or goes, is queued (dirty) and put back in place before the next
// search, with its summary recomputed. Folding past breakpoints does not
// refile anything: it only narrows where a task fits, so the keys still
// admit every window (fitSummary). docs/performance.md measures what the
// index saves.
type summaryIndex struct {
	built   bool
	res     int
	unit    sim.Amount
	byTail  []indexEntry // ascending tail
	byInner innerBuckets // timelines with an inner stretch only
	dirty   []*timeline
}

// defaultIndexFrom is how many live timelines make the index worth
// building (profile.indexFrom); it is dropped when they fall below half as
// many.
const defaultIndexFrom = 256

// indexEntry is a timeline under the key it is sorted by.
type indexEntry struct {
	key sim.Time
	l   *timeline
}

// changed queues l to be put back in place (its amounts changed, or it
// left or joined the live set).
func (x *summaryIndex) changed(l *timeline) {
	if x.built && !l.dirty {
		l.dirty = true
		x.dirty = append(x.dirty, l)
	}
}

// indexFor reports whether the index answers for one task of unit of res,
// building it on first use, and brings it up to date.
func (p *profile) indexFor(res int, unit sim.Amount) bool {
	x := &p.index
	switch {
	case x.built && len(p.live) < p.indexFrom/2:
		*x = summaryIndex{} // few timelines again: scanning is cheaper
		return false
	case !x.built && len(p.live) < p.indexFrom:
		return false
	case !x.built:
		*x = summaryIndex{built: true, res: res, unit: unit}
		for _, l := range p.live {
			l.indexed, l.dirty, l.innerBucket = false, true, -1
			x.dirty = append(x.dirty, l)
		}
	}
	if x.res != res || x.unit != unit {
		return false
	}
	for _, l := range x.dirty {
		l.dirty = false
		if l.idx < 0 { // no longer live
			if l.indexed {
				x.byTail = refile(x.byTail, l, l.tailKey, 0, true, false)
				x.byInner.refile(l, 0)
				l.indexed = false
			}
			continue
		}
		fs := p.summary(l.idx, res, unit)
		x.byTail = refile(x.byTail, l, l.tailKey, fs.tail, l.indexed, true)
		x.byInner.refile(l, fs.inner())
		l.indexed, l.tailKey = true, fs.tail
	}
	x.dirty = x.dirty[:0]
	return true
}

// candidates appends to dst, each once, the live timelines on which a
// window of length d starting before b may hold one task of the index's
// shape: every timeline whose summary admits one, and perhaps a few more.
func (p *profile) candidates(dst []*timeline, d, b sim.Time) []*timeline {
	p.epoch++
	for _, e := range p.index.byTail {
		if e.key >= b {
			break
		}
		e.l.mark = p.epoch
		dst = append(dst, e.l)
	}
	return p.index.byInner.atLeast(dst, d, p.epoch)
}

// position returns where e goes in an index sorted ascending by key and
// then by timeline id: its place, if it is there.
func position(entries []indexEntry, e indexEntry) (int, bool) {
	return slices.BinarySearchFunc(entries, e, func(a, b indexEntry) int {
		if a.key != b.key {
			return cmp.Compare(a.key, b.key)
		}
		return cmp.Compare(a.l.id, b.l.id)
	})
}

// refile moves l from key old, if it is filed, to key new, if it is to be,
// in an index sorted ascending; a move shifts only the entries between the
// two places.
func refile(entries []indexEntry, l *timeline, old, new sim.Time, filed, file bool) []indexEntry {
	if filed && file && old == new {
		return entries // in place already: most changes keep the key
	}
	e := indexEntry{new, l}
	if !filed {
		if !file {
			return entries
		}
		j, _ := position(entries, e)
		return slices.Insert(entries, j, e)
	}
	i, found := position(entries, indexEntry{old, l})
	if !found {
		panic("conservative: a timeline missing from the summary index")
	}
	if !file {
		return slices.Delete(entries, i, i+1)
	}
	// j counts l's old entry, still at i.
	if j, _ := position(entries, e); j > i {
		copy(entries[i:j-1], entries[i+1:j])
		entries[j-1] = e
	} else {
		copy(entries[j+1:i+1], entries[j:i])
		entries[j] = e
	}
	return entries
}

// innerBuckets files timelines by the length of their longest inner
// stretch, in buckets a quarter of an octave wide: a timeline is put in
// or taken out in constant time, and a search for stretches of d or more
// reads the buckets from d's up, with a few shorter ones from d's own.
type innerBuckets struct {
	lists [innerBucketCount][]*timeline
	used  [innerBucketCount / 64]uint64 // the buckets not empty
}

const innerBucketCount = 256

// innerBucket is the bucket of inner stretch x > 0: monotone in x, the
// top three bits of x within its octave.
func innerBucket(x sim.Time) int {
	n := bits.Len64(uint64(x))
	if n <= 2 {
		return int(x)
	}
	return (n-1)*4 + int(uint64(x)>>(n-3)) - 4
}

// refile moves l to the bucket of inner stretch x (none for 0).
func (b *innerBuckets) refile(l *timeline, x sim.Time) {
	to := -1
	if x > 0 {
		to = innerBucket(x)
	}
	if to == int(l.innerBucket) {
		return
	}
	if from := int(l.innerBucket); from >= 0 {
		list := b.lists[from]
		last := list[len(list)-1]
		list[l.innerSlot], last.innerSlot = last, l.innerSlot
		b.lists[from] = list[:len(list)-1]
		if len(list) == 1 {
			b.used[from/64] &^= 1 << (from % 64)
		}
	}
	l.innerBucket = int16(to)
	if to >= 0 {
		l.innerSlot = int32(len(b.lists[to]))
		b.lists[to] = append(b.lists[to], l)
		b.used[to/64] |= 1 << (to % 64)
	}
}

// atLeast appends to dst the timelines filed under inner stretches of d
// or more, and perhaps some shorter, except those marked with epoch.
func (b *innerBuckets) atLeast(dst []*timeline, d sim.Time, epoch uint64) []*timeline {
	lo := 0
	if d > 0 {
		lo = innerBucket(d)
	}
	for w := len(b.used) - 1; w >= lo/64; w-- {
		used := b.used[w]
		if w == lo/64 {
			used &^= 1<<(lo%64) - 1 // the buckets below d's
		}
		for used != 0 {
			k := 63 - bits.LeadingZeros64(used)
			used &^= 1 << k
			for _, l := range b.lists[w*64+k] {
				if l.mark != epoch {
					dst = append(dst, l)
				}
			}
		}
	}
	return dst
}
