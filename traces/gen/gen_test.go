package gen

import (
	"bytes"
	"math"
	"reflect"
	"testing"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/sim/clusterconfig"
	"github.com/schedsim/schedsim/traces/tracetest"
)

// TestSameSeedSameJobs: every model gives the same jobs for the same seed
// and different ones for another seed.
func TestSameSeedSameJobs(t *testing.T) {
	for _, m := range Models {
		gen := func(seed uint64) []*sim.Job {
			g, err := New(m, Options{Jobs: 2000, Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			return tracetest.All(t, g)
		}
		a, b, c := gen(5), gen(5), gen(6)
		if len(a) != 2000 {
			t.Fatalf("%s: %d jobs, want 2000", m, len(a))
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: seed 5 twice gave different jobs", m)
		}
		if reflect.DeepEqual(a, c) {
			t.Errorf("%s: seeds 5 and 6 gave the same jobs", m)
		}
		if a[0].ID != "1" || a[1999].ID != "2000" {
			t.Errorf("%s: ids %q…%q, want 1…2000", m, a[0].ID, a[1999].ID)
		}
	}
}

// TestPoissonMatchesParameters: mean gap, mean ln(runtime) and size shares
// within five standard errors of the parameters.
func TestPoissonMatchesParameters(t *testing.T) {
	const jobs = 100_000
	p := PoissonDefaults()
	g, err := NewPoisson(p, Options{Jobs: jobs, Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	all := tracetest.All(t, g)
	n := float64(jobs)
	// Exponential gaps: sd = mean = 360 s, so the mean of n gaps is within
	// 5 · 360 / √n = 5.7 s of 360 s; the last submit is their sum.
	if gap := all[jobs-1].Submit.Seconds() / n; math.Abs(gap-360) > 5*360/math.Sqrt(n) {
		t.Errorf("mean gap %.2f s, want 360 ± %.2f", gap, 5*360/math.Sqrt(n))
	}
	// ln(runtime) ~ N(ln 1800 = 7.4955, 1.5²): mean within 5 · 1.5 / √n.
	sum := 0.0
	count := map[int]float64{}
	for _, j := range all {
		sum += math.Log(j.Runtime.Seconds())
		count[j.Tasks]++
	}
	if m, want := sum/n, math.Log(1800); math.Abs(m-want) > 5*1.5/math.Sqrt(n) {
		t.Errorf("mean ln(runtime) %.4f, want %.4f ± %.4f", m, want, 5*1.5/math.Sqrt(n))
	}
	// Sizes: weights 40, 15, 15, 15, 10, 5 of 100.
	for _, s := range p.Sizes {
		want := s.Weight / 100
		if got := count[s.Tasks] / n; math.Abs(got-want) > 5*math.Sqrt(want*(1-want)/n) {
			t.Errorf("share of size %d: %.4f, want %.4f", s.Tasks, got, want)
		}
	}
	if len(count) != len(p.Sizes) {
		t.Errorf("sizes drawn %v, want only %v", count, p.Sizes)
	}
}

func TestPoissonRejectsBadParameters(t *testing.T) {
	bad := PoissonDefaults()
	bad.MeanInterarrival = 0
	bad.RuntimeSigma = -1
	bad.Sizes = []SizeWeight{{0, 1}}
	err := bad.Validate()
	if err == nil {
		t.Fatal("want errors")
	}
	for _, want := range []string{"mean inter-arrival", "runtime sigma", "a size must be ≥ 1"} {
		if !bytes.Contains([]byte(err.Error()), []byte(want)) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	if _, err := NewPoisson(PoissonDefaults(), Options{Jobs: 1, Nodes: 16}); err == nil {
		t.Error("size 32 on 16 nodes: want an error")
	}
	if _, err := New("poisson", Options{Jobs: 0}); err == nil {
		t.Error("0 jobs: want an error")
	}
	if _, err := New("nope", Options{Jobs: 1}); err == nil {
		t.Error("unknown model: want an error")
	}
}

// TestGoogleShapes: single tasks, requests within their bounds, priority
// tiers by kind, and the machine mix.
func TestGoogleShapes(t *testing.T) {
	g, err := New("google", Options{Jobs: 50_000, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	high := 0
	users := map[string]int{}
	shapes := map[[2]sim.Amount]bool{}
	for _, j := range tracetest.All(t, g) {
		if j.Tasks != 1 || len(j.Request) != 2 || j.Request[0].Resource != "cpu" || j.Request[1].Resource != "mem" {
			t.Fatalf("job %s: %d tasks of %v, want one task of cpu and mem", j.ID, j.Tasks, j.Request)
		}
		cpu, mem := j.Request[0].Amount, j.Request[1].Amount
		if cpu < 6 || cpu > 250 || mem < 1 || mem > 500 {
			t.Fatalf("job %s: cpu %s mem %s out of [0.006, 0.25] × [0.001, 0.5]", j.ID, cpu, mem)
		}
		shapes[[2]sim.Amount{cpu, mem}] = true
		if j.Priority < 0 || j.Priority > 11 {
			t.Fatalf("job %s: priority %d", j.ID, j.Priority)
		}
		if j.Priority >= 9 {
			high++
		}
		users[j.User]++
	}
	// 8 cpu requests × 5 memory rungs each.
	if len(shapes) > 40 || len(shapes) < 30 {
		t.Errorf("%d task shapes, want at most 8 × 5 = 40 (and nearly all of them in 50,000 tasks)", len(shapes))
	}
	// Service tasks (15%) and only they have priority 9–11.
	if share := float64(high) / 50_000; math.Abs(share-0.15) > 5*math.Sqrt(0.15*0.85/50_000) {
		t.Errorf("share of priority 9–11: %.4f, want 0.15", share)
	}
	// Zipf(1.5, v = 1): P(u0) = 1 / ζ(1.5) over 1000 users ≈ 1/2.55 ≈ 0.39.
	if share := float64(users["u0"]) / 50_000; share < 0.35 || share > 0.43 {
		t.Errorf("share of the heaviest user: %.3f, want ≈ 0.39", share)
	}

	// 12,500 of the trace's 12,583 machines: platform B 0.5/0.5 gets
	// 6732 · 12500 / 12583 = 6687.6 → 6687 or 6688.
	c := g.Cluster()
	if c.Nodes() != 12500 {
		t.Fatalf("cluster has %d machines, want 12500", c.Nodes())
	}
	if n := c.Groups[0].Count; n != 6687 && n != 6688 {
		t.Errorf("platform B 0.5/0.5: %d machines, want 6687 or 6688", n)
	}
}

// TestClusterYAMLReadsBack: the cluster file a generator writes is read by
// sim/clusterconfig into the same nodes and capacities.
func TestClusterYAMLReadsBack(t *testing.T) {
	for _, m := range Models {
		g, err := New(m, Options{Jobs: 1, Nodes: 300})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := g.Cluster().WriteYAML(&buf); err != nil {
			t.Fatal(err)
		}
		specs, err := clusterconfig.Parse(buf.Bytes(), m+".yaml")
		if err != nil {
			t.Fatalf("%s: %v\n%s", m, err, buf.String())
		}
		if len(specs) != 300 {
			t.Errorf("%s: %d nodes read back, want 300", m, len(specs))
		}
		total := map[string]sim.Amount{}
		for _, s := range specs {
			for _, q := range s.Capacity {
				total[q.Resource] += q.Amount
			}
			if s.Power.MaxW != 250 {
				t.Errorf("%s: node %s max power %g, want 250", m, s.Name, s.Power.MaxW)
				break
			}
		}
		for _, q := range g.Cluster().Capacity() {
			if total[q.Resource] != q.Amount {
				t.Errorf("%s: %s capacity %s read back, want %s", m, q.Resource, total[q.Resource], q.Amount)
			}
		}
	}
}
