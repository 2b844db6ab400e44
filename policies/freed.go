package policies

import (
	"math"

	"github.com/schedsim/schedsim/sim"
)

// freed is one gain of free capacity in the profile: nodes that came free
// over [from, to), the lowest of them numbered lowest (−1 after a rebuild:
// every node). A job that ended early gives back its nodes from
// its end; a reservation that moved gives back the nodes it left.
type freed struct {
	from, to sim.Time
	lowest   int32
}

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
	f := freed{from: from, to: to, lowest: math.MaxInt32}
	for _, n := range nodes {
		f.lowest = min(f.lowest, n)
	}
	return f
}

// gains reads the records since r's last visit at time now: whether
// capacity came free over a window starting before r.start (then it sets
// r.opened), and whether a node numbered below one of r's own came free
// somewhere in r's window (lower). It moves r's read position to the end
// of the log.
func (s *conservative) gains(r *reservation, now sim.Time) (lower bool) {
	recs, ok := s.freed.since(r.freedSeen)
	r.freedSeen = s.freed.pos()
	if !ok {
		r.opened = true
		return true
	}
	highest := int32(-1)
	for _, n := range r.nodes {
		highest = max(highest, n)
	}
	end := r.start + r.dur
	for _, f := range recs {
		if f.to <= now {
			continue // in the past: no window can use it
		}
		// A window starting before r.start ends by end−1.
		if f.from < end-1 {
			r.opened = true
		}
		if f.from < end && f.to > r.start && f.lowest < highest {
			lower = true
		}
	}
	return lower
}
