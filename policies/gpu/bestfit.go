package gpu

// bestFit prefers the node left with the least free resources: with free
// CPU and total free GPU after placement, each over the largest node's
// (128 cores, 8 GPUs) and weighted ½, the score is 1 − ½ (cpu' / 128 000) −
// ½ (gpu' / 8 000). GPUs: best fit.
type bestFit struct{}

func newBestFit(Env) (Policy, error) { return bestFit{}, nil }

func (bestFit) Name() string { return "best-fit" }

// Score is in [0, 1] for nodes no larger than 128 cores and 8 GPUs.
func (bestFit) Score(n *Node, d Demand) (float64, GPUSet, bool) {
	if !n.Fits(d) {
		return 0, 0, false
	}
	left := 0.5*float64(n.FreeCPU-d.CPU)/maxSpecCPU + 0.5*float64(n.FreeGPUMilli()-d.TotalGPUMilli())/maxSpecGPU
	return 1 - left, n.bestFitGPUs(d), true
}
