package gpu

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/openb"
)

const sharedOpenb = "../../../shared/traces/openb"

// loadOpenb builds an experiment from an openb node list and pod list.
func loadOpenb(tb testing.TB, nodesFile, podsFile string) *Experiment {
	tb.Helper()
	nodes, _, err := openb.ReadNodes(nodesFile, traces.Options{Strict: true})
	if err != nil {
		tb.Fatal(err)
	}
	specs := make([]NodeSpec, len(nodes))
	for i, n := range nodes {
		specs[i] = NodeSpec{Name: n.Name, CPU: n.CPUMilli, Mem: n.MemoryMiB, GPUs: n.GPUs, Model: n.Model}
	}
	c, err := NewCluster(specs)
	if err != nil {
		tb.Fatal(err)
	}
	pods, _, err := openb.ReadPods(podsFile, traces.Options{Strict: true})
	if err != nil {
		tb.Fatal(err)
	}
	ds := make([]Demand, len(pods))
	for i, p := range pods {
		if ds[i], err = c.Demand(p.CPUMilli, p.MemoryMiB, p.NumGPU, int32(p.GPUMilli), p.GPUSpec); err != nil {
			tb.Fatal(err)
		}
	}
	tt, err := NewTaskTable(ds, DefaultPopularity)
	if err != nil {
		tb.Fatal(err)
	}
	c.SetTaskTable(tt)
	return &Experiment{Cluster: c, Pods: ds, Inflation: 1.3, StepPct: 1}
}

// needShared skips when ../shared is absent and returns the default inputs.
func needShared(tb testing.TB) (nodes, pods string) {
	tb.Helper()
	if _, err := os.Stat(sharedOpenb); err != nil {
		tb.Skip("../shared/traces/openb not present")
	}
	return filepath.Join(sharedOpenb, "openb_node_list_gpu_node.csv"), filepath.Join(sharedOpenb, "openb_pod_list_default.csv")
}

// small is the testdata subset.
func small(tb testing.TB) *Experiment {
	return loadOpenb(tb, "../../testdata/openb/nodes.csv", "../../testdata/openb/pods.csv")
}
