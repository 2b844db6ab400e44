package conservative

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

// workload is a random cluster and job stream for the reference check.
type workload struct {
	nodes []sim.NodeSpec
	jobs  []*sim.Job
}

// resourceNames are the resources a workload's nodes offer, in order.
var resourceNames = []string{"cpu", "mem", "gpu"}

// randomWorkload draws numNodes nodes offering numRes resources, each 1 to
// maxPerNode units (so several tasks share a node), and numJobs jobs:
// bursts of arrivals, coarse times (so that ends and starts coincide),
// some jobs of zero runtime, most ending well before their walltime, each
// task asking for some of every node's least amount of the first resource
// and of some others, and no more tasks than the empty cluster holds.
func randomWorkload(seed uint64, numNodes, numRes, maxPerNode, numJobs int) workload {
	rng := rand.New(rand.NewPCG(seed, 7))
	var w workload
	least := make([]int64, numRes)
	caps := make([][]int64, numNodes)
	for n := range numNodes {
		spec := sim.NodeSpec{Name: fmt.Sprintf("h%d", n)}
		for r := range numRes {
			c := 1 + rng.Int64N(int64(maxPerNode))
			caps[n] = append(caps[n], c)
			if n == 0 || c < least[r] {
				least[r] = c
			}
			spec.Capacity = append(spec.Capacity, sim.Quantity{Resource: resourceNames[r], Amount: sim.Units(c)})
		}
		w.nodes = append(w.nodes, spec)
	}
	submit := sim.Time(0)
	for i := range numJobs {
		if rng.IntN(3) == 0 {
			submit += sim.Time(rng.IntN(40))
		}
		wall := sim.Time(1 + rng.IntN(100))
		run := wall
		switch rng.IntN(4) {
		case 0:
			run = 0
		case 1, 2:
			run = sim.Time(rng.IntN(int(wall) + 1))
		}
		amounts := make([]int64, numRes)
		var request []sim.Quantity
		for r := range numRes {
			if r == 0 || rng.IntN(2) == 0 {
				amounts[r] = 1 + rng.Int64N(least[r])
				request = append(request, sim.Quantity{Resource: resourceNames[r], Amount: sim.Units(amounts[r])})
			}
		}
		holds := 0 // tasks the empty cluster holds
		for _, c := range caps {
			most := int64(1 << 30)
			for r, a := range amounts {
				if a > 0 {
					most = min(most, c[r]/a)
				}
			}
			holds += int(most)
		}
		tasks := 1 + rng.IntN(holds)
		if rng.IntN(2) == 0 {
			tasks = min(tasks, 1+rng.IntN(2))
		}
		w.jobs = append(w.jobs, &sim.Job{ID: fmt.Sprint(i), Submit: submit * sim.Second, Runtime: run * sim.Second,
			Walltime: wall * sim.Second, Tasks: tasks, Request: request})
	}
	return w
}

// FuzzConservativeReference replays a random workload through the
// scheduler and through reference: every job must start at the same time
// on the same nodes. The inputs choose the workload (seed; nodes+1 nodes,
// resources+1 resources, up to perNode+1 units of each per node, jobs+1
// jobs), the rule, the planning delay in seconds, and whether the summary
// index serves from two timelines on (real clusters build it from
// hundreds).
func FuzzConservativeReference(f *testing.F) {
	for seed := range uint64(8) {
		repick, delay, indexed := seed%2 == 0, uint8(5*(seed/2%2)), seed%4 < 2
		f.Add(seed, uint8(11), uint8(0), uint8(0), uint8(119), repick, delay, indexed) // 12 one-cpu nodes
		f.Add(seed, uint8(0), uint8(0), uint8(15), uint8(99), !repick, delay, false)   // the pool: one node
		f.Add(seed, uint8(5), uint8(0), uint8(3), uint8(99), repick, delay, indexed)   // several tasks a node
		f.Add(seed, uint8(4), uint8(2), uint8(2), uint8(79), !repick, delay, !indexed) // three resources
		f.Add(seed, uint8(9), uint8(1), uint8(7), uint8(79), repick, delay, !indexed)  // two resources
	}
	f.Fuzz(func(t *testing.T, seed uint64, nodes, resources, perNode, jobs uint8, repick bool, delay uint8, indexed bool) {
		numNodes := 1 + int(nodes)%16
		numRes := 1 + int(resources)%len(resourceNames)
		w := randomWorkload(seed, numNodes, numRes, 1+int(perNode)%16, 1+int(jobs)%150)
		cfg := Config{Repick: repick, PlanningDelay: sim.Time(delay%10) * sim.Second}
		indexFrom := defaultIndexFrom
		if indexed {
			indexFrom = 2
		}
		cluster := func() *sim.Cluster {
			c, err := sim.NewCluster(w.nodes)
			if err != nil {
				t.Fatal(err)
			}
			return c
		}
		got := replayIndexed(t, cluster(), w.jobs, cfg, indexFrom)
		// The engine owns the jobs it replays: the reference gets fresh ones.
		w2 := randomWorkload(seed, numNodes, numRes, 1+int(perNode)%16, 1+int(jobs)%150)
		ref := &reference{repick: cfg.Repick, delay: cfg.PlanningDelay, res: map[*sim.JobRun]*refSlot{}}
		want := &reservationLog{}
		if err := sim.NewEngine(cluster(), &sim.SliceSource{Jobs: w2.jobs}, ref, sim.Config{KillAtWalltime: true}, want).Run(); err != nil {
			t.Fatal(err)
		}
		sameStarts(t, got, want)
	})
}
