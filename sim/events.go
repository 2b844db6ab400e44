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

// eventHeap is a 4-ary min-heap ordered by (time, kind, sequence). It is
// written out rather than using container/heap to avoid interface calls on
// the hottest path of the engine. The heap moves small keys without
// pointers; the events themselves stay in a slab, written once each: a
// swap of whole events (56 bytes with a pointer) cost a copy and, while
// the collector runs, a write barrier. Four children a node halve the
// levels a pop walks down (17 to 9 with 10⁵ jobs running), and the four
// keys it compares at each level lie side by side; the order is total, so
// the events come out as from any other heap.
//
// The next arrival waits beside the heap: the engine reads the trace one
// job ahead, so there is one submit event at a time, pushed and popped
// once per job; kept out of the heap, it costs a comparison instead of a
// sift up and a sift down through the running jobs' ends.
type eventHeap struct {
	keys []eventKey
	slab []event
	free []int32 // slab slots to reuse
	// arrival is a submit event held beside the heap when hasArrival.
	arrival    event
	arrivalKey eventKey
	hasArrival bool
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

func (h *eventHeap) len() int {
	if h.hasArrival {
		return len(h.keys) + 1
	}
	return len(h.keys)
}

// nextAt is the time of the earliest event; the heap must not be empty.
func (h *eventHeap) nextAt() Time {
	if h.arrivalFirst() {
		return h.arrival.at
	}
	return h.keys[0].at
}

// arrivalFirst says the held arrival is the earliest event.
func (h *eventHeap) arrivalFirst() bool {
	return h.hasArrival && (len(h.keys) == 0 || h.arrivalKey.before(&h.keys[0]))
}

func keyOf(e *event) eventKey {
	return eventKey{at: e.at, order: uint64(e.kind)<<seqBits | e.seq&(1<<seqBits-1)}
}

func (h *eventHeap) push(e event) {
	if e.kind == evSubmit && !h.hasArrival {
		h.arrival, h.arrivalKey, h.hasArrival = e, keyOf(&e), true
		return
	}
	var slot int32
	if n := len(h.free); n > 0 {
		slot = h.free[n-1]
		h.free = h.free[:n-1]
		h.slab[slot] = e
	} else {
		slot = int32(len(h.slab))
		h.slab = append(h.slab, e)
	}
	k := keyOf(&e)
	k.slot = slot
	h.keys = append(h.keys, k)
	s := h.keys
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 4
		if !k.before(&s[p]) {
			break
		}
		s[i] = s[p]
		i = p
	}
	s[i] = k
}

func (h *eventHeap) pop() event {
	if h.arrivalFirst() {
		e := h.arrival
		h.arrival, h.hasArrival = event{}, false
		return e
	}
	s := h.keys
	top := s[0]
	last := len(s) - 1
	k := s[last]
	s = s[:last]
	if last > 0 {
		// Sift the last key down from the root: move the least child up
		// while it goes before the key.
		i := 0
		for {
			c := 4*i + 1
			if c >= last {
				break
			}
			m := c
			for d := c + 1; d < min(c+4, last); d++ {
				if s[d].before(&s[m]) {
					m = d
				}
			}
			if !s[m].before(&k) {
				break
			}
			s[i] = s[m]
			i = m
		}
		s[i] = k
	}
	h.keys = s
	e := h.slab[top.slot]
	h.slab[top.slot] = event{} // drop the job pointer
	h.free = append(h.free, top.slot)
	return e
}
