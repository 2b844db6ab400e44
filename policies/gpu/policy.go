package gpu

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
)

// Policy scores placing a task on one node; a placement pipeline calls
// Score for every node and takes the best.
type Policy interface {
	Name() string
	// Score rates placing d on n: ok is false when d does not fit n
	// (Node.Fits); otherwise score is in [0, 1], higher is better, and
	// gpus are the GPUs d would take there (empty for a CPU-only task).
	// Score does not change n.
	Score(n *Node, d Demand) (score float64, gpus GPUSet, ok bool)
}

// Env is what a policy may depend on: the cluster's task table (FGD) and a
// random stream (random).
type Env struct {
	Types *TaskTable
	Rand  *rand.Rand
}

// registry maps each policy name to its constructor and a line of doc.
var registry = map[string]struct {
	doc string
	new func(Env) (Policy, error)
}{
	"random":         {"a uniformly random fitting node, a random fitting GPU for a share", newRandom},
	"dot-product":    {"Tetris alignment: the node whose free (CPU, GPU) has the least dot product with the demand", newDotProduct},
	"gpu-clustering": {"nodes already running tasks of the same GPU kind (share, 1, 2, … GPUs) first, then idle ones", newGPUClustering},
	"gpu-packing":    {"shared GPUs first, then free GPUs on used nodes, then idle nodes", newGPUPacking},
	"best-fit":       {"the node with the least free CPU and GPU left after placing, weighted half and half", newBestFit},
	"fgd":            {"fragmentation gradient descent: the node and GPU whose fragmentation grows least", newFGD},
}

// Names lists the policies in the paper's order.
var Names = []string{"random", "dot-product", "gpu-clustering", "gpu-packing", "best-fit", "fgd"}

// Doc is the one-line description of policy name.
func Doc(name string) string { return registry[name].doc }

// New builds policy name.
func New(name string, env Env) (Policy, error) {
	r, ok := registry[name]
	if !ok {
		known := make([]string, 0, len(registry))
		for k := range registry {
			known = append(known, k)
		}
		sort.Strings(known)
		return nil, fmt.Errorf("unknown GPU policy %q (known: %s)", name, strings.Join(known, ", "))
	}
	return r.new(env)
}

// Max specs normalise scores as in the paper's simulator: 128 cores and 8
// GPUs, the largest openb node.
const (
	maxSpecCPU = 128000
	maxSpecGPU = 8 * MilliPerGPU
)
