package fgd

import (
	"fmt"

	"github.com/schedsim/schedsim/policies/gpu"
	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/openb"
)

// Lists are the openb node and pod lists an experiment reads, and how it
// builds its task table and inflates the pods.
type Lists struct {
	Nodes, Pods string  // the CSV files
	Popularity  float64 // share of pods the fragmentation's task types cover
	Inflation   float64 // GPU requested to reach, times the cluster's GPU capacity
	StepPct     float64 // sampling step of arrived GPU, percent of capacity
}

// Load reads the lists and builds the empty cluster with its task table
// (from the pod list as given, before inflation).
func Load(o Lists) (*gpu.Experiment, error) {
	nodes, _, err := openb.ReadNodes(o.Nodes, traces.Options{Strict: true})
	if err != nil {
		return nil, err
	}
	specs := make([]gpu.NodeSpec, len(nodes))
	for i, n := range nodes {
		specs[i] = gpu.NodeSpec{Name: n.Name, CPU: n.CPUMilli, Mem: n.MemoryMiB, GPUs: n.GPUs, Model: n.Model}
	}
	c, err := gpu.NewCluster(specs)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", o.Nodes, err)
	}
	pods, _, err := openb.ReadPods(o.Pods, traces.Options{Strict: true})
	if err != nil {
		return nil, err
	}
	ds := make([]gpu.Demand, len(pods))
	for i, p := range pods {
		if ds[i], err = c.Demand(p.CPUMilli, p.MemoryMiB, p.NumGPU, int32(p.GPUMilli), p.GPUSpec); err != nil {
			return nil, fmt.Errorf("%s: pod %s: %w", o.Pods, p.Name, err)
		}
	}
	tt, err := gpu.NewTaskTable(ds, o.Popularity)
	if err != nil {
		return nil, err
	}
	c.SetTaskTable(tt)
	return &gpu.Experiment{Cluster: c, Pods: ds, Inflation: o.Inflation, StepPct: o.StepPct}, nil
}
