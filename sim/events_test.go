package sim

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestEventHeapOrder: pushes and pops interleaved at random come out in
// (time, kind, sequence) order, as a sorted list of the events alive says.
func TestEventHeapOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var h eventHeap
	var alive []event
	less := func(a, b event) int {
		switch {
		case a.at != b.at:
			return int(a.at - b.at)
		case a.kind != b.kind:
			return int(a.kind) - int(b.kind)
		}
		return int(a.seq) - int(b.seq)
	}
	var seq uint64
	for step := 0; step < 20000; step++ {
		if len(alive) == 0 || rng.IntN(5) < 3 {
			ev := event{at: Time(rng.IntN(300)), kind: eventKind(rng.IntN(int(evWake) + 1)), seq: seq}
			seq++
			h.push(ev)
			alive = append(alive, ev)
			continue
		}
		slices.SortFunc(alive, less)
		got := h.pop()
		if got.seq != alive[0].seq {
			t.Fatalf("step %d: popped seq %d (t=%d), want seq %d (t=%d)", step, got.seq, got.at, alive[0].seq, alive[0].at)
		}
		alive = alive[1:]
		if h.len() != len(alive) {
			t.Fatalf("step %d: heap holds %d, want %d", step, h.len(), len(alive))
		}
	}
}
