package conservative

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

// TestSortFitEvents checks the packed ordering, and the fallback for
// deltas or time spans too wide to pack, against a plain sum per instant.
func TestSortFitEvents(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	cases := []struct {
		name        string
		span        sim.Time
		deltaLimit  int
		wantPacked  bool
		stopAfterAt int // visit returns false after this many instants (0: never)
	}{
		{"packed", 1000, 50, true, 0},
		{"packed, stopped early", 1000, 50, true, 3},
		{"packed, in buckets", 1000, 50, true, 0},
		{"packed, in buckets, stopped early", 1 << 40, 50, true, 40},
		{"packed, in buckets, instants shared", 30, 50, true, 0},
		{"delta too wide", 1000, deltaBias + 5, false, 0},
		{"span too wide", sim.Forever, 50, false, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var sorter fitSorter // reused, as sweeps do
			for round := 0; round < 50; round++ {
				var events []fitEvent
				sums := map[sim.Time]int{}
				n := rng.IntN(40) + 1
				if strings.Contains(c.name, "buckets") {
					n = bucketsFrom + rng.IntN(2000) // the bucket pass
				}
				for i := n; i >= 0; i-- {
					at := sim.Time(rng.Int64N(int64(min(c.span, 1<<41))))
					if rng.IntN(4) == 0 {
						at = at % 97 // a crowd of instants near the start
					}
					d := rng.IntN(2*c.deltaLimit+1) - c.deltaLimit
					if i == 0 && !c.wantPacked { // one event out of the packable range
						if c.span == sim.Forever {
							at = sim.Forever - 1
						} else {
							d = deltaBias
						}
					}
					events = append(events, fitEvent{at, d})
					sums[at] += d
				}
				var want []fitEvent
				for at, d := range sums {
					want = append(want, fitEvent{at, d})
				}
				slices.SortFunc(want, func(a, b fitEvent) int { return cmp.Compare(a.at, b.at) })
				if c.stopAfterAt > 0 && len(want) > c.stopAfterAt {
					want = want[:c.stopAfterAt]
				}
				var got []fitEvent
				packed := sorter.visit(slices.Clone(events), func(at sim.Time, delta int) bool {
					got = append(got, fitEvent{at, delta})
					return c.stopAfterAt == 0 || len(got) < c.stopAfterAt
				})
				if !slices.Equal(got, want) {
					t.Fatalf("round %d: got %v, want %v", round, got, want)
				}
				if packed != c.wantPacked {
					t.Fatalf("round %d: packed %v, want %v", round, packed, c.wantPacked)
				}
			}
		})
	}
}
