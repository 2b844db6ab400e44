package gen

import (
	"fmt"
	"io"
	"strconv"

	"github.com/schedsim/schedsim/sim"
)

// Models are the names New accepts.
var Models = []string{"lublin", "poisson", "google"}

// Options are what every model takes.
type Options struct {
	// Jobs is how many jobs the generator yields (≥ 1).
	Jobs int
	// Seed selects the workload: the same seed gives the same jobs.
	Seed uint64
	// Nodes is the size of the cluster the workload is made for (0: the
	// model's default): nodes for lublin and poisson, machines for google.
	Nodes int
}

// Generator yields a model's jobs one at a time, in submit order, with ids
// "1", "2", …; it implements sim.Source. It holds the model's state, never
// the jobs already yielded, so any number of jobs takes the same memory.
type Generator struct {
	model   string
	total   int
	made    int
	next    func() *sim.Job
	cluster Cluster
}

// Next implements sim.Source: the next job, or io.EOF after Options.Jobs.
func (g *Generator) Next() (*sim.Job, error) {
	if g.made >= g.total {
		return nil, io.EOF
	}
	g.made++
	j := g.next()
	j.ID = strconv.Itoa(g.made)
	return j, nil
}

// Model is the generator's model name.
func (g *Generator) Model() string { return g.model }

// Jobs is the number of jobs the generator yields in all.
func (g *Generator) Jobs() int { return g.total }

// Cluster is the cluster the workload is made for.
func (g *Generator) Cluster() Cluster { return g.cluster }

// New makes a generator of the named model with its published or default
// parameters (LublinPublished, PoissonDefaults, GoogleDefaults).
func New(model string, o Options) (*Generator, error) {
	switch model {
	case "lublin":
		return NewLublin(LublinPublished(), o)
	case "poisson":
		return NewPoisson(PoissonDefaults(), o)
	case "google":
		return NewGoogle(GoogleDefaults(), o)
	}
	return nil, fmt.Errorf("unknown model %q (known: lublin, poisson, google)", model)
}

// checkOptions validates what every model needs and fills Nodes.
func checkOptions(o *Options, defaultNodes, minNodes int) error {
	if o.Jobs < 1 {
		return fmt.Errorf("jobs: must be ≥ 1, got %d", o.Jobs)
	}
	if o.Nodes == 0 {
		o.Nodes = defaultNodes
	}
	if o.Nodes < minNodes || o.Nodes > maxNodes {
		return fmt.Errorf("nodes: must be in [%d, %d], got %d", minNodes, maxNodes, o.Nodes)
	}
	return nil
}

// maxNodes is the largest cluster a generator makes (the cluster file's
// limit, clusterconfig.MaxNodes).
const maxNodes = 1_000_000

// nodesGenerator is a generator of model's jobs whose sizes count whole
// nodes (Lublin, Poisson), and the cluster they are drawn for: nodes
// alike, each with the resources of request (a one-node job's), named
// after the model and their number.
func nodesGenerator(model string, o Options, request []sim.Quantity, next func() *sim.Job) *Generator {
	return &Generator{
		model: model,
		total: o.Jobs,
		next:  next,
		cluster: Cluster{
			Name:   fmt.Sprintf("%s-%d", model, o.Nodes),
			Groups: []NodeGroup{{Prefix: "n", Count: o.Nodes, Resources: request}},
			IdleW:  100, MaxW: 250,
		},
	}
}
