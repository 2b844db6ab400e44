package gpu

import (
	"fmt"
	"math/rand/v2"
	"strconv"

	"github.com/schedsim/schedsim/sim"
)

// Cluster is the nodes' state, with GPU totals and, when it has a task
// table, each node's fragmentation, kept up to date incrementally: a
// placement recomputes only the node it changes.
type Cluster struct {
	Nodes   []Node
	Catalog *Catalog
	types   *TaskTable

	gpuCap   int64 // milli-GPU
	gpuAlloc int64 // milli-GPU allocated
	frag     int64 // Σ node fragmentation, table units
}

// NewCluster builds the nodes; types may be nil (no fragmentation kept)
// and may be set later with SetTaskTable.
func NewCluster(specs []NodeSpec) (*Cluster, error) {
	if len(specs) == 0 {
		return nil, fmt.Errorf("no nodes")
	}
	c := &Cluster{Nodes: make([]Node, len(specs)), Catalog: NewCatalog()}
	seen := map[string]bool{}
	for i, s := range specs {
		if seen[s.Name] {
			return nil, fmt.Errorf("node name %q used twice", s.Name)
		}
		seen[s.Name] = true
		model := -1
		if s.GPUs > 0 {
			if s.Model == "" {
				return nil, fmt.Errorf("node %s: GPUs without a model", s.Name)
			}
			id, err := c.Catalog.add(s.Model)
			if err != nil {
				return nil, err
			}
			model = id
		}
		n, err := newNode(s, model)
		if err != nil {
			return nil, err
		}
		c.Nodes[i] = n
		c.gpuCap += int64(s.GPUs) * MilliPerGPU
	}
	return c, nil
}

// SpecsFromSim reads engine nodes: resources cpu (milli, the Amount
// itself), mem (units as MiB) and gpu (whole GPUs), and the GPU model from
// attribute modelAttr. openb.NodeSpecs builds such nodes.
func SpecsFromSim(nodes []sim.NodeSpec, modelAttr string) ([]NodeSpec, error) {
	out := make([]NodeSpec, len(nodes))
	for i, n := range nodes {
		s := NodeSpec{Name: n.Name, Model: n.Attributes[modelAttr]}
		cpu, _ := sim.Get(n.Capacity, "cpu")
		mem, _ := sim.Get(n.Capacity, "mem")
		g, _ := sim.Get(n.Capacity, "gpu")
		if g%sim.Milli != 0 || mem%sim.Milli != 0 {
			return nil, fmt.Errorf("node %s: gpu and mem must be whole units, got %s and %s", n.Name, g, mem)
		}
		s.CPU, s.Mem, s.GPUs = int64(cpu), int64(mem/sim.Milli), int(g/sim.Milli)
		out[i] = s
	}
	return out, nil
}

// SetTaskTable measures fragmentation against t from now on (nil: none).
func (c *Cluster) SetTaskTable(t *TaskTable) {
	c.types = t
	c.frag = 0
	for i := range c.Nodes {
		n := &c.Nodes[i]
		n.frag, n.fragOf = 0, t
		if t != nil {
			n.frag = t.frag(n.model, n.FreeCPU, n.free[:n.n])
			c.frag += n.frag
		}
	}
}

// TaskTable is the table fragmentation is measured against, or nil.
func (c *Cluster) TaskTable() *TaskTable { return c.types }

// Clone copies the state; the catalog and the task table are shared (they
// are read-only once built).
func (c *Cluster) Clone() *Cluster {
	d := *c
	d.Nodes = append([]Node(nil), c.Nodes...)
	return &d
}

// Demand turns a request into a Demand, resolving model names.
func (c *Cluster) Demand(cpu, mem int64, gpus int, gpuMilli int32, models []string) (Demand, error) {
	d := Demand{CPU: cpu, Mem: mem, GPUs: gpus, GPUMilli: gpuMilli}
	if gpus > 0 {
		d.Models = c.Catalog.Set(models)
	}
	return d, d.Validate()
}

// Place allocates d on node i with GPUs g, and updates the totals and that
// node's fragmentation.
func (c *Cluster) Place(i int, d Demand, g GPUSet) error {
	if i < 0 || i >= len(c.Nodes) {
		return fmt.Errorf("node index %d out of range", i)
	}
	n := &c.Nodes[i]
	if err := n.place(d, g); err != nil {
		return err
	}
	c.gpuAlloc += d.TotalGPUMilli()
	c.refrag(n)
	return nil
}

