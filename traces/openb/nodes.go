package openb

import (
	"errors"
	"fmt"
	"io"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
)

// Node is one line of a node list.
type Node struct {
	Name      string
	CPUMilli  int64  // CPU capacity, thousandths of a core
	MemoryMiB int64  // memory capacity, MiB
	GPUs      int    // number of GPUs, each of 1000 milli
	Model     string // GPU model; "" when GPUs is 0
}

// Node-list columns.
const (
	colSN     = "sn"
	colCPU    = "cpu_milli"
	colMem    = "memory_mib"
	colGPU    = "gpu"
	colModel  = "model"
	maxGPUs   = 64      // per node; openb has at most 8
	maxMilli  = 1 << 40 // CPU milli or MiB: about 10^12, far beyond any machine
	modelAttr = "gpu_model"
)

// ReadNodes reads a node list file.
func ReadNodes(path string, opt traces.Options) ([]Node, traces.Skips, error) {
	f, err := open(path)
	if err != nil {
		return nil, traces.Skips{}, err
	}
	defer f.Close()
	return ParseNodes(path, f, opt)
}

// ParseNodes reads a node list; name is used in messages.
func ParseNodes(name string, r io.Reader, opt traces.Options) ([]Node, traces.Skips, error) {
	t, err := newTable(name, r, []string{colSN, colCPU, colMem, colGPU, colModel})
	if err != nil {
		return nil, traces.Skips{}, err
	}
	var nodes []Node
	seen := map[string]int{}
	skips, err := collect(t, opt, func() *traces.ParseError {
		n, pe := parseNode(t)
		if pe != nil {
			return pe
		}
		if first, dup := seen[n.Name]; dup {
			return t.fail(colSN, fmt.Errorf("node %q already listed on line %d", n.Name, first))
		}
		seen[n.Name] = t.line
		nodes = append(nodes, n)
		return nil
	})
	return nodes, skips, err
}

func parseNode(t *table) (Node, *traces.ParseError) {
	var n Node
	if n.Name = t.str(colSN); n.Name == "" {
		return n, t.fail(colSN, errors.New("empty"))
	}
	var pe *traces.ParseError
	if n.CPUMilli, pe = t.int(colCPU, 0, maxMilli); pe != nil {
		return n, pe
	}
	if n.MemoryMiB, pe = t.int(colMem, 0, maxMilli); pe != nil {
		return n, pe
	}
	g, pe := t.int(colGPU, 0, maxGPUs)
	if pe != nil {
		return n, pe
	}
	n.GPUs = int(g)
	n.Model = t.str(colModel)
	if n.GPUs > 0 && n.Model == "" {
		return n, t.fail(colModel, errors.New("a node with GPUs needs a model"))
	}
	if n.GPUs == 0 && n.Model != "" {
		return n, t.fail(colModel, fmt.Errorf("model %q on a node without GPUs", n.Model))
	}
	return n, nil
}

// NodeSpecs turns nodes into engine nodes: resources cpu (Amount = cpu
// milli, so 1 core = 1000), mem (MiB as units) and, on GPU nodes, gpu (the
// GPU count as units, 1000 milli each), and the GPU model as the attribute
// "gpu_model".
func NodeSpecs(nodes []Node) []sim.NodeSpec {
	specs := make([]sim.NodeSpec, len(nodes))
	for i, n := range nodes {
		s := sim.NodeSpec{
			Name: n.Name,
			Capacity: []sim.Quantity{
				{Resource: "cpu", Amount: sim.Amount(n.CPUMilli)},
				{Resource: "mem", Amount: sim.Units(n.MemoryMiB)},
			},
		}
		if n.GPUs > 0 {
			s.Capacity = append(s.Capacity, sim.Quantity{Resource: "gpu", Amount: sim.Units(int64(n.GPUs))})
			s.Attributes = map[string]string{modelAttr: n.Model}
		}
		specs[i] = s
	}
	return specs
}

// ModelAttribute is the node attribute NodeSpecs sets to the GPU model.
const ModelAttribute = modelAttr
