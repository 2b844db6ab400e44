package gpu

import (
	"errors"
	"math"
)

// fgd is fragmentation gradient descent: place the task where the
// fragmentation of the cluster against the target workload grows least.
// Only the chosen node changes, so the growth is that node's: Δ =
// F_n(M) after − F_n(M) before. For a share it tries every fitting GPU
// (one per distinct free amount: equal GPUs give equal Δ) and keeps the
// least Δ, lowest index on ties; whole GPUs are the lowest-index free
// ones (which free GPUs a whole-GPU task takes does not change Δ).
//
// The score is sigmoid(−Δ in GPUs), in (0, 1), as in the paper's
// simulator but not rounded to an integer out of 100: Δ is exact
// (integer table units), and so are ties.
//
// A placement scores every node, and most nodes of a kind give the same
// Δ: the last sigmoids computed are kept by Δ, which saves most calls to
// math.Exp (the same value either way). So an fgd policy, like random,
// serves one placement loop at a time.
type fgd struct {
	t     *TaskTable
	known [sigmoidsKept]sigmoid
}

// sigmoid is one kept score: of Δ delta, when set.
type sigmoid struct {
	delta int64
	score float64
	set   bool
}

// sigmoidsKept is how many scores fgd keeps, a power of two.
const sigmoidsKept = 256

func newFGD(env Env) (Policy, error) {
	if env.Types == nil {
		return nil, errors.New("fgd policy: no task table")
	}
	return &fgd{t: env.Types}, nil
}

func (*fgd) Name() string { return "fgd" }

// Score is in (0, 1); 0.5 means no change in fragmentation.
func (p *fgd) Score(n *Node, d Demand) (float64, GPUSet, bool) {
	if !n.Fits(d) {
		return 0, 0, false
	}
	delta, g := p.Delta(n, d)
	return p.sigmoid(delta), g, true
}

// sigmoid is 1 / (1 + e^Δ), Δ in GPUs, from the kept scores when it can.
func (p *fgd) sigmoid(delta int64) float64 {
	k := &p.known[(uint64(delta)*0x9E3779B97F4A7C15)>>(64-8)]
	if !k.set || k.delta != delta {
		*k = sigmoid{delta: delta, score: 1 / (1 + math.Exp(p.t.units(delta))), set: true}
	}
	return k.score
}

// Delta is the growth of n's fragmentation, in table units, when d goes to
// its best GPUs there, and those GPUs. d must fit n.
func (p *fgd) Delta(n *Node, d Demand) (int64, GPUSet) {
	before := n.frag // kept by the cluster when it measures against the same table
	if n.fragOf != p.t {
		before = p.t.frag(n.model, n.FreeCPU, n.free[:n.n])
	}
	if !d.Share() {
		g := n.bestFitGPUs(d)
		return p.t.fragAfter(n, d, g) - before, g
	}
	var best int64
	pick := -1
	var tried [MaxGPUs]int32
	nt := 0
next:
	for i, f := range n.free[:n.n] {
		if f < d.GPUMilli {
			continue
		}
		for _, t := range tried[:nt] {
			if t == f {
				continue next
			}
		}
		tried[nt] = f
		nt++
		a := p.t.fragAfter(n, d, 1<<uint(i))
		if pick < 0 || a < best {
			best, pick = a, i
		}
	}
	return best - before, 1 << uint(pick)
}
