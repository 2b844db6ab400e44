package gpu

import (
	"reflect"
	"testing"
)

// TestNoOverCommit runs every policy on the testdata subset with several
// seeds and checks, after each run, that no node's CPU, memory or GPU is
// over-committed, that totals and fragmentation agree with the nodes, and
// that replaying the placements on an empty cluster is legal (every placed
// pod fits where it went and its model constraint holds).
func TestNoOverCommit(t *testing.T) {
	e := small(t)
	e.Keep, e.Check = true, true
	for _, ties := range []bool{false, true} {
		e.RandomTies = ties
		for _, name := range Names {
			for seed := uint64(1); seed <= 5; seed++ {
				r, err := e.Run(name, seed)
				if err != nil {
					t.Fatal(err)
				}
				c := e.Cluster.Clone()
				placed := 0
				for i, pl := range r.Placements {
					if pl.Node < 0 {
						continue
					}
					placed++
					d := r.Pods[i]
					n := &c.Nodes[pl.Node]
					if d.GPUs > 0 && !d.Models.Allows(n.ModelID()) {
						t.Fatalf("%s seed %d: pod %d asks %s, placed on %s (%s)", name, seed, i, c.Catalog.Names(d.Models), n.Name, n.Model)
					}
					if err := c.Place(pl.Node, d, pl.GPUs); err != nil {
						t.Fatalf("%s seed %d: replay pod %d: %v", name, seed, i, err)
					}
				}
				must(t, c.Check())
				last := r.Points[len(r.Points)-1]
				if last.Placed != placed || last.AllocGPU != c.GPUAllocated() || last.Pods != len(r.Pods) {
					t.Errorf("%s seed %d: last point %+v, replay placed %d", name, seed, last, placed)
				}
				if len(r.Points) != 131 || r.Points[130].ArrivedPct != 130 {
					t.Errorf("%d points", len(r.Points))
				}
				for k, p := range r.Points {
					if float64(p.ArrivedGPU) > p.ArrivedPct/100*float64(r.Capacity)+1e-6 {
						t.Fatalf("point %d: arrived %d beyond its step", k, p.ArrivedGPU)
					}
				}
			}
		}
	}
}

// TestArrivals: the shuffled, inflated list asks for at most 130% of the
// GPU capacity, and the next draw would have passed it.
func TestArrivals(t *testing.T) {
	e := small(t)
	a := e.Arrivals(7)
	var total int64
	for _, d := range a {
		total += d.TotalGPUMilli()
	}
	target := int64(1.3 * float64(e.Cluster.GPUCapacity()))
	if total > target || len(a) < len(e.Pods) {
		t.Errorf("%d pods asking %d milli, target %d", len(a), total, target)
	}
	if !reflect.DeepEqual(a, e.Arrivals(7)) || reflect.DeepEqual(a, e.Arrivals(8)) {
		t.Error("arrivals do not follow the seed")
	}
	e.Inflation = 0.2 // fewer GPUs than the list asks: pods are dropped
	total = 0
	for _, d := range e.Arrivals(7) {
		total += d.TotalGPUMilli()
	}
	if total > int64(0.2*float64(e.Cluster.GPUCapacity())) {
		t.Errorf("deflated list asks %d", total)
	}
}

// TestDeterministic: the same seeds give the same results, whatever the
// number of workers.
func TestDeterministic(t *testing.T) {
	e := small(t)
	seeds := []uint64{42, 43, 44}
	a, err := e.RunAll(Names, seeds, 1)
	must(t, err)
	b, err := e.RunAll(Names, seeds, 4)
	must(t, err)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("results depend on the number of workers")
	}
	c, err := e.RunAll(Names, seeds, 3)
	must(t, err)
	if !reflect.DeepEqual(a, c) {
		t.Fatal("results differ between two runs")
	}
	if a[0].Policy != "random" || a[0].Seed != 42 || a[len(a)-1].Policy != "fgd" || a[len(a)-1].Seed != 44 {
		t.Error("results not in (policy, seed) order")
	}
}

// BenchmarkFGDDefault is one FGD run of the paper's experiment on the
// default openb trace: 1,213 GPU nodes, 8,152 pods inflated to 130%.
func BenchmarkFGDDefault(b *testing.B) {
	nodes, pods := needShared(b)
	e := loadOpenb(b, nodes, pods)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := e.Run("fgd", 42)
		if err != nil {
			b.Fatal(err)
		}
		p, _ := r.At(130)
		b.ReportMetric(100*r.Alloc(p), "alloc%@130")
		b.ReportMetric(float64(p.Pods), "pods")
	}
}
