package gpu

import (
	"math"
	"testing"
)

// tiny is one node of model A with 4 GPUs, 8 cores, GPUs free
// [1000, 1000, 500, 200], and a table of four task types (Total = 5):
//
//	t1 CPU-only, 1 core,          count 2
//	t2 share of 300, 2 cores,     count 1
//	t3 2 whole GPUs, 4 cores,     count 1
//	t4 share of 600, 10 cores,    count 1 (never fits: 10 > 8 cores)
func tiny(t *testing.T) (*Cluster, *TaskTable) {
	t.Helper()
	c, err := NewCluster([]NodeSpec{{Name: "n0", CPU: 8000, Mem: 1000, GPUs: 4, Model: "A"}, {Name: "n1", CPU: 8000, Mem: 1000, GPUs: 2, Model: "B"}})
	if err != nil {
		t.Fatal(err)
	}
	tt, err := NewTaskTableOf([]TaskType{
		{Demand{CPU: 1000}, 2},
		{Demand{CPU: 2000, GPUs: 1, GPUMilli: 300}, 1},
		{Demand{CPU: 4000, GPUs: 2, GPUMilli: 1000}, 1},
		{Demand{CPU: 10000, GPUs: 1, GPUMilli: 600}, 1},
	})
	if err != nil {
		t.Fatal(err)
	}
	c.SetTaskTable(tt)
	// Bring n0 to [1000, 1000, 500, 200]: a share of 500 on GPU 2 and one
	// of 800 on GPU 3, no CPU.
	must(t, c.Place(0, Demand{GPUs: 1, GPUMilli: 500}, 1<<2))
	must(t, c.Place(0, Demand{GPUs: 1, GPUMilli: 800}, 1<<3))
	return c, tt
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

func TestNodeFragmentationByHand(t *testing.T) {
	c, tt := tiny(t)
	n := &c.Nodes[0]
	// Free GPU 2700 milli. Per type, in milli:
	//   t1 asks no GPU: all 2700 are fragments            → 2 × 2700 = 5400
	//   t2 (300) fits on GPUs 0, 1, 2; GPU 3's 200 < 300    → 1 × 200  =  200
	//   t3 (2 × 1000) fits on GPUs 0, 1; 500 + 200 unusable → 1 × 700  =  700
	//   t4 lacks CPU: all 2700                              → 1 × 2700 = 2700
	// Σ = 9000 count·milli; F = 9000 / 5 / 1000 = 1.8 GPUs.
	if got := tt.NodeFragmentation(n); !near(got, 1.8) {
		t.Errorf("F(n0) = %v, want 1.8", got)
	}
	// n1 (model B, 2 free GPUs, 2000 milli): t1 2×2000, t2 fits (small 0),
	// t3 fits (small 0), t4 lacks CPU 2000 → (4000 + 2000) / 5 / 1000 = 1.2.
	if got := tt.NodeFragmentation(&c.Nodes[1]); !near(got, 1.2) {
		t.Errorf("F(n1) = %v, want 1.2", got)
	}
	if got := c.Fragmentation(); !near(got, 3.0) {
		t.Errorf("cluster F = %v, want 1.8 + 1.2 = 3", got)
	}
	// Free GPU: 2700 + 2000 = 4700 milli; ratio 3000 / 4700.
	if got := c.FragmentationRatio(); !near(got, 3000.0/4700) {
		t.Errorf("ratio = %v, want %v", got, 3000.0/4700)
	}
}

func TestFGDChoosesGPUByHand(t *testing.T) {
	c, tt := tiny(t)
	p, err := New("fgd", Env{Types: tt})
	must(t, err)
	d := Demand{CPU: 2000, GPUs: 1, GPUMilli: 300}
	// On n0, 6 cores left after placing:
	//   GPU 2 (500 → 200): free [1000 1000 200 200] = 2400
	//     t1 2×2400, t2 small 400, t3 small 400, t4 2400 → 8000 (Δ −1000)
	//   GPU 0 (1000 → 700): free [700 1000 500 200] = 2400
	//     t1 4800, t2 small 200, t3 only one whole GPU → 2400, t4 2400 → 9800 (Δ +800)
	//   GPU 1: as GPU 0. GPU 3 (200) cannot take 300.
	delta, g := p.(*fgd).Delta(&c.Nodes[0], d)
	if delta != -1000 || g != 1<<2 {
		t.Errorf("Δ = %d on %v, want −1000 on GPU 2", delta, g.Indices())
	}
	// On n1 (B, [1000 1000]): GPU 0 → [700 1000], 6 cores: t1 2×1700,
	// t2 small 0, t3 only one whole → 1700, t4 1700 → 6800; before 6000: Δ +800.
	delta, g = p.(*fgd).Delta(&c.Nodes[1], d)
	if delta != 800 || g != 1 {
		t.Errorf("n1: Δ = %d on %v, want +800 on GPU 0", delta, g.Indices())
	}
	// Score: sigmoid(−Δ) with Δ = −1000 / 5 / 1000 = −0.2 GPU.
	s, _, ok := p.Score(&c.Nodes[0], d)
	if !ok || !near(s, 1/(1+math.Exp(-0.2))) {
		t.Errorf("score %v, want sigmoid(0.2)", s)
	}
	node, g, ok, err := c.Schedule(p, d, nil)
	must(t, err)
	if !ok || node != 0 || g != 1<<2 {
		t.Errorf("placed on node %d GPUs %v, want n0 GPU 2", node, g.Indices())
	}
	if got := c.Fragmentation(); !near(got, 1.6+1.2) {
		t.Errorf("cluster F after = %v, want 1.6 + 1.2", got)
	}
	must(t, c.Check())
}

func TestModelConstraintInFragmentation(t *testing.T) {
	c, _ := tiny(t)
	a := c.Catalog.Set([]string{"A"})
	tt, err := NewTaskTableOf([]TaskType{{Demand{GPUs: 1, GPUMilli: 500, Models: a}, 1}})
	must(t, err)
	// n1 is model B: an A-only task can use none of its 2000 milli.
	if got := tt.NodeFragmentation(&c.Nodes[1]); !near(got, 2) {
		t.Errorf("F(n1) = %v, want 2", got)
	}
	// n0 is A: GPUs 0, 1 (1000) and 2 (500) fit 500; GPU 3's 200 is a fragment.
	if got := tt.NodeFragmentation(&c.Nodes[0]); !near(got, 0.2) {
		t.Errorf("F(n0) = %v, want 0.2", got)
	}
	if c.Nodes[1].Fits(Demand{GPUs: 1, GPUMilli: 100, Models: a}) {
		t.Error("an A-only task fits a B node")
	}
	if c.Nodes[1].Fits(Demand{GPUs: 1, GPUMilli: 100, Models: c.Catalog.Set([]string{"Z"})}) {
		t.Error("a task asking only for an unknown model fits")
	}
}

func TestTaskTablePopularity(t *testing.T) {
	var w []Demand
	add := func(d Demand, n int) {
		for i := 0; i < n; i++ {
			w = append(w, d)
		}
	}
	add(Demand{CPU: 1000, Mem: 5}, 5) // memory is not part of a type:
	add(Demand{CPU: 1000, Mem: 9}, 1) // these 6 are one type
	add(Demand{CPU: 2000, GPUs: 1, GPUMilli: 500}, 3)
	add(Demand{CPU: 4000, GPUs: 8, GPUMilli: 1000}, 1)
	// 10 tasks; 80% needs 8: types of 6 and 3 (cumulative 9 ≥ 8).
	tt, err := NewTaskTable(w, 0.8)
	must(t, err)
	if len(tt.Types) != 2 || tt.Total != 9 || tt.Types[0].Count != 6 || tt.Types[1].GPUMilli != 500 {
		t.Errorf("table %+v", tt.Types)
	}
	if !near(tt.Popularity(0), 6.0/9) {
		t.Errorf("popularity %v", tt.Popularity(0))
	}
}
