package gpu

// gpuClustering keeps tasks of one GPU kind (a share, or k whole GPUs)
// together, in tiers of the paper's simulator (score out of 100):
//
//	75 + b  the node runs only tasks of the task's kind
//	50 + b  it runs that kind and others
//	25 + b  it runs no GPU task
//	 0 + b  it runs other kinds only
//
// where b = ⌊25 (8000 − free milli-GPU) / 8000⌋ packs within a tier. A
// CPU-only task scores 0 everywhere. GPUs: best fit.
type gpuClustering struct{}

func newGPUClustering(Env) (Policy, error) { return gpuClustering{}, nil }

func (gpuClustering) Name() string { return "gpu-clustering" }

// Score is the tier score over 100, in [0, 1].
func (gpuClustering) Score(n *Node, d Demand) (float64, GPUSet, bool) {
	if !n.Fits(d) {
		return 0, 0, false
	}
	if d.GPUs == 0 {
		return 0, 0, true
	}
	b := 25 * (maxSpecGPU - n.FreeGPUMilli()) / maxSpecGPU
	if b < 0 {
		b = 0
	}
	var tier int64
	switch {
	case n.kinds[d.kind()] > 0 && n.nkinds == 1:
		tier = 75
	case n.kinds[d.kind()] > 0:
		tier = 50
	case n.nkinds == 0:
		tier = 25
	}
	return float64(tier+b) / 100, n.bestFitGPUs(d), true
}
