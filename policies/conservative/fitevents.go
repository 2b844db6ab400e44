package conservative

import (
	"cmp"
	"math/bits"
	"slices"

	"github.com/schedsim/schedsim/sim"
)

// fitEvent is a change, by delta tasks, in how many tasks fit throughout
// a sliding window, at window start at (sweep).
type fitEvent struct {
	at    sim.Time
	delta int
}

// Packed events: the sweep only needs the events in time order, deltas of
// one instant summed in any order, so each event packs into one uint64,
// (at − the earliest at) above a biased delta, and sorts as a plain
// integer, without a comparison function.
const (
	deltaBits = 20
	deltaBias = 1 << (deltaBits - 1)
	spanBits  = 64 - deltaBits
)

// fitSorter orders a sweep's events; its slices are scratch kept between
// sweeps.
type fitSorter struct {
	keys, sorted []uint64
	counts       []int32
}

// bucketsFrom is how many events make a bucket pass worth it: below, the
// packed keys are sorted whole.
const bucketsFrom = 64

// visit calls visit with each instant of events and the sum of its deltas,
// in time order, until visit returns false. It reports whether the events
// were packed (the usual case; else they are sorted as pairs).
//
// Many events are first spread by time over about one bucket per two
// events (a counting sort on the high bits of the packed keys), and each
// bucket is sorted only when the visit reaches it: a sweep that finds its
// window early sorts little, and the buckets are small.
func (s *fitSorter) visit(events []fitEvent, visit func(at sim.Time, delta int) bool) bool {
	if len(events) == 0 {
		return true
	}
	lo, hi := events[0].at, events[0].at
	packable := true
	for _, e := range events {
		lo, hi = min(lo, e.at), max(hi, e.at)
		if e.delta < -deltaBias || e.delta >= deltaBias {
			packable = false
		}
	}
	if !packable || uint64(hi-lo) >= 1<<spanBits {
		slices.SortFunc(events, func(a, b fitEvent) int { return cmp.Compare(a.at, b.at) })
		for i := 0; i < len(events); {
			at, sum := events[i].at, 0
			for ; i < len(events) && events[i].at == at; i++ {
				sum += events[i].delta
			}
			if !visit(at, sum) {
				break
			}
		}
		return false
	}
	keys := s.keys[:0]
	for _, e := range events {
		keys = append(keys, uint64(e.at-lo)<<deltaBits|uint64(e.delta+deltaBias))
	}
	s.keys = keys
	if len(keys) < bucketsFrom {
		slices.Sort(keys)
		visitSorted(keys, lo, visit)
		return true
	}
	// Bucket b holds the offsets whose bits above shift are b: an instant
	// never straddles two buckets, and the buckets are in time order.
	span := uint64(hi - lo)
	shift := max(0, bits.Len64(span)-bits.Len(uint(len(keys)/2)))
	nb := int(span>>shift) + 1
	if cap(s.counts) < nb+1 {
		s.counts = make([]int32, nb+1)
	}
	counts := s.counts[:nb+1]
	clear(counts)
	for _, k := range keys {
		counts[k>>deltaBits>>shift+1]++
	}
	for b := 1; b <= nb; b++ {
		counts[b] += counts[b-1]
	}
	if cap(s.sorted) < len(keys) {
		s.sorted = make([]uint64, len(keys))
	}
	sorted := s.sorted[:len(keys)]
	for _, k := range keys {
		b := k >> deltaBits >> shift
		sorted[counts[b]] = k
		counts[b]++
	}
	// counts[b] is now where bucket b ends.
	from := 0
	for b := 0; b < nb; b++ {
		to := int(counts[b])
		if to == from {
			continue
		}
		bucket := sorted[from:to]
		slices.Sort(bucket)
		if !visitSorted(bucket, lo, visit) {
			break
		}
		from = to
	}
	return true
}

// visitSorted calls visit with each instant of sorted packed keys and the
// sum of its deltas, and reports whether visit asked for more.
func visitSorted(keys []uint64, lo sim.Time, visit func(at sim.Time, delta int) bool) bool {
	for i := 0; i < len(keys); {
		off, sum := keys[i]>>deltaBits, 0
		for ; i < len(keys) && keys[i]>>deltaBits == off; i++ {
			sum += int(keys[i]&(1<<deltaBits-1)) - deltaBias
		}
		if !visit(lo+sim.Time(off), sum) {
			return false
		}
	}
	return true
}
