package conservative

import (
	"math"
	"slices"

	"github.com/schedsim/schedsim/sim"
)

// freed is one gain of free capacity in the profile: nodes that came free
// over [from, to), numbered lowest to highest. A job that ended
// early gives back its nodes from its end; a reservation that moved gives
// back the nodes it left. After a rebuild, one record with no nodes and
// lowest −1 stands for every node.
//
// Every queued job reads every record logged since its last visit, and
// most records it rules out from these fields alone, so they fit one cache
// line (64 bytes); the nodes are apart.
type freed struct {
	from, to        sim.Time
	lowest, highest int32
	// longest bounds the stretches of time in which one task fits on one
	// of the nodes and that overlap [from, to) (stretchBound).
	longest stretchBound
	nodes   *freedNodes // nil when there are none
}

// freedNodes is a record's nodes, one entry per task, in node order (not
// modified), and reps, one node of each distinct timeline among them (the
// lowest), valid while the profile's version is repsAt.
type freedNodes struct {
	list   []int32
	reps   []int32
	repsAt uint64
}

// stretchBound bounds the stretches of time in which one task of unit of
// res fits throughout, on a record's nodes, overlapping the record's span:
// those that end are no longer than len, and one that lasts for good
// starts at tail or later. It is measured at some moment and still a bound
// after it. Since then the profile has only lost capacity on those
// nodes (bookings, time passing) or gained it under later records, and a
// job that reads this record reads those too, which find any window the
// gain opened. So a job longer than len, whose window would start before
// tail, finds no new window on the record's own timelines.
type stretchBound struct {
	len      sim.Time
	tail     sim.Time
	unit     sim.Amount
	res      int32
	measured bool
}

// rules reports whether the bound says no window of length d starting
// before `before` for one task of unit of res overlaps the record.
func (b *stretchBound) rules(res int, unit sim.Amount, d, before sim.Time) bool {
	return b.measured && int(b.res) == res && b.unit == unit && d > b.len && b.tail >= before
}

// apartFrom reports whether none of f's nodes can be among nodes (sorted):
// their ranges do not meet.
func (f *freed) apartFrom(nodes []int32) bool {
	return len(nodes) == 0 || nodes[0] > f.highest || f.lowest > nodes[len(nodes)-1]
}

// everything reports whether the record stands for every node.
func (f *freed) everything() bool { return f.lowest < 0 }

// empty reports whether the record has no nodes (and does not stand for
// every node).
func (f *freed) empty() bool { return f.highest < 0 }

// freedLog lists the gains since the oldest position a queued job may
// still read from; base is recs[0]'s position.
type freedLog struct {
	recs []freed
	base int64
}

func (l *freedLog) add(f freed) { l.recs = append(l.recs, f) }

// pos is the log position now.
func (l *freedLog) pos() int64 { return l.base + int64(len(l.recs)) }

// since returns the records logged at or after pos; ok is false when some
// were already dropped.
func (l *freedLog) since(pos int64) (recs []freed, ok bool) {
	if pos < l.base {
		return nil, false
	}
	return l.recs[pos-l.base:], true
}

// trim drops the records before pos.
func (l *freedLog) trim(pos int64) {
	if k := pos - l.base; k > 0 {
		n := copy(l.recs, l.recs[k:])
		clear(l.recs[n:])
		l.recs = l.recs[:n]
		l.base = pos
	}
}

// nodesFreed is the freed record of nodes given back over [from, to).
func nodesFreed(nodes []int32, from, to sim.Time) freed {
	if !slices.IsSorted(nodes) {
		nodes = slices.Sorted(slices.Values(nodes))
	}
	f := freed{from: from, to: to, lowest: math.MaxInt32, highest: -1}
	if len(nodes) > 0 {
		f.lowest, f.highest = nodes[0], nodes[len(nodes)-1]
		f.nodes = &freedNodes{list: nodes}
	}
	return f
}
