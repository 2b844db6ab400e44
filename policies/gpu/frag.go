package gpu

// Fragmentation (Weng et al., ATC'23, §3): a node's free GPU capacity is a
// fragment to a task m when m cannot use it. F_n(m) is
//
//   - every free milli-GPU of the node when m cannot run there: it asks for
//     no GPU (the x-axis of the paper's Figure 4), its model is not allowed,
//     the node lacks its CPU, or fewer than its GPU count of GPUs each have
//     its per-GPU milli free (quadrants I, II and IV);
//   - otherwise (quadrant III) the free milli of the GPUs that have less
//     than m's per-GPU milli free, which m cannot use.
//
// The node's fragmentation against the target workload M is the expectation
// F_n(M) = Σ_m p_m F_n(m); the cluster's is the sum over nodes, and the
// fragmentation ratio is that over the free GPU capacity. As in the
// paper's simulator, "the node lacks CPU" looks at CPU only, not memory.
//
// Fragmentation is kept exact in table units, Σ_m Count_m F_n(m) in
// count × milli-GPU, an integer: no rounding, no drift, exact ties.

// frag is F_n(M) in table units for a node of GPU model model with freeCPU
// milli-CPU and free milli-GPU per GPU.
func (t *TaskTable) frag(model int, freeCPU int64, free []int32) int64 {
	var total int64
	for _, f := range free {
		total += int64(f)
	}
	if total == 0 {
		return 0
	}
	// fit[k]: GPUs with at least millis[k] free; small[k]: the milli free
	// on the others.
	var fitBuf [32]int
	var smallBuf [32]int64
	fit, small := fitBuf[:], smallBuf[:]
	if k := len(t.plan.millis); k > len(fit) {
		fit, small = make([]int, k), make([]int64, k)
	}
	t.plan.perMilli(free, fit, small)
	mp := t.plan.forModel(model)
	out := (t.cpuOnly + mp.barred) * total
	for i := range mp.types {
		m := &mp.types[i]
		if freeCPU < m.cpu || fit[m.milli] < m.gpus {
			out += m.count * total
		} else {
			out += m.count * small[m.milli]
		}
	}
	return out
}

// NodeFragmentation is F_n(M) of n in GPUs.
func (t *TaskTable) NodeFragmentation(n *Node) float64 {
	return t.units(t.frag(n.model, n.FreeCPU, n.free[:n.n]))
}

// fragAfter is n's fragmentation, in table units, had d been placed on it
// with GPUs g (no checks).
func (t *TaskTable) fragAfter(n *Node, d Demand, g GPUSet) int64 {
	free := n.free
	for i := 0; i < n.n; i++ {
		if g.Has(i) {
			free[i] -= d.GPUMilli
		}
	}
	return t.frag(n.model, n.FreeCPU-d.CPU, free[:n.n])
}
