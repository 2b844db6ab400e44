package gpu

import (
	"math/rand/v2"
	"testing"
)

// sameState fails unless a and b hold identical nodes and totals.
func sameState(t *testing.T, what string, a, b *Cluster) {
	t.Helper()
	for i := range a.Nodes {
		if a.Nodes[i] != b.Nodes[i] {
			t.Fatalf("%s: node %s differs:\n%+v\n%+v", what, a.Nodes[i].Name, a.Nodes[i], b.Nodes[i])
		}
	}
	if a.gpuAlloc != b.gpuAlloc || a.frag != b.frag {
		t.Fatalf("%s: totals differ: allocated %d vs %d, fragmentation %d vs %d", what, a.gpuAlloc, b.gpuAlloc, a.frag, b.frag)
	}
}

func TestPlaceThenReleaseRestoresNode(t *testing.T) {
	for _, tc := range []struct {
		name string
		d    Demand
		g    GPUSet
	}{
		{"cpu only", Demand{CPU: 1000, Mem: 10}, 0},
		{"share on a shared GPU", Demand{CPU: 2000, Mem: 1, GPUs: 1, GPUMilli: 300}, 1 << 2},
		{"share on a free GPU", Demand{CPU: 2000, GPUs: 1, GPUMilli: 300}, 1 << 0},
		{"whole GPUs", Demand{CPU: 4000, GPUs: 2, GPUMilli: 1000}, 1<<0 | 1<<1},
		{"a kind already there", Demand{GPUs: 1, GPUMilli: 100}, 1 << 3},
	} {
		c, _ := tiny(t)
		before := c.Clone()
		must(t, c.Place(0, tc.d, tc.g))
		must(t, c.Check())
		must(t, c.Release(0, tc.d, tc.g))
		must(t, c.Check())
		sameState(t, tc.name, c, before)
	}
}

func TestReleaseRefusesWhatWasNotPlaced(t *testing.T) {
	c, _ := tiny(t) // n0 GPUs [1000 1000 500 200], shares only; n1 idle
	before := c.Clone()
	for _, tc := range []struct {
		name string
		node int
		d    Demand
		g    GPUSet
	}{
		{"GPU over its capacity", 0, Demand{GPUs: 1, GPUMilli: 600}, 1 << 2},
		{"kind never placed", 0, Demand{GPUs: 2, GPUMilli: 1000}, 1<<2 | 1<<3},
		{"CPU never allocated", 1, Demand{CPU: 1}, 0},
		{"wrong GPU count", 0, Demand{GPUs: 1, GPUMilli: 100}, 1<<2 | 1<<3},
		{"GPUs for a CPU-only task", 0, Demand{}, 1},
		{"no such node", 2, Demand{}, 0},
	} {
		if err := c.Release(tc.node, tc.d, tc.g); err == nil {
			t.Errorf("%s: released", tc.name)
		}
		sameState(t, tc.name, c, before)
	}
}

// TestChurnKeepsFragmentationExact places and releases openb pods at
// random, with each policy's GPU choice, and checks after every step that
// the kept fragmentation and totals equal a recomputation from scratch
// (Check); releasing everything gives back the empty cluster.
func TestChurnKeepsFragmentationExact(t *testing.T) {
	e := small(t)
	for _, name := range Names {
		c := e.Cluster.Clone()
		p, err := New(name, Env{Types: c.TaskTable(), Rand: rand.New(rand.NewPCG(1, streamPolicy))})
		must(t, err)
		r := rand.New(rand.NewPCG(7, 0))
		type live struct {
			node int
			d    Demand
			g    GPUSet
		}
		var running []live
		for step := 0; step < 2000; step++ {
			if len(running) > 0 && r.IntN(3) == 0 {
				i := r.IntN(len(running))
				x := running[i]
				running = append(running[:i], running[i+1:]...)
				must(t, c.Release(x.node, x.d, x.g))
			} else {
				d := e.Pods[r.IntN(len(e.Pods))]
				node, g, ok, err := c.Schedule(p, d, nil)
				must(t, err)
				if ok {
					running = append(running, live{node, d, g})
				}
			}
			if err := c.Check(); err != nil {
				t.Fatalf("%s step %d: %v", name, step, err)
			}
		}
		for _, x := range running {
			must(t, c.Release(x.node, x.d, x.g))
		}
		sameState(t, name+" after releasing everything", c, e.Cluster)
	}
}
