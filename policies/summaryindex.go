package policies

import (
	"slices"

	"github.com/schedsim/schedsim/sim"
)

// summaryIndex orders the live timelines by their fit summaries for one
// task shape (resource and unit), so that a search for a window of length
// d starting before b reads only the timelines that may hold one: those
// whose tail is before b, then those with an inner stretch of d or more
// (fitSummary.mayFit). On CEA-Curie's whole nodes a search keeps about a
// tenth of several hundred timelines; scanning them all was a third of
// conservative backfilling's time.
//
// It is built for the first shape asked and serves only that one (other
// shapes scan every timeline). A timeline whose amounts change, or that
// comes or goes, is queued (dirty) and put back in place before the next
// search, with its summary recomputed. Folding past breakpoints does not
// refile anything: it only narrows where a task fits, so the keys still
// admit every window (fitSummary), and the callers check each candidate's
// summary as a plain scan does.
type summaryIndex struct {
	built   bool
	res     int
	unit    sim.Amount
	byTail  []indexEntry // ascending tail
	byInner []indexEntry // descending inner; timelines with an inner stretch only
	dirty   []*timeline
}

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
	if !x.built {
		*x = summaryIndex{built: true, res: res, unit: unit}
		for _, l := range p.live {
			l.indexed, l.dirty = false, true
			x.dirty = append(x.dirty, l)
		}
	}
	if x.res != res || x.unit != unit {
		return false
	}
	for _, l := range x.dirty {
		l.dirty = false
		if l.indexed {
			x.byTail = remove(x.byTail, l.tailKey, l, false)
			if l.innerKey > 0 {
				x.byInner = remove(x.byInner, l.innerKey, l, true)
			}
			l.indexed = false
		}
		if l.idx < 0 {
			continue // no longer live
		}
		fs := p.summary(l.idx, res, unit)
		l.indexed, l.tailKey, l.innerKey = true, fs.tail, fs.inner
		x.byTail = insert(x.byTail, indexEntry{fs.tail, l}, false)
		if fs.inner > 0 {
			x.byInner = insert(x.byInner, indexEntry{fs.inner, l}, true)
		}
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
	for _, e := range p.index.byInner {
		if e.key < d {
			break
		}
		if e.l.mark != p.epoch {
			dst = append(dst, e.l)
		}
	}
	return dst
}

// position returns where key goes in an index sorted ascending, or
// descending with desc: before the first entry ordered after it.
func position(entries []indexEntry, key sim.Time, desc bool) int {
	i, _ := slices.BinarySearchFunc(entries, key, func(e indexEntry, k sim.Time) int {
		if desc {
			e.key, k = -e.key, -k
		}
		if e.key <= k {
			return -1
		}
		return 1
	})
	return i
}

// insert puts e in place.
func insert(entries []indexEntry, e indexEntry, desc bool) []indexEntry {
	return slices.Insert(entries, position(entries, e.key, desc), e)
}

// remove takes l, filed under key, out.
func remove(entries []indexEntry, key sim.Time, l *timeline, desc bool) []indexEntry {
	for i := position(entries, key, desc) - 1; i >= 0 && entries[i].key == key; i-- {
		if entries[i].l == l {
			return slices.Delete(entries, i, i+1)
		}
	}
	panic("policies: a timeline missing from the summary index")
}
