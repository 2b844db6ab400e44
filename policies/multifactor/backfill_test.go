package multifactor

import (
	"fmt"
	"testing"

	"github.com/schedsim/schedsim/policies"
)

// Only the QOS weighs: b (QOS high) goes before a, c and d, which keep
// submit order among themselves. Cluster 4 nodes × 8 cpus; every task
// takes a whole node.
//
//	r0  t=0  3 nodes, walltime 100
//	a   t=1  4 nodes, 50 s
//	b   t=2  2 nodes, 50 s, QOS high
//	c   t=3  1 node,  50 s
//	d   t=4  1 node,  200 s
var qosConfig = Config{Weights: Weights{QOS: 1000}, QOSPriorities: map[string]int64{"high": 1}}

var qosJobs = []job{
	{id: "r0", submit: 0, runtime: 100, tasks: 3, cpus: 8},
	{id: "a", submit: 1, runtime: 50, tasks: 4, cpus: 8},
	{id: "b", submit: 2, runtime: 50, tasks: 2, cpus: 8, qos: "high"},
	{id: "c", submit: 3, runtime: 50, tasks: 1, cpus: 8},
	{id: "d", submit: 4, runtime: 200, tasks: 1, cpus: 8},
}

// EASY on the multifactor queue:
//
//	t=2  queue b, a: b is the head; it needs 2 nodes, 1 is free: it holds
//	     a reservation at t=100 (r0's expected end) on n0, n1.
//	t=3  c (1 node, ends by 53 < 100) backfills on n3.
//	t=4  d finds no free node.
//	t=53 c ends; queue b, a, d: d runs past the shadow but on n3, which
//	     b's reservation leaves alone: it starts.
//	t=100 r0 ends: b starts on n0, n1; a needs 4 nodes: n3 is d's until 253.
//	t=253 a starts.
//
// Under FCFS a would be the head and hold all four nodes from t=100: b
// would start only at 150.
func TestEASYOnMultifactor(t *testing.T) {
	_, rec := play(t, cluster(t, 4), qosConfig, policies.EASY, qosJobs, nil)
	if got, want := rec.summary("r0", "a", "b", "c", "d"), "r0: 0 a: 253 b: 100 c: 3 d: 53"; got != want {
		t.Errorf("starts: got %q, want %q", got, want)
	}
	if got := fmt.Sprint(rec.nodes["b"], rec.nodes["d"]); got != "[0 1] [3]" {
		t.Errorf("nodes of b and d: got %s, want [0 1] [3]", got)
	}
}

// No backfilling: the queue head blocks everyone behind it.
//
//	t=2..99  b heads the queue and does not fit (1 node free): nothing starts,
//	         not even c.
//	t=100 b starts on n0, n1; a (4 nodes) blocks.
//	t=150 b ends: a starts. t=200: c and d start.
func TestNoBackfillOnMultifactor(t *testing.T) {
	_, rec := play(t, cluster(t, 4), qosConfig, policies.NoBackfill, qosJobs, nil)
	if got, want := rec.summary("r0", "a", "b", "c", "d"), "r0: 0 a: 150 b: 100 c: 200 d: 200"; got != want {
		t.Errorf("starts: got %q, want %q", got, want)
	}
}

// Conservative backfilling: jobs reserve on arrival, those arriving
// together in queue order, and reservations are compressed in queue order
// whenever a job ends. Same QOS weights; r0 (3 nodes) runs 60 s of its
// walltime 100; a (4 nodes, 50 s), b (4 nodes, 50 s, QOS high) and c
// (1 node, 200 s) arrive together at t=1, queued b, a, c.
//
//	t=1  b reserves [100, 150) on all nodes, a [150, 200); c (200 s) does
//	     not fit n3 before 100 and reserves [200, 400).
//	t=60 r0 ends early; compression in queue order: b moves to [60, 110)
//	     and starts, a to [110, 160), c to [160, 360).
//
// Under FCFS a would take the first slot and b the second.
func TestConservativeOnMultifactor(t *testing.T) {
	jobs := []job{
		{id: "r0", submit: 0, runtime: 60, walltime: 100, tasks: 3, cpus: 8},
		{id: "a", submit: 1, runtime: 50, tasks: 4, cpus: 8},
		{id: "b", submit: 1, runtime: 50, tasks: 4, cpus: 8, qos: "high"},
		{id: "c", submit: 1, runtime: 200, tasks: 1, cpus: 8},
	}
	_, rec := play(t, cluster(t, 4), qosConfig, policies.Conservative, jobs, nil)
	if got, want := rec.summary("r0", "a", "b", "c"), "r0: 0 a: 110 b: 60 c: 160"; got != want {
		t.Errorf("starts: got %q, want %q", got, want)
	}
}

// A busier run: 60 jobs of three accounts with fair-share, age, size and
// QOS all weighing, under each backfill. The engine's invariant checker
// passes, every job ends, and the run is deterministic.
func TestEveryBackfillRunsTheMix(t *testing.T) {
	cfg := Config{
		Weights:        Weights{Age: 1000, FairShare: 5000, JobSize: 500, QOS: 800},
		MaxAgeS:        seconds(3600),
		DecayHalfLifeS: seconds(1800),
		Shares:         map[string]float64{"A": 5, "B": 3, "C": 2},
		QOSPriorities:  map[string]int64{"normal": 1, "high": 4},
	}
	var jobs []job
	accounts := []string{"A", "A", "B", "C", "A"}
	for i := range 60 {
		jobs = append(jobs, job{
			id: fmt.Sprintf("j%02d", i), submit: float64(i * 37 % 600), runtime: float64(30 + i*53%400),
			walltime: float64(60 + i*53%400 + i%3*100), tasks: 1 + i*7%4, cpus: int64(2 + i*5%7),
			account: accounts[i%len(accounts)], qos: []string{"normal", "high"}[i%5/4],
		})
	}
	// Submit order for the engine.
	for i := 1; i < len(jobs); i++ {
		for k := i; k > 0 && jobs[k].submit < jobs[k-1].submit; k-- {
			jobs[k], jobs[k-1] = jobs[k-1], jobs[k]
		}
	}
	for _, b := range []policies.Backfill{policies.NoBackfill, policies.EASY, policies.Conservative} {
		_, first := play(t, cluster(t, 6), cfg, b, jobs, nil)
		_, second := play(t, cluster(t, 6), cfg, b, jobs, nil)
		if fmt.Sprint(first.at) != fmt.Sprint(second.at) {
			t.Errorf("%s: two runs differ", b)
		}
	}
}