// Release gives back d, placed on node i with GPUs g by Place: the exact
// inverse, totals, kind counts and fragmentation included, so tasks may
// come and go (a replay) and the node returns to its former state. A
// release that Place could not have made is refused and changes nothing.
func (c *Cluster) Release(i int, d Demand, g GPUSet) error {
	if i < 0 || i >= len(c.Nodes) {
		return fmt.Errorf("node index %d out of range", i)
	}
	n := &c.Nodes[i]
	if err := n.release(d, g); err != nil {
		return err
	}
	c.gpuAlloc -= d.TotalGPUMilli()
	c.refrag(n)
	return nil
}

// refrag remeasures the fragmentation of n, the only node that changed.
func (c *Cluster) refrag(n *Node) {
	if c.types != nil {
		f := c.types.frag(n.model, n.FreeCPU, n.free[:n.n])
		c.frag += f - n.frag
		n.frag = f
	}
}

// GPUCapacity is the cluster's GPU in milli.
func (c *Cluster) GPUCapacity() int64 { return c.gpuCap }

// GPUAllocated is the milli-GPU allocated.
func (c *Cluster) GPUAllocated() int64 { return c.gpuAlloc }

// Fragmentation is the cluster's fragmentation F(M) in GPUs (0 without a
// task table).
func (c *Cluster) Fragmentation() float64 {
	if c.types == nil {
		return 0
	}
	return c.types.units(c.frag)
}

// FragmentationRatio is fragmentation over free GPU capacity, in [0, 1]
// (0 when no GPU is free).
func (c *Cluster) FragmentationRatio() float64 {
	idle := c.gpuCap - c.gpuAlloc
	if c.types == nil || idle == 0 {
		return 0
	}
	return c.Fragmentation() * MilliPerGPU / float64(idle)
}

// Check verifies that no node is over-committed and that the totals and
// fragmentation agree with the nodes.
func (c *Cluster) Check() error {
	var alloc, frag int64
	for i := range c.Nodes {
		n := &c.Nodes[i]
		if err := n.check(); err != nil {
			return err
		}
		alloc += int64(n.n)*MilliPerGPU - n.FreeGPUMilli()
		if c.types != nil {
			f := c.types.frag(n.model, n.FreeCPU, n.free[:n.n])
			if f != n.frag {
				return fmt.Errorf("node %s: kept fragmentation %d, recomputed %d", n.Name, n.frag, f)
			}
			frag += f
		}
	}
	if alloc != c.gpuAlloc || frag != c.frag {
		return fmt.Errorf("totals drifted: allocated %d vs %d, fragmentation %d vs %d", c.gpuAlloc, alloc, c.frag, frag)
	}
	return nil
}

// Best scores every node with p and returns the best: highest score, ties
// to the lowest node index, or, when tie is not nil, to a uniformly random
// one of the tied nodes (as the Kubernetes scheduler does). ok is false
// when d fits nowhere.
func (c *Cluster) Best(p Policy, d Demand, tie *rand.Rand) (node int, gpus GPUSet, ok bool) {
	node = -1
	var best float64
	ties := 0
	for i := range c.Nodes {
		s, g, fits := p.Score(&c.Nodes[i], d)
		if !fits {
			continue
		}
		switch {
		case node < 0 || s > best:
			node, best, gpus, ties = i, s, g, 1
		case s == best && tie != nil:
			if ties++; tie.IntN(ties) == 0 {
				node, gpus = i, g
			}
		}
	}
	return node, gpus, node >= 0
}

// Schedule places d on the best node (see Best) and returns it; ok is
// false, and nothing changes, when d fits nowhere.
func (c *Cluster) Schedule(p Policy, d Demand, tie *rand.Rand) (node int, gpus GPUSet, ok bool, err error) {
	node, gpus, ok = c.Best(p, d, tie)
	if !ok {
		return -1, 0, false, nil
	}
	if err := c.Place(node, d, gpus); err != nil {
		return node, gpus, false, fmt.Errorf("policy %s chose node %s: %w", p.Name(), c.Nodes[node].Name, err)
	}
	return node, gpus, true, nil
}

// String summarises the state.
func (c *Cluster) String() string {
	return strconv.Itoa(len(c.Nodes)) + " nodes, " + strconv.FormatFloat(float64(c.gpuAlloc)/MilliPerGPU, 'f', 3, 64) +
		" of " + strconv.FormatInt(c.gpuCap/MilliPerGPU, 10) + " GPUs allocated"
}
