package lattice

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

func near(t *testing.T, what string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 1e-9 {
		t.Errorf("%s = %.12g, want %.12g", what, got, want)
	}
}

// f₁ = clamp(priority, 0, 10) / 10.
func TestPriorityClass(t *testing.T) {
	near(t, "f1(0)", PriorityClass(0), 0)   // 0/10
	near(t, "f1(7)", PriorityClass(7), 0.7) // 7/10
	near(t, "f1(10)", PriorityClass(10), 1) // 10/10: sensitive claims
	near(t, "f1(42)", PriorityClass(42), 1) // clamped to 10 → 1
	near(t, "f1(-3)", PriorityClass(-3), 0) // clamped to 0
}

// f₂ = ln(1 + wait / reference_wait).
func TestWaitFactor(t *testing.T) {
	h := 3600 * sim.Second
	near(t, "f2(0)", WaitFactor(0, h), 0)                          // ln 1 = 0
	near(t, "f2(1 h)", WaitFactor(h, h), math.Ln2)                 // ln 2 = 0.693147…
	near(t, "f2(3 h)", WaitFactor(3*h, h), math.Log(4))            // ln 4 = 1.386294…
	near(t, "f2(30 min)", WaitFactor(h/2, h), math.Log(1.5))       // ln 1.5 = 0.405465…
	near(t, "f2(1 h, ref 2 h)", WaitFactor(h, 2*h), math.Log(1.5)) // ln(1 + 1/2)
	near(t, "f2(1 h, ref 0)", WaitFactor(h, 0), math.Ln2)          // reference defaults to 1 h
	// Monotone but sub-linear: 10 h is worth ln 11 = 2.398, not 10× 1 h.
	near(t, "f2(10 h)", WaitFactor(10*h, h), math.Log(11))
}

// f₃ = max(0, target − actual) / target.
func TestFairShareDeficit(t *testing.T) {
	near(t, "unused tenant", FairShareDeficit(0.25, 0), 1)        // (0.25 − 0)/0.25
	near(t, "half used", FairShareDeficit(0.4, 0.1), 0.75)        // (0.4 − 0.1)/0.4 = 0.3/0.4
	near(t, "at share", FairShareDeficit(0.3, 0.3), 0)            // 0/0.3
	near(t, "above share", FairShareDeficit(0.2, 0.9), 0)         // max(0, −0.7) = 0
	near(t, "no target", FairShareDeficit(0, 0), 0)               // no contract, no deficit
	near(t, "tiny share", FairShareDeficit(0.05, 0.04), 0.2)      // 0.01/0.05
	near(t, "big share idle", FairShareDeficit(0.7, 0.35), 0.5)   // 0.35/0.7
	near(t, "equal of four", FairShareDeficit(0.25, 0.125), 0.5)  // 0.125/0.25
	near(t, "usage above one", FairShareDeficit(0.25, 1.0), 0.0)  // max(0, −0.75)
	near(t, "share one", FairShareDeficit(1, 0.6), 0.4)           // 0.4/1
	near(t, "share rounding", FairShareDeficit(0.1, 0.05), 0.5)   // 0.05/0.1
	near(t, "share over one", FairShareDeficit(0.5, 0.125), 0.75) // 0.375/0.5
}

