package metrics

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

// TestDeficitsMatchDirectSum checks the lazy integrals against the plain
// definition: at every instant, each tenant's deficit max(0, T − r/H)/T
// times the time to the next instant, summed while H > 0. Rates change
// at random, tenants appear (equal shares change), time steps vary.
func TestDeficitsMatchDirectSum(t *testing.T) {
	for _, equal := range []bool{true, false} {
		rng := rand.New(rand.NewPCG(3, 4))
		var d deficits
		var accs []*deficitAcc
		var targets []float64
		direct := []float64{}
		share := func(i int) float64 {
			if equal {
				return 1 / float64(len(accs))
			}
			return targets[i]
		}
		var held int64
		for step := range 3000 {
			// Events of this instant.
			if len(accs) < 12 && rng.IntN(8) == 0 {
				accs = append(accs, &deficitAcc{})
				targets = append(targets, []float64{0, 0.1, 0.25, 0.5}[rng.IntN(4)])
				direct = append(direct, 0)
				d.add(accs[len(accs)-1], share(len(accs)-1))
				if equal {
					d.setShare(share(0))
				}
			}
			for range rng.IntN(3) {
				if len(accs) == 0 {
					break
				}
				i := rng.IntN(len(accs))
				rate := max(accs[i].rate+int64(rng.IntN(7)-3)*1000, 0)
				held += rate - accs[i].rate
				d.setRate(accs[i], rate, share(i))
			}
			d.sample(held)
			// Then time passes with these rates.
			ds := float64(rng.IntN(5)) + 0.5
			if step%50 == 0 {
				ds = 0
			}
			if held > 0 {
				for i, a := range accs {
					direct[i] += sim.FairShareDeficit(share(i), float64(a.rate)/float64(held)) * ds
				}
			}
			d.advance(ds, held)
		}
		for i, a := range accs {
			d.integrate(a)
			if math.Abs(a.integral-direct[i]) > 1e-9*max(1, direct[i]) {
				t.Errorf("equal shares %v, tenant %d: lazy %.12g, direct %.12g", equal, i, a.integral, direct[i])
			}
		}
	}
}
