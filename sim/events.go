package sim

// eventKind orders events that share a time: ends free resources before
// node changes and new arrivals, so the scheduling pass of that time sees
// them all, and a job ending as its node fails has completed. Releases of
// held-back jobs come before new arrivals: they were submitted earlier.
type eventKind uint8

const (
	evFinish   eventKind = iota // a running job ends (completes or is killed)
	evNode                      // a node fails, recovers, is drained or undrained
	evDeadline                  // a drain's deadline: jobs still on the node move
	evPower                     // power-down: an idle timer, the end of a switch, a delayed run begins
	evRelease                   // a job's dependencies ended, think time over: it is queued
	evSubmit                    // the next trace job arrives
	evWake                      // a policy asked to be called at this time
)

type event struct {
	at   Time
	kind eventKind
	seq  uint64 // insertion order: the last tie-breaker
	job  *JobRun
	// For job ends, the run it ends (JobRun.attempt); for node events,
	// the node, what happens, and (for drains) the deadline.
	attempt  uint32
	node     int32
	nodeKind NodeEventKind
	deadline Time
	power    uint8 // for power events, which (powerdown.go)
}

func (a *event) before(b *event) bool {
	if a.at != b.at {
		return a.at < b.at
	}
	if a.kind != b.kind {
		return a.kind < b.kind
	}
	return a.seq < b.seq
}

// eventHeap is a binary min-heap ordered by (time, kind, sequence). It is
// written out rather than using container/heap to avoid interface calls on
// the hottest path of the engine.
type eventHeap []event

func (h *eventHeap) push(e event) {
	*h = append(*h, e)
	s := *h
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !s[i].before(&s[p]) {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

func (h *eventHeap) pop() event {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s[last] = event{}
	s = s[:last]
	i := 0
	for {
		l := 2*i + 1
		if l >= len(s) {
			break
		}
		m := l
		if r := l + 1; r < len(s) && s[r].before(&s[l]) {
			m = r
		}
		if !s[m].before(&s[i]) {
			break
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
	*h = s
	return top
}