// The tracker: usage decays with the half-life and accrues exactly between
// event times; actual = usage / total usage; targets normalised.
func TestFairShareTracker(t *testing.T) {
	h := 100 * sim.Second
	fs, err := NewFairShare(Tenants{Key: ByUser}, NodeSeconds, h, map[string]float64{"a": 3, "b": 1})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "target a", fs.Target("a"), 0.75) // 3/(3+1)
	near(t, "target b", fs.Target("b"), 0.25) // 1/(3+1)
	// Tenant a runs 2 nodes for one half-life, b nothing.
	a := &sim.JobRun{Job: &sim.Job{User: "a", Tasks: 2}, Nodes: []int32{0, 1}}
	fs.Seen(a.Job)
	fs.Seen(&sim.Job{User: "b"})
	fs.rate["a"] += 2 // what Started books: 2 distinct nodes
	fs.jobRate[a] = 2
	fs.Advance(h)
	// U = ρ·H/ln2·(1 − 2^−1) = 2·100/0.693147·0.5 = 144.269504 node-seconds.
	near(t, "usage a after H", fs.Usage("a"), 2*100/math.Ln2*0.5)
	near(t, "actual a", fs.Actual("a"), 1)
	near(t, "deficit a", fs.Deficit("a"), 0) // above its 0.75
	near(t, "deficit b", fs.Deficit("b"), 1) // used nothing
	fs.Stopped(a)
	fs.Advance(2 * h)
	// Idle for one half-life: 144.2695 / 2 = 72.1348.
	near(t, "usage a decayed", fs.Usage("a"), 2*100/math.Ln2*0.25)
	// Without decay usage is plain node-seconds: 2 nodes × 100 s = 200.
	nd, _ := NewFairShare(Tenants{Key: ByUser}, NodeSeconds, 0, nil)
	nd.Seen(a.Job)
	nd.rate["a"] = 2
	nd.Advance(h)
	near(t, "no decay", nd.Usage("a"), 200)
	near(t, "equal share of one", nd.Target("a"), 1)
	// Synthetic tenants: SWF user u17 with 4 buckets is t1 (17 mod 4).
	if got := (Tenants{Key: ByUser, Buckets: 4}).Of(&sim.Job{User: "u17"}); got != "t1" {
		t.Errorf("tenant of u17 mod 4 = %s, want t1", got)
	}
	if got := (Tenants{Key: ByGroup}).Of(&sim.Job{User: "u1", Group: "g2"}); got != "g2" {
		t.Errorf("tenant by group = %s", got)
	}
}

// f₄ = 1 − groups_needed / max_groups_available.
func TestTopologyFitness(t *testing.T) {
	near(t, "one of four", TopologyFitness(1, 4), 0.75)   // 1 − 1/4
	near(t, "two of four", TopologyFitness(2, 4), 0.5)    // 1 − 2/4
	near(t, "all of four", TopologyFitness(4, 4), 0)      // 1 − 4/4
	near(t, "one of one", TopologyFitness(1, 1), 0)       // 1 − 1/1: the seed's formula on one group
	near(t, "none available", TopologyFitness(1, 0), 0)   // nothing to fit in
	near(t, "one of three", TopologyFitness(1, 3), 2.0/3) // 1 − 1/3
	// From capacities: groups holding 4, 3 and 1 tasks (prefix 0,4,7,8).
	cp := capacities{sorted: []int{4, 3, 1}, prefix: []int{0, 4, 7, 8}, confLarge: 3}
	for _, c := range []struct {
		k          int
		topo, conf float64
	}{
		{1, 1 - 1.0/3, 1},       // 1 group of 3; 3 ≥ 1 → f₉ 1
		{4, 1 - 1.0/3, 0.75},    // the 4-group alone; f₉ = 3/4
		{5, 1 - 2.0/3, 0.6},     // 4 + 3 ≥ 5: 2 groups; f₉ = 3/5
		{8, 0, 3.0 / 8},         // all three; f₉ = 3/8
		{9, 0, 3.0 / 9},         // does not fit: needs "all" → 0; f₉ = 3/9
		{2, 1 - 1.0/3, 1},       // the smallest sufficing group is still one
		{7, 1 - 2.0/3, 3.0 / 7}, // 4 + 3
	} {
		topo, conf := cp.factors(c.k)
		near(t, "f4 k="+itoa(c.k), topo, c.topo)
		near(t, "f9 k="+itoa(c.k), conf, c.conf)
	}
}

func itoa(k int) string { return strconv.Itoa(k) }

// f₅ = the data_readiness label, 0.5 when unknown.
func TestDataReadiness(t *testing.T) {
	lab := func(v string) *sim.Job {
		return &sim.Job{Traits: &sim.Traits{Labels: []sim.Label{{Key: LabelDataReadiness, Value: v}}}}
	}
	near(t, "unknown", DataReadiness(&sim.Job{}), 0.5)
	near(t, "0.8 on hot tier", DataReadiness(lab("0.8")), 0.8)
	near(t, "all cold", DataReadiness(lab("0")), 0)
	near(t, "clamped", DataReadiness(lab("1.5")), 1)
	near(t, "unreadable", DataReadiness(lab("hot")), 0.5)
}

