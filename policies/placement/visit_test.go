package placement

import (
	"math/rand/v2"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

// TestLimitedBlocksDoNotChangeChoices places the same tasks through a
// limited pipeline twice: once with Stats (visit filters blocks of 64
// nodes) and once without (blocks sized to what is still wanted). The
// choices must be the same, task after task, as the cursor moves.
func TestLimitedBlocksDoNotChangeChoices(t *testing.T) {
	for _, limit := range []Limit{Auto, 3, 40, 100} {
		c, err := SyntheticCluster(3000)
		if err != nil {
			t.Fatal(err)
		}
		fixed, adaptive := NewLedger(c), NewLedger(c)
		fillTo(c, fixed, 0.7)
		fillTo(c, adaptive, 0.7)
		pf, err := syntheticPipeline(c, limit)
		if err != nil {
			t.Fatal(err)
		}
		pa, err := syntheticPipeline(c, limit)
		if err != nil {
			t.Fatal(err)
		}
		pf.Stats = &Stats{}
		rng := rand.New(rand.NewPCG(3, 5))
		for i := 0; i < 3000; i++ {
			task := syntheticTask(c, int64(i+1), rng.IntN(2) == 0)
			if rng.IntN(4) == 0 {
				// Few nodes pass: arm64 nodes of zone z1 (every 20th node).
				task.Job.Traits = &sim.Traits{Architecture: "arm64", Selector: []sim.Label{{Key: "zone", Value: "z1"}}}
			}
			nf, na := pf.Place(fixed, task, nil), pa.Place(adaptive, task, nil)
			if nf != na {
				t.Fatalf("limit %d, task %d: node %d with 64-node blocks, %d with sized blocks", limit, i, nf, na)
			}
			if nf >= 0 && rng.IntN(3) > 0 {
				fixed.Take(task, nf)
				adaptive.Take(task, na)
			}
		}
	}
}
