package policies

import (
	"slices"

	"github.com/schedsim/schedsim/sim"
)

// repickSlot is the Repick rule for one queued job: take its reservation
// out of the profile and book its first fit again (earliest start, then
// the lowest-numbered nodes free over the whole window), whether or not
// the start changes.
//
// The old slot is free once taken out (every later reservation was made
// around it), so the new start is never later. When nothing has grown
// since the job was placed, its slot is still its first fit: no earlier
// window can have opened and no lower-numbered node can have come free,
// so the job is left alone.
func (s *conservative) repickSlot(c *sim.Context, j *sim.JobRun, r *reservation) {
	if _, grew := s.prof.grownSince(r.seen); !grew {
		r.seen = s.prof.logged()
		return
	}
	old := *r
	base := c.FreeVector()
	s.place(r, j, base, -1)
	if !s.reserve(c, j, r, c.Now(), old.start+1) {
		*r = old // unreachable: the old slot is free
		s.place(r, j, base, 1)
		return
	}
	if r.start != old.start || !slices.Equal(r.nodes, old.nodes) {
		// The old slot's nodes that the job left came free over its
		// window.
		s.grew(old.start, old.start+old.dur)
	}
}
