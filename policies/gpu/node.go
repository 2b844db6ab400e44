package gpu

import (
	"errors"
	"fmt"
)

// NodeSpec describes one node: its capacities and GPUs.
type NodeSpec struct {
	Name  string
	CPU   int64  // milli-CPU
	Mem   int64  // MiB
	GPUs  int    // GPUs of 1000 milli each
	Model string // GPU model; "" without GPUs
}

// Node is a node's state: what is free on it, GPU by GPU.
type Node struct {
	Name    string
	Model   string
	model   int   // catalog id; -1 without GPUs
	CPU     int64 // capacity, milli-CPU
	Mem     int64 // capacity, MiB
	FreeCPU int64 // milli-CPU not allocated
	FreeMem int64 // MiB not allocated
	n       int
	free    [MaxGPUs]int32 // milli-GPU free on each GPU
	// kinds counts the GPU tasks placed here by kind (GPU clustering's
	// "affinity"): [0] shares, [k] k whole GPUs; nkinds counts non-zero.
	kinds  [MaxGPUs + 1]int32
	nkinds int
	frag   int64      // fragmentation against fragOf, in its units
	fragOf *TaskTable // the table frag was measured against; nil if none
}

// NumGPUs is the number of GPUs of the node.
func (n *Node) NumGPUs() int { return n.n }

// FreeGPU is the milli-GPU free on GPU i.
func (n *Node) FreeGPU(i int) int32 { return n.free[i] }

// FreeGPUMilli is the milli-GPU free over all GPUs.
func (n *Node) FreeGPUMilli() int64 {
	var t int64
	for _, f := range n.free[:n.n] {
		t += int64(f)
	}
	return t
}

// FullyFree counts the GPUs with nothing allocated.
func (n *Node) FullyFree() int {
	c := 0
	for _, f := range n.free[:n.n] {
		if f == MilliPerGPU {
			c++
		}
	}
	return c
}

// ModelID is the node's GPU model in its cluster's catalog, -1 without GPUs.
func (n *Node) ModelID() int { return n.model }

// Fits tells whether d fits on n: CPU and memory fit, and a GPU task finds
// an allowed model and either GPUs whole free GPUs or one GPU with its share
// free.
func (n *Node) Fits(d Demand) bool {
	if d.CPU > n.FreeCPU || d.Mem > n.FreeMem {
		return false
	}
	if d.GPUs == 0 {
		return true
	}
	if n.n == 0 || !d.Models.Allows(n.model) {
		return false
	}
	k := 0
	for _, f := range n.free[:n.n] {
		if f >= d.GPUMilli {
			if k++; k == d.GPUs {
				return true
			}
		}
	}
	return false
}

// bestFitGPUs is the default GPU choice ("best" in the FGD simulator): a
// share goes to the fitting GPU with the least free (lowest index on ties),
// whole GPUs are the lowest-index fully free ones. d must fit.
func (n *Node) bestFitGPUs(d Demand) GPUSet {
	if d.GPUs == 0 {
		return 0
	}
	if d.Share() {
		best := -1
		for i, f := range n.free[:n.n] {
			if f >= d.GPUMilli && (best < 0 || f < n.free[best]) {
				best = i
			}
		}
		return 1 << uint(best)
	}
	return n.wholeGPUs(d.GPUs)
}

// wholeGPUs is the k lowest-index fully free GPUs (0 if there are fewer).
func (n *Node) wholeGPUs(k int) GPUSet {
	var g GPUSet
	for i, f := range n.free[:n.n] {
		if k == 0 {
			break
		}
		if f == MilliPerGPU {
			g |= 1 << uint(i)
			k--
		}
	}
	if k > 0 {
		return 0
	}
	return g
}

