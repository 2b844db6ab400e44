package conservative

import "github.com/schedsim/schedsim/sim"

// fitSummary says, for one timeline and one task of a one-resource request,
// where a task fits: from tail on for good, and before it in stretches no
// longer than inner(). A search for a window of length d starting before
// some time b can then skip a timeline whose tail is not before b and
// whose inner stretches are shorter than d, without reading its segments.
//
// The stairs sharpen the inner stretches' half: the first few stretches
// each longer than every earlier one, with where they start. The earliest
// stretch of d or more starts no earlier than the first stair that long,
// so a timeline whose long stretches all start after b is skipped too.
//
// The contract: a summary may overstate where a task fits, never
// understate it, so a skip is always safe. It is computed when a search
// asks and kept until the amounts change (addRange). Folding past
// breakpoints only shortens stretches and moves their starts later, so a
// summary computed before a fold still overstates where a task fits.
type fitSummary struct {
	res  int
	unit sim.Amount // 0: not computed (requests have positive units)
	tail sim.Time   // a task fits from here on (Forever: it never fits for good)
	most sim.Amount // the largest free amount anywhere
	// stairs[:steps] are stretches before tail in order of start, each
	// longer than those before it; the last is the longest (inner). When
	// there are more such stretches than stairs, the last stair keeps its
	// start and takes the length of the longest: it starts no later than
	// the stretches it stands for and is as long as any of them.
	stairs [4]stair
	steps  int32
}

// stair is a stretch in which a task fits: from start, length long.
type stair struct{ start, length sim.Time }

// lineSum is what scans over the distinct timelines read first: how many
// nodes share the timeline, and where one task fits on it.
type lineSum struct {
	fits fitSummary
	refs int32 // nodes sharing the timeline
	low  int32 // the lowest-numbered of them
	// own is, during a sweep that counts a job's own slot free, how many of
	// the job's nodes share the timeline (sweep); 0 otherwise.
	own int32
}

// fitsFor returns l's summary for one task of unit of resource res.
func (p *profile) fitsFor(l *timeline, res int, unit sim.Amount) *fitSummary {
	return p.summary(l.idx, res, unit)
}

// summary returns the summary of live timeline i for one task of unit of
// resource res, computing it when the amounts changed since.
func (p *profile) summary(i int32, res int, unit sim.Amount) *fitSummary {
	if s := &p.sums[i].fits; s.unit == unit && s.res == res {
		return s
	}
	return p.summarize(i, res, unit)
}

// summarize computes live timeline i's summary for one task of unit of
// resource res.
func (p *profile) summarize(i int32, res int, unit sim.Amount) *fitSummary {
	s := &p.sums[i].fits
	l := p.live[i]
	*s = fitSummary{res: res, unit: unit, tail: sim.Forever}
	R, m := p.R, len(l.times)
	run := -1 // first segment of the current stretch with room
	for i := 0; i < m; i++ {
		s.most = max(s.most, l.free[i*R+res])
		if l.free[i*R+res] >= unit {
			if run < 0 {
				run = i
			}
			continue
		}
		if run >= 0 {
			s.climb(l.times[run], l.times[i]-l.times[run])
			run = -1
		}
	}
	if run >= 0 {
		s.tail = l.times[run]
	}
	return s
}

// inner is the length of the longest stretch before the tail in which a
// task fits (0: none).
func (s *fitSummary) inner() sim.Time {
	if s.steps == 0 {
		return 0
	}
	return s.stairs[s.steps-1].length
}

// climb records a stretch before the tail, in order of start.
func (s *fitSummary) climb(start, length sim.Time) {
	switch {
	case length <= s.inner():
		// an earlier stretch is as long and starts sooner
	case int(s.steps) < len(s.stairs):
		s.stairs[s.steps] = stair{start, length}
		s.steps++
	default:
		s.stairs[len(s.stairs)-1].length = length
	}
}

// mayFit reports whether a window of length d in which a task fits
// throughout can start before `before` on l.
func (s *fitSummary) mayFit(d, before sim.Time) bool {
	return s.tail < before || s.innerFit(d, before)
}

// innerFit reports whether such a window may lie in a stretch before the
// tail.
func (s *fitSummary) innerFit(d, before sim.Time) bool {
	if s.inner() < d {
		return false
	}
	for _, st := range s.stairs[:s.steps] {
		if st.length >= d {
			return st.start < before
		}
	}
	return false // not reached: the last stair is as long as inner
}
