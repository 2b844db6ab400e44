package placement

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/schedsim/schedsim/sim"
)

// This file builds the placement benchmark (BenchmarkPlace10k and
// `schedsim bench --suite placement`): a heterogeneous cluster at 70%
// occupancy, the fit filter, the job-constraint filters, and 3 scorers.

// SyntheticCluster returns n nodes of four shapes (32–128 cpu, 128–1024
// GiB), four zones, 10% arm64, and a NoSchedule taint on every 20th node.
func SyntheticCluster(n int) (*sim.Cluster, error) {
	shapes := []struct{ cpu, mem int64 }{{32, 128}, {64, 256}, {96, 384}, {128, 1024}}
	nodes := make([]sim.NodeSpec, n)
	for i := range nodes {
		s := shapes[i%len(shapes)]
		arch := "x86_64"
		if i%10 == 9 {
			arch = "arm64"
		}
		nodes[i] = sim.NodeSpec{
			Name:       fmt.Sprintf("n%05d", i),
			Capacity:   []sim.Quantity{{Resource: "cpu", Amount: sim.Units(s.cpu)}, {Resource: "mem", Amount: sim.Units(s.mem)}},
			Attributes: map[string]string{"zone": fmt.Sprintf("z%d", i%4), "arch": arch},
		}
		if i%20 == 0 {
			nodes[i].Taints = []sim.Taint{{Key: "dedicated", Value: "db", Effect: "NoSchedule"}}
		}
	}
	return sim.NewCluster(nodes)
}

// syntheticTask asks 4 cpu and 16 GiB on x86_64, in zone z1 when zoned.
func syntheticTask(c *sim.Cluster, key int64, zoned bool) *Task {
	job := &sim.Job{ID: fmt.Sprint(key), Tasks: 1,
		Request: []sim.Quantity{{Resource: "cpu", Amount: sim.Units(4)}, {Resource: "mem", Amount: sim.Units(16)}},
		Traits:  &sim.Traits{Architecture: "x86_64"}}
	if zoned {
		job.Traits.Selector = []sim.Label{{Key: "zone", Value: "z1"}}
	}
	need, immune, _ := c.Compile(job)
	return &Task{Key: key, Job: job, Need: need, Immune: immune}
}

// fillTo books tasks on random nodes (seeded) until the cluster's cpu is
// about share used.
func fillTo(c *sim.Cluster, l *Ledger, share float64) {
	rng := rand.New(rand.NewPCG(1, 2))
	cpu, _ := c.ResourceIndex("cpu")
	target := sim.Amount(float64(c.TotalCapacity(cpu)) * share)
	used := sim.Amount(0)
	for key, misses := int64(1<<40), 0; used < target && misses < 1000; key++ {
		t := syntheticTask(c, key, false)
		n := rng.IntN(len(c.Nodes))
		if l.Fits(t, n, 1) == 0 {
			misses++
			continue
		}
		l.Take(t, n)
		used += sim.Units(4)
	}
}

// syntheticPipeline is least-allocated plus balanced-allocation and
// spread over zones.
func syntheticPipeline(c *sim.Cluster, limit Limit) (*Pipeline, error) {
	return Build(c, Spec{Strategy: "least-allocated", Limit: limit, Scorers: []Scoring{
		{Name: "balanced-allocation", Weight: 1},
		{Name: "spread", Weight: 1, Args: &AttributeArgs{Attribute: "zone"}},
	}})
}

// Throughput places (and gives back) count tasks on a synthetic cluster of
// n nodes at 70% occupancy and returns placements per second.
func Throughput(n int, limit Limit, count int) (float64, error) {
	c, err := SyntheticCluster(n)
	if err != nil {
		return 0, err
	}
	l := NewLedger(c)
	fillTo(c, l, 0.7)
	p, err := syntheticPipeline(c, limit)
	if err != nil {
		return 0, err
	}
	tasks := []*Task{syntheticTask(c, 1, false), syntheticTask(c, 2, true)}
	start := time.Now()
	for i := 0; i < count; i++ {
		if err := placeAndGiveBack(p, l, tasks[i%2]); err != nil {
			return 0, err
		}
	}
	return float64(count) / time.Since(start).Seconds(), nil
}

func placeAndGiveBack(p *Pipeline, l *Ledger, t *Task) error {
	n := p.Place(l, t, nil)
	if n < 0 {
		return fmt.Errorf("no node for the benchmark task")
	}
	l.Take(t, n)
	l.Release(t)
	return nil
}
