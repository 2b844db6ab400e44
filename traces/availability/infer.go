package availability

import (
	"cmp"
	"container/heap"
	"math"
	"slices"

	"github.com/schedsim/schedsim/sim"
)

// Job is one recorded job: when it was submitted, started and ended on
// the traced machine, the processors it held, and its walltime (< 0:
// unknown).
type Job struct {
	Submit, Start, End sim.Time
	Procs              float64
	Walltime           sim.Time
	User               string // for limits inferred from the record
}

// Rule is the inference rule's two thresholds (doc.go).
type Rule struct {
	// BusyShare: an instant is suspect only when at most this share of
	// the machine's processors is busy.
	BusyShare float64
	// MinDuration: shorter suspect runs are left out.
	MinDuration sim.Time
}

// DefaultRule is at most 20 % busy for at least an hour.
var DefaultRule = Rule{BusyShare: 0.2, MinDuration: 3600 * sim.Second}

// Stretch is one inferred stretch of partial or total unavailability.
type Stretch struct {
	Start, End sim.Time
	// PeakBusy is what the machine was seen to offer in it: the most
	// processors held at once by jobs started in the stretch, or those
	// busy at its last instant if more (jobs running when it began may sit
	// on the unavailable part and do not count).
	// Unavailable = capacity − PeakBusy.
	PeakBusy, Unavailable float64
	// Confidence is the share of the stretch no reservation explains
	// (doc.go), in [0, 1].
	Confidence float64
}

type change struct {
	at   sim.Time
	kind int8 // 0 end, 1 submit, 2 start: ends free first, a job submitted and started at once never waits
	job  int
}

// Infer applies rule to jobs on a machine of capacity processors. Jobs
// with Start < Submit or End < Start are taken as recorded (the log's
// clock), the wait clamped at 0.
func Infer(jobs []Job, capacity float64, rule Rule) []Stretch {
	changes := make([]change, 0, 3*len(jobs))
	for i, j := range jobs {
		start := max(j.Start, j.Submit)
		changes = append(changes, change{j.Submit, 1, i}, change{start, 2, i}, change{max(j.End, start), 0, i})
	}
	slices.SortFunc(changes, func(a, b change) int {
		return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.kind, b.kind), cmp.Compare(a.job, b.job))
	})
	var (
		busy    float64
		waiting = &procsHeap{jobs: jobs, in: make([]bool, len(jobs))}
		running = map[int]bool{}
		out     []Stretch
		cur     *Stretch
		// In the current stretch: the processors held by jobs started in
		// it (and their peak), and the busy ones at its last instant.
		inStretch        = map[int]bool{}
		newBusy, peakNew float64
		lastBusy         float64
		latest           sim.Time // when the jobs running at the stretch's start must have ended
	)
	closeStretch := func(at sim.Time) {
		if cur == nil {
			return
		}
		cur.End = at
		if cur.End-cur.Start >= rule.MinDuration {
			cur.PeakBusy = max(peakNew, lastBusy)
			cur.Unavailable = capacity - cur.PeakBusy
			free := cur.End - max(cur.Start, latest)
			cur.Confidence = min(1, max(0, float64(free)/float64(cur.End-cur.Start)))
			out = append(out, *cur)
		}
		cur = nil
	}
	for k := 0; k < len(changes); {
		t := changes[k].at
		for ; k < len(changes) && changes[k].at == t; k++ {
			c := changes[k]
			switch c.kind {
			case 0:
				busy -= jobs[c.job].Procs
				delete(running, c.job)
				if inStretch[c.job] {
					newBusy -= jobs[c.job].Procs
					delete(inStretch, c.job)
				}
			case 2:
				waiting.remove(c.job)
				busy += jobs[c.job].Procs
				running[c.job] = true
				if cur != nil {
					inStretch[c.job] = true
					newBusy += jobs[c.job].Procs
				}
			case 1:
				waiting.add(c.job)
			}
		}
		busy = max(busy, 0) // float sums of whole counts; never below 0
		suspect := busy <= rule.BusyShare*capacity && waiting.min() <= capacity-busy
		switch {
		case suspect && cur == nil:
			cur = &Stretch{Start: t}
			clear(inStretch)
			newBusy, peakNew, lastBusy = 0, 0, busy
			latest = t
			for i := range running {
				j := jobs[i]
				end := j.End
				if j.Walltime >= 0 {
					end = max(j.Start, j.Submit) + j.Walltime
				}
				latest = max(latest, end)
			}
		case suspect:
			lastBusy = busy
			peakNew = max(peakNew, newBusy)
		case cur != nil:
			closeStretch(t)
		}
	}
	if len(changes) > 0 {
		closeStretch(changes[len(changes)-1].at)
	}
	return out
}

// procsHeap is the waiting jobs by processors, smallest first, with
// removals marked and popped lazily.
type procsHeap struct {
	jobs []Job
	in   []bool // waiting now
	idx  []int
}

func (h *procsHeap) Len() int           { return len(h.idx) }
func (h *procsHeap) Less(a, b int) bool { return h.jobs[h.idx[a]].Procs < h.jobs[h.idx[b]].Procs }
func (h *procsHeap) Swap(a, b int)      { h.idx[a], h.idx[b] = h.idx[b], h.idx[a] }
func (h *procsHeap) Push(x any)         { h.idx = append(h.idx, x.(int)) }
func (h *procsHeap) Pop() any {
	x := h.idx[len(h.idx)-1]
	h.idx = h.idx[:len(h.idx)-1]
	return x
}

func (h *procsHeap) add(j int) { h.in[j] = true; heap.Push(h, j) }

func (h *procsHeap) remove(j int) { h.in[j] = false }

// min is the fewest processors a waiting job needs; +Inf with none.
func (h *procsHeap) min() float64 {
	for len(h.idx) > 0 && !h.in[h.idx[0]] {
		heap.Pop(h)
	}
	if len(h.idx) == 0 {
		return math.Inf(1)
	}
	return h.jobs[h.idx[0]].Procs
}
