package gpu

import (
	"math/rand/v2"
	"testing"
)

// twoNodes: a is idle (2 T4, 32 cores); b has a share of 400 on GPU 0, so
// b's GPUs are [600, 1000]. The task asks 4 cores and a share of 500.
func twoNodes(t *testing.T) (*Cluster, Demand) {
	t.Helper()
	c, err := NewCluster([]NodeSpec{{Name: "a", CPU: 32000, Mem: 100, GPUs: 2, Model: "T4"}, {Name: "b", CPU: 32000, Mem: 100, GPUs: 2, Model: "T4"}})
	must(t, err)
	must(t, c.Place(1, Demand{GPUs: 1, GPUMilli: 400}, 1))
	return c, Demand{CPU: 4000, GPUs: 1, GPUMilli: 500}
}

func TestPolicyScoresByHand(t *testing.T) {
	for _, tc := range []struct {
		policy string
		a, b   float64 // scores of nodes a and b
		why    string
	}{
		{"best-fit", 0.796875, 0.821875,
			"1 − ½·28000/128000 − ½·(2000−500)/8000 for a; GPU left 1600−500 for b"},
		{"dot-product", 1 - (0.25*0.03125+0.25*0.0625)/2, 1 - (0.25*0.03125+0.2*0.0625)/2,
			"free CPU 32000/128000 · demand 4000/128000 + free GPU (2000 or 1600)/8000 · 500/8000, halved, from 1"},
		{"gpu-packing", 0.31, 0.94,
			"a: all 2 GPUs free → max(33−2, 2); b: shared GPU with 600 free → 100 − ⌊60/10⌋"},
		{"gpu-clustering", 0.43, 0.95,
			"a: no GPU task → 25 + ⌊25·6000/8000⌋ = 43; b: only shares → 75 + ⌊25·6400/8000⌋ = 95"},
	} {
		c, d := twoNodes(t)
		p, err := New(tc.policy, Env{})
		must(t, err)
		sa, ga, oka := p.Score(&c.Nodes[0], d)
		sb, gb, okb := p.Score(&c.Nodes[1], d)
		if !oka || !okb || !near(sa, tc.a) || !near(sb, tc.b) {
			t.Errorf("%s: scores %v %v, want %v %v (%s)", tc.policy, sa, sb, tc.a, tc.b, tc.why)
		}
		// Best-fit GPU choice: a's GPU 0 (a tie of 1000s, lowest index),
		// b's GPU 0 (600 is the least free that fits).
		if ga != 1 || gb != 1 {
			t.Errorf("%s: GPUs %v %v", tc.policy, ga.Indices(), gb.Indices())
		}
	}
}

func TestCPUOnlyTasksTieToLowestIndex(t *testing.T) {
	c, _ := twoNodes(t)
	d := Demand{CPU: 1000, Mem: 1}
	for _, name := range []string{"gpu-packing", "gpu-clustering"} {
		p, _ := New(name, Env{})
		node, g, ok := c.Best(p, d, nil)
		if !ok || node != 0 || g != 0 {
			t.Errorf("%s: node %d GPUs %v, want node 0 (all score 0)", name, node, g)
		}
	}
}

func TestNothingFits(t *testing.T) {
	c, _ := twoNodes(t)
	for _, name := range Names {
		p, err := New(name, Env{Types: &TaskTable{Total: 1}, Rand: rand.New(rand.NewPCG(1, 1))})
		must(t, err)
		for _, d := range []Demand{
			{CPU: 33000},                            // CPU
			{Mem: 101},                              // memory
			{GPUs: 3, GPUMilli: 1000},               // three GPUs
			{GPUs: 1, GPUMilli: 1, Models: 1 << 62}, // a model no node has
		} {
			if _, _, ok, _ := c.Schedule(p, d, nil); ok {
				t.Errorf("%s placed %+v", name, d)
			}
		}
	}
	if _, err := New("worst-fit", Env{}); err == nil {
		t.Error("unknown policy accepted")
	}
	if _, err := New("fgd", Env{}); err == nil {
		t.Error("fgd without a task table accepted")
	}
}

func TestWholeGPUsTakeLowestFree(t *testing.T) {
	c, _ := twoNodes(t)
	d := Demand{GPUs: 1, GPUMilli: 1000}
	// b has GPU 1 fully free only.
	if g := c.Nodes[1].bestFitGPUs(d); g != 1<<1 {
		t.Errorf("got %v", g.Indices())
	}
	if err := c.Place(1, d, 1); err == nil {
		t.Error("a whole GPU placed on a GPU with 600 free")
	}
}