// place allocates d on n using GPUs g, checking that it fits.
func (n *Node) place(d Demand, g GPUSet) error {
	if err := d.Validate(); err != nil {
		return err
	}
	if d.CPU > n.FreeCPU || d.Mem > n.FreeMem {
		return fmt.Errorf("node %s: CPU or memory over-committed", n.Name)
	}
	if d.GPUs == 0 {
		if g != 0 {
			return fmt.Errorf("node %s: GPUs given to a CPU-only task", n.Name)
		}
	} else {
		if !d.Models.Allows(n.model) || n.n == 0 {
			return fmt.Errorf("node %s: GPU model %q not allowed", n.Name, n.Model)
		}
		if g.Len() != d.GPUs || g>>uint(n.n) != 0 {
			return fmt.Errorf("node %s: %d GPUs chosen for a task asking %d", n.Name, g.Len(), d.GPUs)
		}
		for i := 0; i < n.n; i++ {
			if g.Has(i) && n.free[i] < d.GPUMilli {
				return fmt.Errorf("node %s: GPU %d has %d milli free, the task needs %d", n.Name, i, n.free[i], d.GPUMilli)
			}
		}
		for i := 0; i < n.n; i++ {
			if g.Has(i) {
				n.free[i] -= d.GPUMilli
			}
		}
		k := d.kind()
		if n.kinds[k] == 0 {
			n.nkinds++
		}
		n.kinds[k]++
	}
	n.FreeCPU -= d.CPU
	n.FreeMem -= d.Mem
	return nil
}

// release gives back d, placed on n with GPUs g: the exact inverse of
// place, checking that it could have been placed there (so a wrong
// release fails instead of corrupting the node).
func (n *Node) release(d Demand, g GPUSet) error {
	if err := d.Validate(); err != nil {
		return err
	}
	if n.FreeCPU+d.CPU > n.CPU || n.FreeMem+d.Mem > n.Mem {
		return fmt.Errorf("node %s: releasing more CPU or memory than allocated", n.Name)
	}
	if d.GPUs == 0 {
		if g != 0 {
			return fmt.Errorf("node %s: GPUs given back by a CPU-only task", n.Name)
		}
	} else {
		if g.Len() != d.GPUs || g>>uint(n.n) != 0 {
			return fmt.Errorf("node %s: %d GPUs given back for a task asking %d", n.Name, g.Len(), d.GPUs)
		}
		k := d.kind()
		if n.kinds[k] == 0 {
			return fmt.Errorf("node %s: no task of this GPU kind to release", n.Name)
		}
		for i := 0; i < n.n; i++ {
			if g.Has(i) && n.free[i]+d.GPUMilli > MilliPerGPU {
				return fmt.Errorf("node %s: GPU %d has %d milli free, cannot give back %d", n.Name, i, n.free[i], d.GPUMilli)
			}
		}
		for i := 0; i < n.n; i++ {
			if g.Has(i) {
				n.free[i] += d.GPUMilli
			}
		}
		if n.kinds[k]--; n.kinds[k] == 0 {
			n.nkinds--
		}
	}
	n.FreeCPU += d.CPU
	n.FreeMem += d.Mem
	return nil
}

// check reports an over-committed or corrupt node.
func (n *Node) check() error {
	if n.FreeCPU < 0 || n.FreeCPU > n.CPU || n.FreeMem < 0 || n.FreeMem > n.Mem {
		return fmt.Errorf("node %s: free CPU %d of %d, free memory %d of %d", n.Name, n.FreeCPU, n.CPU, n.FreeMem, n.Mem)
	}
	for i, f := range n.free[:n.n] {
		if f < 0 || f > MilliPerGPU {
			return fmt.Errorf("node %s: GPU %d has %d milli free", n.Name, i, f)
		}
	}
	return nil
}

func newNode(s NodeSpec, model int) (Node, error) {
	switch {
	case s.Name == "":
		return Node{}, errors.New("a node has no name")
	case s.CPU < 0 || s.Mem < 0:
		return Node{}, fmt.Errorf("node %s: negative capacity", s.Name)
	case s.GPUs < 0 || s.GPUs > MaxGPUs:
		return Node{}, fmt.Errorf("node %s: %d GPUs, need 0–%d", s.Name, s.GPUs, MaxGPUs)
	}
	n := Node{Name: s.Name, Model: s.Model, model: model, CPU: s.CPU, Mem: s.Mem, FreeCPU: s.CPU, FreeMem: s.Mem, n: s.GPUs}
	for i := 0; i < s.GPUs; i++ {
		n.free[i] = MilliPerGPU
	}
	return n, nil
}
