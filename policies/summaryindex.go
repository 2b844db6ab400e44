package policies

import (
	"cmp"
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
// shapes scan every timeline), and only while there are many timelines:
// on a few hundred, keeping it costs more than the scans it saves. A timeline whose amounts change, or that
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

// indexLines is how many live timelines make the index worth building; it
// is dropped when they fall below half as many. Tests lower it to check
// the index on small clusters.
var indexLines = 256

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
	case x.built && len(p.live) < indexLines/2:
		*x = summaryIndex{} // few timelines again: scanning is cheaper
		return false
	case !x.built && len(p.live) < indexLines:
		return false
	case !x.built:
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
		if l.idx < 0 { // no longer live
			if l.indexed {
				x.byTail = refile(x.byTail, l, l.tailKey, 0, true, false, false)
				x.byInner = refile(x.byInner, l, l.innerKey, 0, l.innerKey > 0, false, true)
				l.indexed = false
			}
			continue
		}
		fs := p.summary(l.idx, res, unit)
		x.byTail = refile(x.byTail, l, l.tailKey, fs.tail, l.indexed, true, false)
		x.byInner = refile(x.byInner, l, l.innerKey, fs.inner, l.indexed && l.innerKey > 0, fs.inner > 0, true)
		l.indexed, l.tailKey, l.innerKey = true, fs.tail, fs.inner
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

// position returns where e goes in an index sorted ascending, or
// descending with desc, by key and then by timeline id: its place, if it
// is there.
func position(entries []indexEntry, e indexEntry, desc bool) (int, bool) {
	return slices.BinarySearchFunc(entries, e, func(a, b indexEntry) int {
		if a.key != b.key {
			if desc {
				return cmp.Compare(b.key, a.key)
			}
			return cmp.Compare(a.key, b.key)
		}
		return cmp.Compare(a.l.id, b.l.id)
	})
}

// refile moves l from key old, if it is filed, to key new, if it is to be,
// in an index sorted ascending (or descending, desc); a move shifts only
// the entries between the two places.
func refile(entries []indexEntry, l *timeline, old, new sim.Time, filed, file, desc bool) []indexEntry {
	if filed && file && old == new {
		return entries // in place already: most changes keep the key
	}
	e := indexEntry{new, l}
	if !filed {
		if !file {
			return entries
		}
		j, _ := position(entries, e, desc)
		return slices.Insert(entries, j, e)
	}
	i, found := position(entries, indexEntry{old, l}, desc)
	if !found {
		panic("policies: a timeline missing from the summary index")
	}
	if !file {
		return slices.Delete(entries, i, i+1)
	}
	// j counts l's old entry, still at i.
	if j, _ := position(entries, e, desc); j > i {
		copy(entries[i:j-1], entries[i+1:j])
		entries[j-1] = e
	} else {
		copy(entries[j+1:i+1], entries[j:i])
		entries[j] = e
	}
	return entries
}
