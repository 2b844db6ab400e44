package metrics

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

// fragCluster builds nodes with the given capacities (resource order as
// listed) and a tracker whose M is the given shapes.
func fragSetup(t *testing.T, caps [][]sim.Quantity, shapes []struct {
	req   []sim.Quantity
	tasks int64
}) (*fragTracker, *sim.Cluster) {
	t.Helper()
	var specs []sim.NodeSpec
	for i, c := range caps {
		specs = append(specs, sim.NodeSpec{Name: string(rune('a' + i)), Capacity: c})
	}
	c, err := sim.NewCluster(specs)
	if err != nil {
		t.Fatal(err)
	}
	f := newFragTracker(c)
	for _, s := range shapes {
		needs, _, err := c.Compile(&sim.Job{Tasks: 1, Request: s.req})
		if err != nil {
			t.Fatal(err)
		}
		f.count(needs, s.tasks)
	}
	f.rebuild()
	return f, c
}

// measureAll measures every node against free (per node, in the cluster's
// resource order, in units).
func measureAll(f *fragTracker, free [][]int64) {
	var vec []sim.Amount
	for _, row := range free {
		for _, a := range row {
			vec = append(vec, sim.Units(a))
		}
	}
	for n := range free {
		f.measure(n, vec, true)
	}
}

func q(res string, n int64) sim.Quantity { return sim.Quantity{Resource: res, Amount: sim.Units(n)} }

type shape = struct {
	req   []sim.Quantity
	tasks int64
}

// TestFragCPU: M = A {cpu 4} × 3 tasks, B {cpu 2, mem 4} × 1 (A alone,
// 3 of 4 tasks, is under 95%, so both), p_A = 3/4, p_B = 1/4.
//
//	node  free cpu, mem   cpu fragment to   mem fragment to
//	a     3, 16           A (no fit)        A (no fit)
//	b     6, 2            B (no fit)        A (no mem asked), B (no fit)
//	c     0, 16           —                 A, B (no fit)
//
// cpu: (3·3/4 + 6·1/4) / (3 + 6) = 3.75 / 9
// mem: (16·3/4 + 2·4/4 + 16·4/4) / (16 + 2 + 16) = 30 / 34
func TestFragCPU(t *testing.T) {
	caps := [][]sim.Quantity{{q("cpu", 8), q("mem", 16)}, {q("cpu", 8), q("mem", 16)}, {q("cpu", 8), q("mem", 16)}}
	f, c := fragSetup(t, caps, []shape{{[]sim.Quantity{q("cpu", 4)}, 3}, {[]sim.Quantity{q("cpu", 2), q("mem", 4)}, 1}})
	measureAll(f, [][]int64{{3, 16}, {6, 2}, {0, 16}})
	cpuR, _ := c.ResourceIndex("cpu")
	memR, _ := c.ResourceIndex("mem")
	if got := f.ratio(cpuR); !near(got, 3.75/9) {
		t.Errorf("cpu %g, want %g", got, 3.75/9)
	}
	if got := f.ratio(memR); !near(got, 30.0/34) {
		t.Errorf("mem %g, want %g", got, 30.0/34)
	}
	// Node b fills up: its 6 cpus and 2 mem leave the sums.
	// cpu: 2.25 / 3; mem: (12 + 16) / 32.
	measureAll(f, [][]int64{{3, 16}, {0, 0}, {0, 16}})
	if got := f.ratio(cpuR); !near(got, 0.75) {
		t.Errorf("cpu after %g, want 0.75", got)
	}
	if got := f.ratio(memR); !near(got, 28.0/32) {
		t.Errorf("mem after %g, want %g", got, 28.0/32)
	}
}

// Between two rebuilds M keeps its counts: tasks of a known shape counted
// since then change no node's weight, so a node measured later is weighed
// against the same M as the others and the ratio stays a share (≤ 1).
// Before, the shape-by-shape weights read the live counts while the total
// stayed at the rebuild's: TestFragCPU's node b, re-measured after 4 more
// B tasks, weighed its free mem by 8 tasks (A 3 + B 5) of a total of 4.
func TestFragCountsHoldUntilRebuild(t *testing.T) {
	caps := [][]sim.Quantity{{q("cpu", 8), q("mem", 16)}, {q("cpu", 8), q("mem", 16)}, {q("cpu", 8), q("mem", 16)}}
	f, c := fragSetup(t, caps, []shape{{[]sim.Quantity{q("cpu", 4)}, 3}, {[]sim.Quantity{q("cpu", 2), q("mem", 4)}, 1}})
	measureAll(f, [][]int64{{3, 16}, {6, 2}, {0, 16}})
	memR, _ := c.ResourceIndex("mem")
	needsB, _, _ := c.Compile(&sim.Job{Tasks: 1, Request: []sim.Quantity{q("cpu", 2), q("mem", 4)}})
	f.count(needsB, 4)
	vec := []sim.Amount{sim.Units(3), sim.Units(16), sim.Units(6), sim.Units(2), 0, sim.Units(16)}
	f.measure(1, vec, true)
	if got := f.ratio(memR); !near(got, 30.0/34) {
		t.Errorf("mem %g after counting more B tasks without a rebuild, want %g", got, 30.0/34)
	}
	// The rebuild takes them in: p_A = 3/8, p_B = 5/8; mem:
	// (16·3/8 + 2·8/8 + 16·8/8) / 34 = 24 / 34.
	f.rebuild()
	measureAll(f, [][]int64{{3, 16}, {6, 2}, {0, 16}})
	if got := f.ratio(memR); !near(got, 24.0/34) {
		t.Errorf("mem %g after the rebuild, want %g", got, 24.0/34)
	}
}

