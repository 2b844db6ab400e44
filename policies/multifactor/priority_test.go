package multifactor

import (
	"math"
	"testing"

	"github.com/schedsim/schedsim/policies"
	"github.com/schedsim/schedsim/sim"
)

// passSpy records the queue order and every queued job's factors at the
// pass at time at, then lets the batch scheduler run.
type passSpy struct {
	o       *Order
	inner   sim.Scheduler
	at      sim.Time
	order   []string
	factors map[string]Factors
}

func (s *passSpy) Schedule(c *sim.Context) error {
	if c.Now() == s.at {
		for _, j := range c.Queue() {
			s.order = append(s.order, j.Job.ID)
			s.factors[j.Job.ID] = s.o.Factors(j)
		}
	}
	return s.inner.Schedule(c)
}

// The worked example. Cluster: 4 nodes × 8 cpus, so N = 4, C = 32.
//
//	weights: age 1000, fairshare 2000, job_size 500, partition 300, qos 400
//	PriorityMaxAge 800 s, PriorityDecayHalfLife 400 s
//	shares: A 1, B 3 (C is not listed: 1 share)
//	partitions: batch 1, debug 4 (highest 4)      QOS: normal 0, high 10 (highest 10)
//
// r1 (account A, 4 tasks × 8 cpus) runs alone over [0, 400); q1…q4 wait
// for it. At the pass at t = 400:
//
//	usage: only A ran, 32 cpus for 400 s: U_A = 32·400/ln 2·(1 − 2^(−400/400)),
//	       the total is the same, so A's normalised usage is 1, B's and C's 0.
//	shares: A, B, C known: Σ = 1 + 3 + 1 = 5; S_A = 0.2, S_B = 0.6, S_C = 0.2.
//	F_A = 2^(−1/0.2) = 2^−5 = 0.03125; F_B = F_C = 2^0 = 1.
//
//	job  acct part  qos    submit  A=wait/800    Z (n/4 + c/32)/2       T     Q
//	q1   A    batch normal   0     400/800=0.5   (1/4 + 8/32)/2  = 0.25  0.25  0
//	q2   B    debug normal 200     200/800=0.25  (2/4 + 16/32)/2 = 0.5   1     0
//	q3   B    batch high   300     100/800=0.125 (4/4 + 32/32)/2 = 1     0.25  1
//	q4   C    batch normal 350      50/800=0.0625 (1/4 + 4/32)/2 = 0.1875 0.25 0
//
// (q4's single task of 4 cpus: two fit a node, so n = 1.)
//
//	P(q1) = 1000·0.5    + 2000·0.03125 + 500·0.25   + 300·0.25 + 400·0 = 762.5  → 762
//	P(q2) = 1000·0.25   + 2000·1       + 500·0.5    + 300·1    + 400·0 = 2800
//	P(q3) = 1000·0.125  + 2000·1       + 500·1      + 300·0.25 + 400·1 = 3100
//	P(q4) = 1000·0.0625 + 2000·1       + 500·0.1875 + 300·0.25 + 400·0 = 2231.25 → 2231
//
// so the queue is q3, q2, q4, q1 (FCFS would be q1, q2, q3, q4). Under
// EASY q3 (the whole cluster) starts at 400 and runs to 800; then q2 and
// q4 fit together and start at 800, and q1 fits beside them.
var workedConfig = Config{
	Weights:             Weights{Age: 1000, FairShare: 2000, JobSize: 500, Partition: 300, QOS: 400},
	MaxAgeS:             seconds(800),
	DecayHalfLifeS:      seconds(400),
	Shares:              map[string]float64{"A": 1, "B": 3},
	PartitionPriorities: map[string]int64{"batch": 1, "debug": 4},
	QOSPriorities:       map[string]int64{"normal": 0, "high": 10},
}

var workedJobs = []job{
	{id: "r1", submit: 0, runtime: 400, tasks: 4, cpus: 8, account: "A", partition: "batch", qos: "normal"},
	{id: "q1", submit: 0, runtime: 100, tasks: 1, cpus: 8, account: "A", partition: "batch", qos: "normal"},
	{id: "q2", submit: 200, runtime: 100, tasks: 2, cpus: 8, account: "B", partition: "debug", qos: "normal"},
	{id: "q3", submit: 300, runtime: 400, tasks: 4, cpus: 8, account: "B", partition: "batch", qos: "high"},
	{id: "q4", submit: 350, runtime: 100, tasks: 1, cpus: 4, account: "C", partition: "batch", qos: "normal"},
}

