package byend

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

// TestByEnd checks the chunked list against a plainly sorted slice through
// random inserts and removes, enough of them to split and empty chunks.
func TestByEnd(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var b List
	var want []*sim.JobRun
	live := map[*sim.JobRun]bool{}
	for step := range 20000 {
		if len(want) > 0 && rng.IntN(3) == 0 {
			j := want[rng.IntN(len(want))]
			b.Remove(j)
			want = slices.DeleteFunc(want, func(x *sim.JobRun) bool { return x == j })
			delete(live, j)
		} else {
			// Few distinct ends, so ties on the end are broken by Seq.
			j := &sim.JobRun{Job: &sim.Job{Runtime: sim.Time(rng.IntN(50)), Walltime: sim.NoWalltime}, Seq: int64(step), Start: sim.Time(rng.IntN(50))}
			b.Insert(j)
			want = append(want, j)
			live[j] = true
		}
		// Removing a job not held changes nothing.
		b.Remove(&sim.JobRun{Job: &sim.Job{Walltime: sim.NoWalltime}, Seq: -1})
		if rng.IntN(40) == 0 {
			b.First() // the pending jobs go into the chunks
		}
		if step%997 != 0 && step != 19999 {
			continue
		}
		slices.SortFunc(want, func(x, y *sim.JobRun) int {
			switch {
			case endsBefore(x, y):
				return -1
			case endsBefore(y, x):
				return 1
			}
			return 0
		})
		var got []*sim.JobRun
		for e := b.Cursor(); e.Valid(); e.Next() {
			got = append(got, e.Job())
		}
		if b.Len() != len(want) || !slices.Equal(got, want) {
			t.Fatalf("step %d: %d jobs in order %v, want %d", step, b.Len(), len(got), len(want))
		}
		if len(want) > 0 && b.First() != want[0] {
			t.Fatalf("step %d: first is not the earliest end", step)
		}
	}
	// A job whose estimate changed while held (a checkpointed job stopped
	// by a node event) is still found and removed.
	j := want[len(want)/2]
	j.Saved = 3
	b.Remove(j)
	for e := b.Cursor(); e.Valid(); e.Next() {
		if e.Job() == j {
			t.Fatal("a job whose estimate changed was not removed")
		}
	}
	if b.Len() != len(want)-1 {
		t.Fatalf("%d jobs after removing one of %d", b.Len(), len(want))
	}
	if len(b.chunks) < 2 {
		t.Fatalf("only %d chunks: the test did not split any", len(b.chunks))
	}
}

// endsBefore is the order: projected end, then arrival.
func endsBefore(a, b *sim.JobRun) bool { return entryOf(a).before(entryOf(b)) }

// TestByEndPending: jobs that start and end between two reads of the order
// never reach the chunks, and a job still pending is removed even when its
// estimate changed or another list overwrote its PolicySlot.
func TestByEndPending(t *testing.T) {
	job := func(seq int64, start sim.Time) *sim.JobRun {
		return &sim.JobRun{Job: &sim.Job{Runtime: 10, Walltime: sim.NoWalltime}, Seq: seq, Start: start}
	}
	var b, other List
	a, c, d := job(0, 5), job(1, 0), job(2, 3)
	for _, j := range []*sim.JobRun{a, c, d} {
		b.Insert(j)
	}
	b.Remove(c)
	if len(b.chunks) != 0 || len(b.pending) != 2 || b.Len() != 2 {
		t.Fatalf("%d chunks, %d pending, len %d: want 0, 2, 2", len(b.chunks), len(b.pending), b.Len())
	}
	a.Saved = 4 // its estimate changes while it waits
	b.Remove(a)
	other.Insert(d) // d's PolicySlot now names a slot of other
	b.Remove(d)
	if b.Len() != 0 || len(b.pending) != 0 || b.First() != nil {
		t.Fatalf("len %d, %d pending after removing every job", b.Len(), len(b.pending))
	}
	// Read in between: the order is by end, whichever way jobs came in.
	for _, j := range []*sim.JobRun{job(3, 9), job(4, 1)} {
		b.Insert(j)
	}
	if f := b.First(); f.Seq != 4 {
		t.Fatalf("first is job %d, want 4", f.Seq)
	}
	late := job(5, 0)
	b.Insert(late)
	if f := b.First(); f != late || len(b.pending) != 0 {
		t.Fatalf("first is job %d with %d pending, want 5 with none", f.Seq, len(b.pending))
	}
}