// f₆ = min(1, queued / running node-hours).
func TestBacklogPressure(t *testing.T) {
	near(t, "shallow", BacklogPressure(10, 40), 0.25) // 10/40
	near(t, "deep", BacklogPressure(90, 30), 1)       // min(1, 3)
	near(t, "empty queue", BacklogPressure(0, 30), 0) // 0/30
	near(t, "idle cluster", BacklogPressure(5, 0), 1) // x/0 → capped
	near(t, "equal", BacklogPressure(12, 12), 1)      // 12/12
}

// f₇ = 1 − normalised price; normalised over the series' min and max.
func TestEnergyFactor(t *testing.T) {
	ps, err := ReadPrices(strings.NewReader("time_s,price\n0,20\n3600,60\n7200,40\n"))
	if err != nil {
		t.Fatal(err)
	}
	h := 3600 * sim.Second
	near(t, "cheapest", EnergyFactor(ps.Normalised(0)), 1)       // (20−20)/(60−20) = 0 → 1
	near(t, "dearest", EnergyFactor(ps.Normalised(h+1)), 0)      // (60−20)/40 = 1 → 0
	near(t, "middle", EnergyFactor(ps.Normalised(2*h)), 0.5)     // (40−20)/40 = 0.5 → 0.5
	near(t, "after last", EnergyFactor(ps.Normalised(9*h)), 0.5) // last point holds
	near(t, "no prices", EnergyFactor((*PriceSeries)(nil).Normalised(0)), 0.5)
	if _, err := ReadPrices(strings.NewReader("0,1\n0,2\n")); err == nil {
		t.Error("non-increasing times accepted")
	}
}

// f₈ = 1 / (1 + checkpoint_minutes).
func TestCheckpointEfficiency(t *testing.T) {
	lab := func(v string) *sim.Job {
		return &sim.Job{Traits: &sim.Traits{Labels: []sim.Label{{Key: LabelCheckpointMinutes, Value: v}}}}
	}
	near(t, "instant", CheckpointEfficiency(lab("0")), 1)         // 1/(1+0)
	near(t, "4 minutes", CheckpointEfficiency(lab("4")), 0.2)     // 1/(1+4)
	near(t, "1.5 minutes", CheckpointEfficiency(lab("1.5")), 0.4) // 1/2.5
	near(t, "unknown", CheckpointEfficiency(&sim.Job{}), 0)       // 1/(1+∞)
}

// f₉ = largest conformance group / requested nodes, capped at 1.
func TestConformanceFitness(t *testing.T) {
	near(t, "all same", ConformanceFitness(8, 8), 1)      // 8/8
	near(t, "6 of 8", ConformanceFitness(6, 8), 0.75)     // 6/8
	near(t, "larger group", ConformanceFitness(20, 4), 1) // capped
	near(t, "none", ConformanceFitness(0, 4), 0)          // 0/4
	near(t, "1 of 3", ConformanceFitness(1, 3), 1.0/3)
}

// Score = Σ wᵢ·fᵢ, with hpc-batch weights.
func TestScoreSum(t *testing.T) {
	p, _ := Builtin("hpc-batch")
	f := Factors{1, math.Ln2, 0.5, 0.75, 0.5, 1, 0.5, 0.2, 1}
	// 0.15·1 + 0.20·0.693147 + 0.20·0.5 + 0.15·0.75 + 0.10·0.5 + 0.05·1
	// + 0·0.5 + 0.05·0.2 + 0.10·1
	// = 0.15 + 0.138629 + 0.1 + 0.1125 + 0.05 + 0.05 + 0 + 0.01 + 0.1 = 0.711129
	near(t, "score", p.Weights.Score(&f), 0.15+0.2*math.Ln2+0.1+0.1125+0.05+0.05+0.01+0.1)
}