func TestWorkedExample(t *testing.T) {
	var spy *passSpy
	_, rec := play(t, cluster(t, 4), workedConfig, policies.EASY, workedJobs, func(o *Order, inner sim.Scheduler) sim.Scheduler {
		spy = &passSpy{o: o, inner: inner, at: 400 * sim.Second, factors: map[string]Factors{}}
		return spy
	})
	want := map[string]Factors{
		"q1": {Age: 0.5, FairShare: 0.03125, JobSize: 0.25, Partition: 0.25, QOS: 0, Sum: 762.5, Priority: 762},
		"q2": {Age: 0.25, FairShare: 1, JobSize: 0.5, Partition: 1, QOS: 0, Sum: 2800, Priority: 2800},
		"q3": {Age: 0.125, FairShare: 1, JobSize: 1, Partition: 0.25, QOS: 1, Sum: 3100, Priority: 3100},
		"q4": {Age: 0.0625, FairShare: 1, JobSize: 0.1875, Partition: 0.25, QOS: 0, Sum: 2231.25, Priority: 2231},
	}
	for id, w := range want {
		g := spy.factors[id]
		if !near(g.Age, w.Age) || !near(g.FairShare, w.FairShare) || !near(g.JobSize, w.JobSize) ||
			!near(g.Partition, w.Partition) || !near(g.QOS, w.QOS) || !near(g.Sum, w.Sum) || g.Priority != w.Priority {
			t.Errorf("%s at t=400: got %+v, want %+v", id, g, w)
		}
	}
	if got, want := spy.order, []string{"q3", "q2", "q4", "q1"}; !equal(got, want) {
		t.Errorf("queue at t=400: got %v, want %v", got, want)
	}
	if got, want := rec.summary("r1", "q3", "q2", "q4", "q1"), "r1: 0 q3: 400 q2: 800 q4: 800 q1: 800"; got != want {
		t.Errorf("starts: got %q, want %q", got, want)
	}
}

// Partition PriorityTier comes before the priority: with debug in a
// higher tier, q2 (2800) goes before q3 (3100).
func TestTierBeforePriority(t *testing.T) {
	cfg := workedConfig
	cfg.PartitionTiers = map[string]int64{"batch": 1, "debug": 2}
	var spy *passSpy
	play(t, cluster(t, 4), cfg, policies.NoBackfill, workedJobs, func(o *Order, inner sim.Scheduler) sim.Scheduler {
		spy = &passSpy{o: o, inner: inner, at: 400 * sim.Second, factors: map[string]Factors{}}
		return spy
	})
	if got, want := spy.order, []string{"q2", "q3", "q4", "q1"}; !equal(got, want) {
		t.Errorf("queue at t=400: got %v, want %v", got, want)
	}
	if f := spy.factors["q2"]; f.Tier != 2 || f.Priority != 2800 {
		t.Errorf("q2: tier %d priority %d, want 2 and 2800", f.Tier, f.Priority)
	}
}

// Equal priorities fall back to submit order, then arrival; all weights 0
// gives every job priority 1, Slurm's floor, and so FCFS.
func TestTiesBySubmitOrder(t *testing.T) {
	jobs := []job{
		{id: "r", submit: 0, runtime: 10, tasks: 4, cpus: 8, account: "A"},
		{id: "x", submit: 1, runtime: 10, tasks: 4, cpus: 8, account: "B"},
		{id: "y", submit: 1, runtime: 10, tasks: 1, cpus: 8, account: "A"},
		{id: "z", submit: 2, runtime: 10, tasks: 2, cpus: 8, account: "C"},
	}
	var spy *passSpy
	play(t, cluster(t, 4), Config{}, policies.NoBackfill, jobs, func(o *Order, inner sim.Scheduler) sim.Scheduler {
		spy = &passSpy{o: o, inner: inner, at: 2 * sim.Second, factors: map[string]Factors{}}
		return spy
	})
	if got, want := spy.order, []string{"x", "y", "z"}; !equal(got, want) {
		t.Errorf("queue at t=2: got %v, want %v", got, want)
	}
	for id, f := range spy.factors {
		if f.Priority != 1 {
			t.Errorf("%s: priority %d with every weight 0, want 1", id, f.Priority)
		}
	}
}

// PriorityFavorSmall inverts the size factor: on 4 nodes × 8 cpus a
// 1-node, 8-cpu job gets ((4−1)/4 + (32−8)/32)/2 = 0.75 and the whole
// cluster 0; PriorityMaxAge 0 gives every job an age factor of 1.
func TestFavorSmallAndZeroMaxAge(t *testing.T) {
	cfg := Config{Weights: Weights{JobSize: 1000, Age: 10}, FavorSmall: true, MaxAgeS: seconds(0)}
	jobs := []job{
		{id: "r", submit: 0, runtime: 10, tasks: 4, cpus: 8},
		{id: "big", submit: 1, runtime: 10, tasks: 4, cpus: 8},
		{id: "small", submit: 2, runtime: 10, tasks: 1, cpus: 8},
	}
	var spy *passSpy
	play(t, cluster(t, 4), cfg, policies.NoBackfill, jobs, func(o *Order, inner sim.Scheduler) sim.Scheduler {
		spy = &passSpy{o: o, inner: inner, at: 2 * sim.Second, factors: map[string]Factors{}}
		return spy
	})
	if got, want := spy.order, []string{"small", "big"}; !equal(got, want) {
		t.Errorf("queue: got %v, want %v", got, want)
	}
	if f := spy.factors["small"]; !near(f.JobSize, 0.75) || f.Age != 1 || f.Priority != 760 {
		t.Errorf("small: %+v, want size 0.75, age 1, priority 760", f)
	}
	if f := spy.factors["big"]; f.JobSize != 0 || f.Priority != 10 {
		t.Errorf("big: %+v, want size 0, priority 10", f)
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*max(1, math.Abs(b)) }

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
