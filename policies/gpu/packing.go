package gpu

// gpuPacking fills partly used GPUs first, then free GPUs on used nodes,
// then idle nodes, in tiers of the paper's simulator (score out of 100):
//
//   - the task fits on partly used GPUs (taken least-free first):
//     max(50, 100 − ⌊Σ ⌊free·100/1000⌋ / 10⌋) over the GPUs it takes;
//   - it needs u fully free GPUs on a node with some GPU in use:
//     max(33, 50 − u);
//   - the node's GPUs are all free (f of them): max(33 − f, f).
//
// A CPU-only task scores 0 everywhere. GPUs: best fit.
type gpuPacking struct{}

func newGPUPacking(Env) (Policy, error) { return gpuPacking{}, nil }

func (gpuPacking) Name() string { return "gpu-packing" }

// Score is the tier score over 100, in [0, 1].
func (gpuPacking) Score(n *Node, d Demand) (float64, GPUSet, bool) {
	if !n.Fits(d) {
		return 0, 0, false
	}
	if d.GPUs == 0 {
		return 0, 0, true
	}
	g := n.bestFitGPUs(d)
	full := n.FullyFree()
	if full == n.n {
		return float64(max(33-full, full)) / 100, g, true
	}
	// The GPUs the simulator's packing takes: ascending free, stable.
	used, ratio := 0, 0
	need := d.GPUs
	for need > 0 {
		pick := -1
		for i, f := range n.free[:n.n] {
			if f >= d.GPUMilli && !taken(used, i) && (pick < 0 || f < n.free[pick]) {
				pick = i
			}
		}
		used |= 1 << pick
		need--
		if n.free[pick] == MilliPerGPU {
			ratio = -1 << 20 // marks "needs a fully free GPU"
		} else if ratio >= 0 {
			ratio += int(n.free[pick]) * 100 / MilliPerGPU
		}
	}
	if ratio < 0 {
		u := 0
		for i := 0; i < n.n; i++ {
			if taken(used, i) && n.free[i] == MilliPerGPU {
				u++
			}
		}
		return float64(max(33, 50-u)) / 100, g, true
	}
	return float64(max(50, 100-ratio/10)) / 100, g, true
}

func taken(set, i int) bool { return set&(1<<i) != 0 }
