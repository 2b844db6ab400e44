package policies

import (
	"math"

	"github.com/schedsim/schedsim/sim"
)

// freed is one gain of free capacity in the profile: node entries (a node
// once per task it held) that came free over [from, to), the lowest of
// them numbered lowest. A job that ended early gives back its nodes from
// its end; a reservation that moved gives back the nodes it left.
type freed struct {
	from, to sim.Time
	entries  int
	lowest   int32
}

// everything is a freed record's entries when the whole profile was rebuilt.
const everything = math.MaxInt32

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
	f := freed{from: from, to: to, entries: len(nodes), lowest: math.MaxInt32}
	for _, n := range nodes {
		f.lowest = min(f.lowest, n)
	}
	return f
}

// gains sums up what the records since r's last visit mean for r, a
// reservation of k tasks over [r.start, r.start+r.dur), at time now:
// whether the job may start earlier (the tasks the freed nodes may hold
// added to r.extra, perNode tasks at most per node entry), and whether a
// lower-numbered node than its own came free somewhere in its window. It
// moves r's read position to the end of the log.
func (s *conservative) gains(r *reservation, now sim.Time, perNode int) (lower bool) {
	recs, ok := s.freed.since(r.freedSeen)
	r.freedSeen = s.freed.pos()
	if !ok {
		r.extra = everything
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
		if f.from < end-1 {
			// A window starting before r.start ends by end−1.
			if f.entries == everything || r.extra+f.entries*perNode >= everything {
				r.extra = everything
			} else {
				r.extra += f.entries * perNode
			}
		}
		if f.from < end && f.to > r.start && f.lowest < highest {
			lower = true
		}
	}
	return lower
}
