package lattice

import (
	"fmt"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/policies"
	"github.com/schedsim/schedsim/sim"
)

func racks(perRack int) func(i int) map[string]string {
	return func(i int) map[string]string { return map[string]string{"rack": fmt.Sprintf("r%d", i/perRack)} }
}

// Topology: 8 nodes in racks r0 = n0–n3 and r1 = n4–n7. P (1 task) takes
// n0 (both racks hold 4: tie to r0, its lowest node). J needs 4: free are
// n1–n3 (3 in r0) and n4–n7 (4 in r1). First fit takes n1, n2, n3, n4,
// spanning both racks; the lattice selector needs only one group and
// takes r1 whole.
func TestTopologyKeepsOneGroup(t *testing.T) {
	cl := nodesCluster(t, 8, racks(4))
	jobs := func() []*sim.Job { return []*sim.Job{job("P", 0, 100, 1), job("J", 1, 50, 4)} }
	out := run(t, cl, Config{}, jobs()...)
	if got := fmt.Sprint(out["P"].nodes, out["J"].nodes); got != "[0] [4 5 6 7]" {
		t.Errorf("lattice: P, J on %s, want [0] [4 5 6 7]", got)
	}
	ff, _ := policies.NewBatch(policies.EASY)
	base := runWith(t, cl, ff, jobs()...)
	if got := fmt.Sprint(base["J"].nodes); got != "[1 2 3 4]" {
		t.Errorf("first fit: J on %s, want [1 2 3 4] (two racks)", got)
	}
	// f₄ as the seed defines it, for J at t=1: groups with room r0 (3)
	// and r1 (4): needs 1 of 2 available → 1 − 1/2 = 0.5.
	s, _ := New(cl, Config{})
	probe := &rankProbe{Scheduler: s, at: secs(1)}
	runWith(t, cl, probe, jobs()...)
	if len(probe.seen) != 1 {
		t.Fatalf("ranking at 1: %v", probe.seen)
	}
	near(t, "f4(J)", probe.seen[0].Factors[FTopology], 0.5)
	// f₉ with no fingerprints: one group of 7 free slots ≥ 4 → 1.
	near(t, "f9(J)", probe.seen[0].Factors[FConformance], 1)
}

// A job spanning groups takes the fewest: 3 racks of 2 nodes, J needs 3 →
// one whole rack plus one node of another (2 groups, not 3).
func TestTopologyFewestGroups(t *testing.T) {
	cl := nodesCluster(t, 6, racks(2))
	out := run(t, cl, Config{}, job("J", 0, 10, 3))
	s, _ := New(cl, Config{})
	if got := s.sel.groupsUsed(out["J"].nodes); got != 2 {
		t.Errorf("J on %v uses %d racks, want 2", out["J"].nodes, got)
	}
}