// TestFragGPU: FGD with whole GPUs (Weng et al., quadrants I, II, IV).
// M = X {cpu 2, gpu 1} × 2, Y {cpu 4} × 1, Z {cpu 2, gpu 4} × 1.
//
//	node a: free cpu 8, gpu 4: X and Z fit and use GPUs; Y asks none: a
//	        fragment to Y only: F_a = 4 GPUs · 1/4 = 1 GPU.
//	node b: free cpu 1, gpu 2: nothing fits (cpu): F_b = 2 · 4/4 = 2 GPUs.
//
// Fragmentation of gpu = (1 + 2) / (4 + 2) = 0.5, the paper's F_n(M)
// summed over nodes and divided by the free GPUs.
func TestFragGPU(t *testing.T) {
	caps := [][]sim.Quantity{{q("cpu", 8), q("gpu", 4)}, {q("cpu", 8), q("gpu", 4)}}
	f, c := fragSetup(t, caps, []shape{
		{[]sim.Quantity{q("cpu", 2), q("gpu", 1)}, 2}, {[]sim.Quantity{q("cpu", 4)}, 1}, {[]sim.Quantity{q("cpu", 2), q("gpu", 4)}, 1}})
	measureAll(f, [][]int64{{8, 4}, {1, 2}})
	g, _ := c.ResourceIndex("gpu")
	if got := f.ratio(g); !near(got, 0.5) {
		t.Errorf("gpu %g, want 0.5", got)
	}
}

// TestFragPopularity: M keeps the most popular shapes covering 95% of the
// tasks: with 19 tasks of {cpu 1} and 1 of {cpu 8}, {cpu 1} alone covers
// 19/20 = 95%, so the big shape is not typical and a node with 7 cpus free
// is not fragmented (single-resource path).
func TestFragPopularity(t *testing.T) {
	f, _ := fragSetup(t, [][]sim.Quantity{{q("cpu", 8)}}, []shape{{[]sim.Quantity{q("cpu", 1)}, 19}, {[]sim.Quantity{q("cpu", 8)}, 1}})
	if len(f.table) != 1 || !f.single.ok {
		t.Fatalf("table %d shapes, single %v", len(f.table), f.single.ok)
	}
	measureAll(f, [][]int64{{7}})
	if got := f.ratio(0); got != 0 {
		t.Errorf("frag %g, want 0", got)
	}
	// 2 tasks of {cpu 4} and 1 of {cpu 2}: with 3 cpus free, {cpu 4}
	// does not fit: 3 · 2/3 / 3 = 2/3.
	f, _ = fragSetup(t, [][]sim.Quantity{{q("cpu", 8)}}, []shape{{[]sim.Quantity{q("cpu", 4)}, 2}, {[]sim.Quantity{q("cpu", 2)}, 1}})
	measureAll(f, [][]int64{{3}})
	if got := f.ratio(0); !near(got, 2.0/3) {
		t.Errorf("frag %g, want 2/3", got)
	}
}

// TestFragReplay: one node of 4 cpus. j1 (3 cpus, 0–10 s), j2 (1 cpu,
// submitted at 5, runs 5–15 s).
//
//	0–5    M = {cpu 3}; 1 cpu free, j1's shape does not fit: frag 1
//	5–10   M = {cpu 3}, {cpu 1} (2 tasks, a power of two): nothing free: null
//	10–15  3 cpus free, both fit: 0
//
// Over the run: ∫ fragmented / ∫ free = (1·5) / (1·5 + 3·5) = 0.25.
func TestFragReplay(t *testing.T) {
	c, err := sim.NewCluster([]sim.NodeSpec{{Name: "a", Capacity: cpu(4)}})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	run(t, dir, c, []*sim.Job{job("1", 0, 10, -1, 1, 3), job("2", 5, 10, -1, 1, 1)}, sim.Config{}, Options{}, FinalInfo{})
	s, err := ReadSummaryCSV(filepath.Join(dir, "summary.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if s["frag_cpu"] != "0.25" {
		t.Errorf("frag_cpu %q, want 0.25", s["frag_cpu"])
	}
	ts := readParquet(t, filepath.Join(dir, "timeseries.parquet"))
	want := []any{1.0, nil, 0.0, 0.0}
	for i, w := range want {
		if got := ts["frag_cpu"][i]; got != w {
			t.Errorf("row %d (t=%v): frag_cpu %v, want %v", i, ts["time_s"][i], got, w)
		}
	}
}

func TestU128(t *testing.T) {
	var x u128
	big := mul128(sim.Amount(math.MaxInt64), math.MaxInt64)
	x.add(big)
	x.add(big)
	x.sub(big)
	if x != big || !near(x.float(), float64(math.MaxInt64)*float64(math.MaxInt64)) {
		t.Errorf("%+v", x)
	}
}
