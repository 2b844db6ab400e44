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

// eventHeap is a binary min-heap ordered by (time, kind, sequence). It is
// written out rather than using container/heap to avoid interface calls on
// the hottest path of the engine. The heap moves small keys without
// pointers; the events themselves stay in a slab, written once each: a
// swap of whole events (56 bytes with a pointer) cost a copy and, while
// the collector runs, a write barrier.
type eventHeap struct {
	keys []eventKey
	slab []event
	free []int32 // slab slots to reuse
}

// eventKey orders an event: by time, then by kind and insertion sequence
// packed into one word (kind in the top 3 bits).
type eventKey struct {
	at    Time
	order uint64
	slot  int32
}

const seqBits = 61

func (a *eventKey) before(b *eventKey) bool {
	if a.at != b.at {
		return a.at < b.at
	}
	return a.order < b.order
}

func (h *eventHeap) len() int { return len(h.keys) }

// nextAt is the time of the earliest event; the heap must not be empty.
func (h *eventHeap) nextAt() Time { return h.keys[0].at }

func (h *eventHeap) push(e event) {
	var slot int32
	if n := len(h.free); n > 0 {
		slot = h.free[n-1]
		h.free = h.free[:n-1]
		h.slab[slot] = e
	} else {
		slot = int32(len(h.slab))
		h.slab = append(h.slab, e)
	}
	h.keys = append(h.keys, eventKey{at: e.at, order: uint64(e.kind)<<seqBits | e.seq&(1<<seqBits-1), slot: slot})
	s := h.keys
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
	s := h.keys
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
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
	h.keys = s
	e := h.slab[top.slot]
	h.slab[top.slot] = event{} // drop the job pointer
	h.free = append(h.free, top.slot)
	return e
}