// Conformance: fingerprints A on n0–n2, B on n3. P takes n0 (the largest
// conformance group, its lowest node). J needs 3 at t=1: free n1, n2 (A)
// and n3 (B), no single group holds 3. Under the default profile J starts
// at once on the mixed set; under sensitive (queue "secure") the set is
// refused and J waits for P's end at 100, then takes n0–n2. K (sensitive,
// 4 nodes) can never be conformant: rejected.
func TestSensitiveRefusesNonConformant(t *testing.T) {
	fp := func(i int) map[string]string {
		if i < 3 {
			return map[string]string{"conformance": "A"}
		}
		return map[string]string{"conformance": "B"}
	}
	cl := nodesCluster(t, 4, fp)
	jobs := func(queue string) []*sim.Job {
		p, j := job("P", 0, 100, 1), job("J", 1, 10, 3)
		j.Queue = queue
		return []*sim.Job{p, j}
	}
	out := run(t, cl, Config{}, jobs("batch")...)
	if got := fmt.Sprint(out["P"].nodes, out["J"].start, out["J"].nodes); got != "[0] 1 [1 2 3]" {
		t.Errorf("default: P, J: %s, want [0] 1 [1 2 3]", got)
	}
	ps, err := NamedProfiles("default", map[string]string{"secure": "sensitive"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	k := job("K", 2, 10, 4)
	k.Queue = "secure"
	out = run(t, cl, Config{Profiles: ps}, append(jobs("secure"), k)...)
	if got := fmt.Sprint(out["J"].start, out["J"].nodes); got != "100 [0 1 2]" {
		t.Errorf("sensitive: J: %s, want 100 [0 1 2]", got)
	}
	if o := out["K"]; o.status != sim.Rejected || !strings.Contains(o.reason, "no conformance group") {
		t.Errorf("K: %v, want rejected for conformance", o)
	}
}

// Power: two nodes of 1 cpu, idle 100 W, max 300 W each; budget 0.45 kW.
// Idle draw 200 W. A (1 task) adds 300 − 100 = 200 W → 400 W ≤ 450. B
// would add 200 W more → 600 W > 450: B waits for A's end at 100 though a
// node is free. C (2 tasks) adds 400 W → 600 W even on the idle cluster:
// rejected.
func TestPowerBudgetDelays(t *testing.T) {
	specs := []sim.NodeSpec{}
	for i := 0; i < 2; i++ {
		specs = append(specs, sim.NodeSpec{Name: fmt.Sprintf("n%d", i), Capacity: []sim.Quantity{{Resource: "cpu", Amount: sim.Units(1)}},
			Power: sim.PowerModel{IdleW: 100, MaxW: 300}})
	}
	cl, err := sim.NewCluster(specs)
	if err != nil {
		t.Fatal(err)
	}
	a, b, c := job("A", 0, 100, 1), job("B", 0, 50, 1), job("C", 0, 10, 2)
	out := run(t, cl, Config{PowerBudgetW: 450}, a, b, c)
	if out["A"].start != 0 || out["B"].start != secs(100) {
		t.Errorf("A %v, B %v: want B delayed to 100 by the budget", out["A"], out["B"])
	}
	if o := out["C"]; o.status != sim.Rejected || !strings.Contains(o.reason, "power budget") {
		t.Errorf("C: %v, want rejected for power", o)
	}
	// Without a budget B starts at once.
	out = run(t, cl, Config{}, job("A", 0, 100, 1), job("B", 0, 50, 1))
	if out["B"].start != 0 {
		t.Errorf("no budget: B %v", out["B"])
	}
}

// Backfill never delays the reservation. Six nodes; L holds n0, n1 until
// 100. H (priority 10, the best score) needs all six: it reserves them at
// 100. S (2 nodes, 50 s) ends before 100 and backfills at once. T (2
// nodes, 200 s) would run past 100 on reserved nodes: it waits for H to
// end (100 + 30 = 130).
func TestBackfillRespectsReservation(t *testing.T) {
	cl := nodesCluster(t, 6, nil)
	h := job("H", 1, 30, 6)
	h.Priority = 10
	out := run(t, cl, Config{}, job("L", 0, 100, 2), h, job("S", 1, 50, 2), job("T", 1, 200, 2))
	if out["H"].start != secs(100) || out["S"].start != secs(1) || out["T"].start != secs(130) {
		t.Errorf("H %v\nS %v\nT %v\nwant H 100, S 1, T 130", out["H"], out["S"], out["T"])
	}
	// Without backfilling S waits behind H too.
	out = run(t, cl, Config{NoBackfill: true}, job("L", 0, 100, 2), h, job("S", 1, 50, 2))
	if out["S"].start != secs(130) {
		t.Errorf("no backfill: S %v, want 130", out["S"])
	}
}

// Cycle mode decides only at multiples of the cycle; event mode at once.
func TestCycleMode(t *testing.T) {
	cl := nodesCluster(t, 2, nil)
	out := run(t, cl, Config{Cycle: secs(30)}, job("A", 10, 5, 1), job("B", 31, 100, 2), job("C", 40, 5, 1))
	// A waits for the tick at 30; B arrives at 31, starts at 60; C (40)
	// finds both nodes taken until 160, starts at the tick 180.
	if out["A"].start != secs(30) || out["B"].start != secs(60) || out["C"].start != secs(180) {
		t.Errorf("A %v\nB %v\nC %v", out["A"], out["B"], out["C"])
	}
	out = run(t, cl, Config{}, job("A", 10, 5, 1))
	if out["A"].start != secs(10) {
		t.Errorf("event mode: A %v", out["A"])
	}
}
