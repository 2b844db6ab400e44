package metrics

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

// The grid gives every node the weights that testing each shape gives:
// random tables over up to four resources (amounts ≤ 0, unlisted and
// absent resources, free amounts equal to a shape's), random free vectors.
func TestFragGridMatchesShapes(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	amounts := []sim.Amount{-1, 0, 1, 2, 3, 5, 8}
	for trial := range 300 {
		R := 1 + rng.IntN(4)
		var table []*fragShape
		for i := range 1 + rng.IntN(12) {
			var needs []sim.Need
			for r := range R {
				if rng.IntN(3) > 0 {
					needs = append(needs, sim.Need{Res: int32(r), Amt: amounts[1+rng.IntN(len(amounts)-1)]})
				}
			}
			if len(needs) == 0 {
				continue
			}
			table = append(table, &fragShape{needs: needs, count: int64(1 + rng.IntN(9)), first: i})
		}
		if len(table) == 0 {
			continue
		}
		g := newFragGrid(table)
		if g == nil {
			t.Fatalf("trial %d: no grid for %d shapes", trial, len(table))
		}
		var total int64
		for _, s := range table {
			total += s.count
		}
		for n := range 20 {
			free := make([]sim.Amount, R)
			for r := range free {
				switch k := rng.IntN(10); {
				case k == 0:
					free[r] = sim.Absent
				default:
					free[r] = amounts[rng.IntN(len(amounts))]
				}
			}
			want := make([]int64, R)
			for _, s := range table {
				fits := sim.TasksFittingIn(free, R, 0, s.needs, 1) >= 1
				for r := range R {
					i := slices.IndexFunc(s.needs, func(q sim.Need) bool { return int(q.Res) == r })
					if !fits || i < 0 || s.needs[i].Amt <= 0 {
						want[r] += s.count
					}
				}
			}
			got := make([]int64, R)
			g.weigh(got, free, R, 0, total)
			if !slices.Equal(got, want) {
				t.Fatalf("trial %d node %d: free %v, shapes %v: grid %v, shape by shape %v", trial, n, free, shapesOf(table), got, want)
			}
		}
	}
}

func shapesOf(table []*fragShape) [][]sim.Need {
	var out [][]sim.Need
	for _, s := range table {
		out = append(out, s.needs)
	}
	return out
}

// A table whose grid would exceed fragGridCells is weighed shape by shape.
func TestFragGridTooLarge(t *testing.T) {
	var table []*fragShape
	for i := range 600 {
		table = append(table, &fragShape{needs: []sim.Need{{Res: 0, Amt: sim.Amount(i + 1)}, {Res: 1, Amt: sim.Amount(1000 - i)}}, count: 1})
	}
	if newFragGrid(table) != nil {
		t.Error("a 602×602-level grid was built")
	}
}
