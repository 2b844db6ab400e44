package gpu

// dotProduct is the Tetris alignment score as the paper's simulator
// configures it ("merge" dimensions, "max" normalisation): the node's free
// (CPU, total GPU) and the demand's (CPU, total GPU), each divided by the
// largest node (128 cores, 8 GPUs), have dot product x in [0, 1] after
// halving; the score is 1 − x, so the node whose free resources align
// least, the fullest one, wins. GPUs: best fit.
type dotProduct struct{}

func newDotProduct(Env) (Policy, error) { return dotProduct{}, nil }

func (dotProduct) Name() string { return "dot-product" }

// Score is in [0, 1] for nodes no larger than 128 cores and 8 GPUs.
func (dotProduct) Score(n *Node, d Demand) (float64, GPUSet, bool) {
	if !n.Fits(d) {
		return 0, 0, false
	}
	x := float64(n.FreeCPU)/maxSpecCPU*float64(d.CPU)/maxSpecCPU +
		float64(n.FreeGPUMilli())/maxSpecGPU*float64(d.TotalGPUMilli())/maxSpecGPU
	return 1 - x/2, n.bestFitGPUs(d), true
}
