package traces

import (
	"errors"

	"github.com/schedsim/schedsim/sim"
)

// Reorder puts the jobs of a trace whose records are mostly in submit order
// into (submit, line) order while holding back only the jobs it must: the
// reordering of the SWF and sacct readers. A first pass notes every
// record's submit time (Note, then Seal); it learns which lines go back in
// time. The second pass raises the bound with every record it passes
// (Passed), holds each parsed job (Hold) and takes out those no later
// record can precede (Ready).
type Reorder struct {
	maxHeld int // 0: unbounded

	// The first pass: the running maximum, and the records below it.
	runMax sim.Time
	late   []lateRecord
	// lateMin[i] is the least submit of late[i:]; lateNext the first late
	// record after the second pass's line.
	lateMin  []sim.Time
	lateNext int

	// The second pass: the greatest submit passed, and the held jobs.
	prefixMax sim.Time
	pending   jobHeap
}

type lateRecord struct {
	line int
	at   sim.Time
}

// Errors of a Reorder bounded by maxHeld; the readers say them in their
// words, with the file and line.
var (
	// ErrTooManyLate: more than maxHeld records go back in time.
	ErrTooManyLate = errors.New("too many records out of submit order")
	// ErrTooManyHeld: more than maxHeld jobs wait for an earlier record
	// further on.
	ErrTooManyHeld = errors.New("too many records held back")
)

// NewReorder returns a Reorder holding back at most maxHeld jobs and
// noting at most maxHeld late records (0: no bound).
func NewReorder(maxHeld int) *Reorder {
	return &Reorder{maxHeld: maxHeld, runMax: -1 << 62, prefixMax: -1 << 62}
}

// Note is the first pass's: the record at line has submit time at.
func (o *Reorder) Note(line int, at sim.Time) error {
	if at >= o.runMax {
		o.runMax = at
		return nil
	}
	if o.maxHeld > 0 && len(o.late) == o.maxHeld {
		return ErrTooManyLate
	}
	o.late = append(o.late, lateRecord{line, at})
	return nil
}

// Seal ends the first pass.
func (o *Reorder) Seal() {
	o.lateMin = make([]sim.Time, len(o.late))
	m := sim.Forever
	for i := len(o.late) - 1; i >= 0; i-- {
		m = min(m, o.late[i].at)
		o.lateMin[i] = m
	}
}

// Passed is the second pass's: a record with submit time at was read
// (parsed or skipped), which raises the bound of what later records hold.
func (o *Reorder) Passed(at sim.Time) { o.prefixMax = max(o.prefixMax, at) }

// Hold keeps job j of line until it is safe to yield.
func (o *Reorder) Hold(j *sim.Job, line int) error {
	if o.maxHeld > 0 && len(o.pending) == o.maxHeld {
		return ErrTooManyHeld
	}
	o.pending.push(pendingJob{j, line})
	return nil
}

// Ready returns the next job in (submit, line) order when no record after
// line can come before it (or the file has ended: eof), else nil.
func (o *Reorder) Ready(line int, eof bool) *sim.Job {
	if len(o.pending) > 0 && (eof || o.pending[0].job.Submit <= o.Bound(line)) {
		return o.pending.pop().job
	}
	return nil
}

// Bound is the least submit time a record after line can have: records in
// order are no earlier than the greatest passed, and the out-of-order ones
// are known from the first pass.
func (o *Reorder) Bound(line int) sim.Time {
	for o.lateNext < len(o.late) && o.late[o.lateNext].line <= line {
		o.lateNext++
	}
	b := o.prefixMax
	if o.lateNext < len(o.late) {
		b = min(b, o.lateMin[o.lateNext])
	}
	return b
}

type pendingJob struct {
	job  *sim.Job
	line int
}

// jobHeap orders held jobs by (submit, line), written out rather than
// through container/heap, whose interface boxes every push and pop.
type jobHeap []pendingJob

func (h jobHeap) less(a, b int) bool {
	if h[a].job.Submit != h[b].job.Submit {
		return h[a].job.Submit < h[b].job.Submit
	}
	return h[a].line < h[b].line
}

func (h *jobHeap) push(p pendingJob) {
	*h = append(*h, p)
	s := *h
	for i := len(s) - 1; i > 0; {
		up := (i - 1) / 2
		if !s.less(i, up) {
			break
		}
		s[i], s[up] = s[up], s[i]
		i = up
	}
}

func (h *jobHeap) pop() pendingJob {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s[last] = pendingJob{}
	s = s[:last]
	for i := 0; ; {
		l := 2*i + 1
		if l >= len(s) {
			break
		}
		m := l
		if l+1 < len(s) && s.less(l+1, l) {
			m = l + 1
		}
		if !s.less(m, i) {
			break
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
	*h = s
	return top
}
