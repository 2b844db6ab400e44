package placement

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

// TestIndexMatchesScan places and removes random tasks through two copies
// of each scoring strategy, one with the score index and one scanning every
// node, and requires the same node at every step.
func TestIndexMatchesScan(t *testing.T) {
	for _, name := range []string{"least-allocated", "most-allocated", "balanced-allocation", "fewest-instances", "dot-product", "fenzo"} {
		t.Run(name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, 11))
			var nodes []sim.NodeSpec
			for i := 0; i < 300; i++ {
				nodes = append(nodes, sim.NodeSpec{Name: fmt.Sprintf("n%03d", i),
					Capacity:   []sim.Quantity{{Resource: "cpu", Amount: sim.Units(int64(4 + 4*(i%4)))}, {Resource: "mem", Amount: sim.Units(int64(16 << (i % 3)))}},
					Attributes: map[string]string{"zone": fmt.Sprint("z", i%3), "arch": []string{"x86_64", "arm64"}[i%5/4]}})
				if i%17 == 0 {
					nodes[i].Taints = []sim.Taint{{Key: "gpu", Effect: "NoSchedule"}}
				}
			}
			c, err := sim.NewCluster(nodes)
			if err != nil {
				t.Fatal(err)
			}
			spec := Spec{Strategy: name, Scorers: []Scoring{{Name: "spread", Weight: 0.5, Args: &AttributeArgs{Attribute: "zone"}}}}
			fast, err := Build(c, spec)
			if err != nil {
				t.Fatal(err)
			}
			slow, _ := Build(c, spec)
			slow.NoIndex = true
			lf, ls := NewLedger(c), NewLedger(c)
			var live []*Task
			for step := 0; step < 3000; step++ {
				if len(live) > 0 && rng.IntN(3) == 0 {
					k := rng.IntN(len(live))
					lf.Release(live[k])
					ls.Release(live[k])
					live = append(live[:k], live[k+1:]...)
					continue
				}
				job := &sim.Job{ID: fmt.Sprint(step), Tasks: 1, Request: []sim.Quantity{
					{Resource: "cpu", Amount: sim.Units(int64(1 + rng.IntN(3)))}, {Resource: "mem", Amount: sim.Units(int64(1 + rng.IntN(8)))}}}
				if rng.IntN(4) == 0 {
					job.Traits = &sim.Traits{Architecture: "x86_64", Selector: []sim.Label{{Key: "zone", Value: fmt.Sprint("z", rng.IntN(3))}}}
				}
				need, immune, _ := c.Compile(job)
				task := &Task{Key: int64(step), Job: job, Need: need, Immune: immune}
				a, b := fast.Place(lf, task, nil), slow.Place(ls, task, nil)
				if a != b {
					t.Fatalf("step %d: index chose %d, scan %d", step, a, b)
				}
				if a >= 0 {
					lf.Take(task, a)
					ls.Take(task, a)
					live = append(live, task)
				}
			}
		})
	}
}
