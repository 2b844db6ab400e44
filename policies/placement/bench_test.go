package placement

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

// benchCluster is a heterogeneous 10,000-node cluster: four node shapes,
// four zones, two architectures, and a NoSchedule taint on every 20th node.
func benchCluster(b *testing.B, n int) *sim.Cluster {
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
	c, err := sim.NewCluster(nodes)
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// benchTask asks 4 cpu and 16 GiB, on x86_64, in zone z1 or any.
func benchTask(c *sim.Cluster, key int64, selector bool) *Task {
	job := &sim.Job{ID: fmt.Sprint(key), Tasks: 1,
		Request: []sim.Quantity{{Resource: "cpu", Amount: sim.Units(4)}, {Resource: "mem", Amount: sim.Units(16)}},
		Traits:  &sim.Traits{Architecture: "x86_64"}}
	if selector {
		job.Traits.Selector = []sim.Label{{Key: "zone", Value: "z1"}}
	}
	need, immune, _ := c.Compile(job)
	return &Task{Key: key, Job: job, Need: need, Immune: immune}
}

// fill places tasks until the cluster's cpu is about 70% used.
func fill(b *testing.B, c *sim.Cluster, l *Ledger) {
	rng := rand.New(rand.NewPCG(1, 2))
	cpu, _ := c.ResourceIndex("cpu")
	total := c.TotalCapacity(cpu)
	used := sim.Amount(0)
	for key, misses := int64(1<<40), 0; used < total*7/10 && misses < 1000; key++ {
		t := benchTask(c, key, false)
		n := rng.IntN(len(c.Nodes)) // spread the fill at random
		if l.Fits(t, n, 1) == 0 {
			misses++
			continue
		}
		l.Take(t, n)
		used += sim.Units(4)
	}
}

// benchPipeline: the fit filter plus the trait filters (architecture,
// taints, selector: 3 that act here) and 3 scorers.
func benchPipeline(b *testing.B, c *sim.Cluster, limit Limit) *Pipeline {
	p, err := Build(c, Spec{Strategy: "least-allocated", Limit: limit, Scorers: []Scoring{
		{Name: "balanced-allocation", Weight: 1},
		{Name: "spread", Weight: 1, Attribute: "zone"},
	}})
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkPlace10k measures placements per second on 10,000 nodes at 70%
// occupancy: each iteration places one task and gives it back.
func BenchmarkPlace10k(b *testing.B) {
	for _, bc := range []struct {
		name  string
		limit Limit
	}{{"full-scan", 0}, {"limit-auto", Auto}} {
		b.Run(bc.name, func(b *testing.B) {
			c := benchCluster(b, 10000)
			l := NewLedger(c)
			fill(b, c, l)
			p := benchPipeline(b, c, bc.limit)
			tasks := []*Task{benchTask(c, 1, false), benchTask(c, 2, true)}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				t := tasks[i%2]
				n := p.Place(l, t, nil)
				if n < 0 {
					b.Fatal("no node")
				}
				l.Take(t, n)
				l.Release(t)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "placements/s")
		})
	}
}
