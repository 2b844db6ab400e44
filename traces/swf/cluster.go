package swf

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
)

// Model is how an SWF header becomes a cluster.
type Model string

// Cluster models.
const (
	Pool  Model = "pool"  // one node with MaxProcs processors
	Nodes Model = "nodes" // MaxNodes nodes, jobs take whole nodes
)

// ParseModel checks a model name.
func ParseModel(s string) (Model, error) {
	switch Model(s) {
	case Pool, Nodes:
		return Model(s), nil
	}
	return "", fmt.Errorf("unknown SWF cluster model %q (known: pool, nodes)", s)
}

// ClusterOptions tune the cluster built from a header.
type ClusterOptions struct {
	Model Model
	// ProcsPerNode overrides ⌈MaxProcs/MaxNodes⌉ in the nodes model.
	ProcsPerNode int
	// NodeIdleW and NodeMaxW are the power model of one node; the pool
	// draws MaxNodes times as much. SWF says nothing about power; the
	// defaults (100 W idle, 250 W busy) are a generic two-socket server.
	NodeIdleW, NodeMaxW float64
}

// DefaultNodeIdleW and DefaultNodeMaxW are the power defaults for SWF clusters.
const (
	DefaultNodeIdleW = 100
	DefaultNodeMaxW  = 250
)

// Caps on what a header may state. The nodes model builds one node per
// MaxNodes (a 10^9-node header would ask for 160 GB), so it takes the
// cluster file's limit; MaxProcs, and MaxNodes under the pool model, only
// size one node and its power, and are capped where processor counts stay
// exact in sim.Amount.
const (
	MaxModelNodes = 1_000_000
	MaxProcs      = 1 << 40
)

// Geometry is the machine a header describes, after fallbacks.
type Geometry struct {
	Nodes, Procs, ProcsPerNode int
}

// Geometry resolves MaxNodes/MaxProcs: a header with only one of them uses
// it for both (one processor per node). A count over MaxProcs is an error
// naming its header line.
func (h *Header) Geometry(perNode int) (Geometry, error) {
	for _, c := range []struct {
		key string
		n   int
	}{{"MaxNodes", h.MaxNodes}, {"MaxProcs", h.MaxProcs}} {
		if c.n > MaxProcs {
			// As the log wrote it: a count past int64 is held as MaxInt.
			written := strconv.Itoa(c.n)
			if f := strings.Fields(h.Fields[c.key]); len(f) > 0 {
				written = f[0]
			}
			return Geometry{}, h.headerError(c.key, fmt.Errorf("%s is more than the %d processors or nodes a log may state", written, MaxProcs))
		}
	}
	g := Geometry{Nodes: h.MaxNodes, Procs: h.MaxProcs}
	if g.Procs == 0 {
		g.Procs = g.Nodes
	}
	if g.Nodes == 0 {
		g.Nodes = g.Procs
	}
	if g.Nodes == 0 {
		return g, fmt.Errorf("the SWF header has neither MaxNodes nor MaxProcs; give a cluster file")
	}
	g.ProcsPerNode = (g.Procs + g.Nodes - 1) / g.Nodes
	if perNode > 0 {
		g.ProcsPerNode = perNode
	}
	return g, nil
}

// checkModel refuses a geometry too large for model m: more than
// MaxModelNodes nodes under the nodes model, or nodes of more than
// MaxProcs processors.
func (h *Header) checkModel(g Geometry, m Model) error {
	if m == Nodes && g.Nodes > MaxModelNodes {
		key := "MaxNodes"
		if h.MaxNodes == 0 {
			key = "MaxProcs" // it stood in for MaxNodes
		}
		return h.headerError(key, fmt.Errorf("%d nodes: the nodes model builds at most %d (use the pool model or a cluster file)", g.Nodes, MaxModelNodes))
	}
	if g.ProcsPerNode > MaxProcs {
		return fmt.Errorf("%s: %d processors per node is more than %d", h.file, g.ProcsPerNode, MaxProcs)
	}
	return nil
}

// headerError is err at the header line that set key.
func (h *Header) headerError(key string, err error) error {
	return &traces.ParseError{File: h.file, Line: h.lines[key], Field: key, Err: err}
}

// Cluster builds the nodes of the chosen model.
func (h *Header) Cluster(o ClusterOptions) ([]sim.NodeSpec, error) {
	g, err := h.Geometry(o.ProcsPerNode)
	if err != nil {
		return nil, err
	}
	if err := h.checkModel(g, o.Model); err != nil {
		return nil, err
	}
	idle, maxW := o.NodeIdleW, o.NodeMaxW
	if idle == 0 && maxW == 0 {
		idle, maxW = DefaultNodeIdleW, DefaultNodeMaxW
	}
	switch o.Model {
	case Pool, "":
		return []sim.NodeSpec{{
			Name:     "pool",
			Capacity: []sim.Quantity{{Resource: "cpu", Amount: sim.Units(int64(g.Procs))}},
			Power:    sim.PowerModel{IdleW: idle * float64(g.Nodes), MaxW: maxW * float64(g.Nodes)},
		}}, nil
	case Nodes:
		nodes := make([]sim.NodeSpec, g.Nodes)
		width := len(fmt.Sprint(g.Nodes - 1))
		for i := range nodes {
			nodes[i] = sim.NodeSpec{
				Name:     fmt.Sprintf("n%0*d", width, i),
				Capacity: []sim.Quantity{{Resource: "cpu", Amount: sim.Units(int64(g.ProcsPerNode))}},
				Power:    sim.PowerModel{IdleW: idle, MaxW: maxW},
			}
		}
		return nodes, nil
	}
	return nil, fmt.Errorf("unknown SWF cluster model %q", o.Model)
}

// shape turns a processor count into the job's tasks under a model, and
// the processors each task asks for.
func shape(m Model, procs int64, perNode int) (tasks int, perTask int64) {
	if m == Nodes {
		n := (procs + int64(perNode) - 1) / int64(perNode)
		return int(n), int64(perNode)
	}
	return 1, procs
}
