package placement_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/policies"
	"github.com/schedsim/schedsim/policies/gpu"
	"github.com/schedsim/schedsim/policies/placement"
	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/openb"
)

var gpuStrategies = []string{"fgd", "best-fit", "gpu-packing", "gpu-clustering", "gpu-dot-product", "gpu-random"}

// openbInputs reads the testdata subset of openb.
func openbInputs(t *testing.T) ([]openb.Node, []openb.Pod) {
	t.Helper()
	nodes, _, err := openb.ReadNodes("../../testdata/openb/nodes.csv", traces.Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	pods, _, err := openb.ReadPods("../../testdata/openb/pods.csv", traces.Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	return nodes, pods
}

// podJob is an openb pod as a one-task job: cpu in milli (the Amount of
// cores), mem in MiB, gpu in milli (a share or whole GPUs), the model
// constraint as a selector (one model) or a label (several, which the
// selector filter cannot express), submitted at its creation and running
// until its deletion.
func podJob(p openb.Pod) *sim.Job {
	j := &sim.Job{ID: p.Name, Tasks: 1, Walltime: sim.NoWalltime, Submit: sim.Time(max(0, p.Creation)) * sim.Second,
		Request: []sim.Quantity{{Resource: "cpu", Amount: sim.Amount(p.CPUMilli)}, {Resource: "mem", Amount: sim.Units(p.MemoryMiB)}}}
	if p.Deletion > p.Creation && p.Creation >= 0 {
		j.Runtime = sim.Time(p.Deletion-p.Creation) * sim.Second
	}
	if p.NumGPU > 0 {
		j.Request = append(j.Request, sim.Quantity{Resource: "gpu", Amount: sim.Amount(p.TotalGPUMilli())})
	}
	switch len(p.GPUSpec) {
	case 0:
	case 1:
		j.Traits = &sim.Traits{Selector: []sim.Label{{Key: openb.ModelAttribute, Value: p.GPUSpec[0]}}}
	default:
		j.Traits = &sim.Traits{Labels: []sim.Label{{Key: openb.ModelAttribute, Value: strings.Join(p.GPUSpec, "|")}}}
	}
	return j
}

func TestGPUModelAttributeMatchesOpenb(t *testing.T) {
	// gpufamily.go reads the model from "gpu_model"; openb writes it.
	if openb.ModelAttribute != "gpu_model" {
		t.Fatalf("openb writes the model as %q", openb.ModelAttribute)
	}
}

// twoGPUNodes: t4 (2 T4 GPUs, 8 cores) and v100 (4 V100 GPUs, 8 cores).
func twoGPUNodes(t *testing.T) *sim.Cluster {
	t.Helper()
	c, err := sim.NewCluster([]sim.NodeSpec{
		{Name: "t4", Capacity: []sim.Quantity{{Resource: "cpu", Amount: sim.Units(8)}, {Resource: "mem", Amount: sim.Units(1024)}, {Resource: "gpu", Amount: sim.Units(2)}}, Attributes: map[string]string{"gpu_model": "T4"}},
		{Name: "v100", Capacity: []sim.Quantity{{Resource: "cpu", Amount: sim.Units(8)}, {Resource: "mem", Amount: sim.Units(1024)}, {Resource: "gpu", Amount: sim.Units(4)}}, Attributes: map[string]string{"gpu_model": "V100"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// place runs one job through p on l and returns its nodes and the reason.
func place(t *testing.T, p *placement.Pipeline, l *placement.Ledger, c *sim.Cluster, key int64, j *sim.Job) ([]int32, string) {
	t.Helper()
	need, immune, err := c.Compile(j)
	if err != nil {
		t.Fatal(err)
	}
	p.Stats = &placement.Stats{}
	task := &placement.Task{Key: key, Job: j, Need: need, Immune: immune}
	return p.PlaceJob(l, task, j.Tasks, nil, nil)
}

func gpuJob(gpus string, traits *sim.Traits) *sim.Job {
	a, err := sim.ParseAmount(gpus)
	if err != nil {
		panic(err)
	}
	return &sim.Job{ID: "j", Tasks: 1, Request: []sim.Quantity{{Resource: "cpu", Amount: sim.Units(1)}, {Resource: "gpu", Amount: a}}, Traits: traits}
}

func TestGPUDemandMapping(t *testing.T) {
	c := twoGPUNodes(t)
	for _, tc := range []struct {
		name   string
		job    *sim.Job
		node   string // "" when refused
		reason string // part of the reason when refused
	}{
		{"a share", gpuJob("0.5", nil), "t4", ""}, // best-fit: the node left with the least free GPU
		{"1.5 GPUs", gpuJob("1.5", nil), "", "gpu demand: gpu 1.5: a GPU task asks for a share of one GPU"},
		{"selector", gpuJob("1", &sim.Traits{Selector: []sim.Label{{Key: "gpu_model", Value: "V100"}}}), "v100", ""},
		{"label list", gpuJob("2", &sim.Traits{Labels: []sim.Label{{Key: "gpu_model", Value: "A100|V100"}}}), "v100", ""},
		{"unknown model", gpuJob("1", &sim.Traits{Labels: []sim.Label{{Key: "gpu_model", Value: "A100"}}}), "", "2 gpu devices"},
		{"selector and label disagree", gpuJob("1", &sim.Traits{Selector: []sim.Label{{Key: "gpu_model", Value: "T4"}}, Labels: []sim.Label{{Key: "gpu_model", Value: "V100"}}}), "", "1 gpu devices"},
		{"more GPUs than the node", gpuJob("3", nil), "v100", ""},
	} {
		p, err := placement.Build(c, placement.Spec{Strategy: "best-fit"})
		if err != nil {
			t.Fatal(err)
		}
		l := placement.NewLedger(c)
		nodes, reason := place(t, p, l, c, 0, tc.job)
		got := ""
		if nodes != nil {
			got = c.Nodes[nodes[0]].Name
		}
		if got != tc.node || (tc.node == "" && !strings.Contains(reason, tc.reason)) {
			t.Errorf("%s: placed on %q (%s), want %q %s", tc.name, got, reason, tc.node, tc.reason)
		}
	}
}

// TestGPUDevicesStricterThanScalar: the engine sees 2000 milli-GPU on t4;
// two shares of 600 leave 800 in total, which a share of 500 fits as a
// scalar but not GPU by GPU (400 free on each). Releasing one share gives
// its GPU back.
func TestGPUDevicesStricterThanScalar(t *testing.T) {
	c := twoGPUNodes(t)
	t4only := &sim.Traits{Selector: []sim.Label{{Key: "gpu_model", Value: "T4"}}}
	for _, name := range gpuStrategies {
		p, err := placement.Build(c, placement.Spec{Strategy: name, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		l := placement.NewLedger(c)
		a, b := gpuJob("0.6", t4only), gpuJob("0.6", t4only)
		if n, r := place(t, p, l, c, 0, a); n == nil {
			t.Fatalf("%s: first share refused: %s", name, r)
		}
		if n, r := place(t, p, l, c, 1, b); n == nil {
			t.Fatalf("%s: second share refused: %s", name, r)
		}
		if l.Cluster.TasksFitting(l.Free, 0, mustNeed(t, c, gpuJob("0.5", t4only)), nil, 1) != 1 {
			t.Fatalf("%s: the scalar check should fit 500 in 800", name)
		}
		n, reason := place(t, p, l, c, 2, gpuJob("0.5", t4only))
		if n != nil || reason != "0/2 nodes: 1 gpu devices, 1 selector" && reason != "0/2 nodes: 1 selector, 1 gpu devices" {
			t.Errorf("%s: a share of 500 placed on %v (%s), want gpu devices to refuse t4", name, n, reason)
		}
		l.Release(&placement.Task{Key: 0, Job: a, Need: mustNeed(t, c, a)})
		if n, r := place(t, p, l, c, 2, gpuJob("0.5", t4only)); n == nil {
			t.Errorf("%s: after a release, a share of 500 still refused: %s", name, r)
		}
		for _, g := range placement.GPUClusters(p) {
			if err := g.Check(); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}
	}
}

func mustNeed(t *testing.T, c *sim.Cluster, j *sim.Job) []sim.Need {
	need, _, err := c.Compile(j)
	if err != nil {
		t.Fatal(err)
	}
	return need
}

// gpuReplay replays the pods as jobs on the openb nodes with strategy name
// through the engine and returns each job's placement as text.
func gpuReplay(t *testing.T, name string, nodes []openb.Node, jobs []*sim.Job) map[string]string {
	t.Helper()
	cluster, err := sim.NewCluster(openb.NodeSpecs(nodes))
	if err != nil {
		t.Fatal(err)
	}
	pipe, err := placement.Build(cluster, placement.Spec{Strategy: name, Seed: 42})
	if err != nil {
		t.Fatal(err)
	}
	if name == "fgd" {
		if err := placement.SetGPUWorkload(pipe, jobs); err != nil {
			t.Fatal(err)
		}
	}
	sched, err := policies.NewPlacedBatch(policies.NoBackfill, cluster, pipe)
	if err != nil {
		t.Fatal(err)
	}
	check := sim.NewChecker(cluster)
	obs := &gpuObserver{t: t, pipe: pipe, placed: map[string]string{}}
	if err := sim.NewEngine(cluster, &sim.SliceSource{Jobs: jobs}, sched, sim.Config{}, check, obs).Run(); err != nil {
		t.Fatal(err)
	}
	if err := check.Err(); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	t.Logf("%s: max alloc %d, final %d of %d, waited %d", name, obs.maxAlloc, placement.GPUClusters(pipe)[0].GPUAllocated(), placement.GPUClusters(pipe)[0].GPUCapacity(), obs.waited)
	if obs.maxAlloc == 0 {
		t.Errorf("%s: no GPU was ever allocated", name)
	}
	return obs.placed
}

// gpuObserver records placements and checks the device mirror after every
// scheduling pass: no GPU over-committed, totals and fragmentation exact.
type gpuObserver struct {
	t        *testing.T
	pipe     *placement.Pipeline
	placed   map[string]string
	maxAlloc int64
	waited   int // jobs that waited for room
}

func (o *gpuObserver) Submitted(sim.Time, *sim.JobRun) {}
func (o *gpuObserver) Started(now sim.Time, j *sim.JobRun) {
	o.placed[j.Job.ID] = fmt.Sprintf("%d@%v", j.Nodes, now)
	if now > j.Job.Submit {
		o.waited++
	}
}
func (o *gpuObserver) Ended(sim.Time, *sim.JobRun) {}
func (o *gpuObserver) Rejected(_ sim.Time, j *sim.JobRun) {
	o.t.Errorf("%s: job %s rejected: %s", o.pipe.Name, j.Job.ID, j.Reason)
}
func (o *gpuObserver) Stepped(now sim.Time, _ *sim.Context) {
	for _, g := range placement.GPUClusters(o.pipe) {
		if err := g.Check(); err != nil {
			o.t.Fatalf("%s at %v: %v", o.pipe.Name, now, err)
		}
	}
	if ms := placement.GPUClusters(o.pipe); len(ms) > 0 {
		o.maxAlloc = max(o.maxAlloc, ms[0].GPUAllocated())
	}
}
func (o *gpuObserver) Finished(_ sim.Time, c *sim.Context) {}

// TestGPUStrategiesReplayOpenb replays the openb subset (pods arriving at
// creation and leaving at deletion) on its nodes with every GPU strategy:
// every job runs, the engine's checker and the device mirror agree that
// nothing is over-committed, and a second run places every job alike.
func TestGPUStrategiesReplayOpenb(t *testing.T) {
	nodes, pods := openbInputs(t)
	slices.SortStableFunc(pods, func(a, b openb.Pod) int { return int(a.Creation - b.Creation) })
	var jobs []*sim.Job
	for _, p := range pods {
		jobs = append(jobs, podJob(p))
	}
	for _, name := range gpuStrategies {
		first := gpuReplay(t, name, nodes, jobs)
		if len(first) != len(jobs) {
			t.Errorf("%s: %d of %d jobs started", name, len(first), len(jobs))
		}
		if second := gpuReplay(t, name, nodes, jobs); !reflect.DeepEqual(first, second) {
			t.Errorf("%s: two runs placed differently", name)
		}
	}
}

// TestGPUPipelineMatchesDriver places the paper's experiment (pods arrive
// and never leave, shuffled and inflated to 130% of GPU capacity) through
// the pipeline and through package gpu's own driver (Cluster.Schedule,
// ties to the lowest index): same node for every pod, same allocation.
func TestGPUPipelineMatchesDriver(t *testing.T) {
	nodes, pods := openbInputs(t)
	specs, err := gpu.SpecsFromSim(openb.NodeSpecs(nodes), openb.ModelAttribute)
	if err != nil {
		t.Fatal(err)
	}
	base, err := gpu.NewCluster(specs)
	if err != nil {
		t.Fatal(err)
	}
	// The driver's inputs, as gpu's own tests build them; the pipeline
	// gets the same pods as jobs.
	byDemand := map[gpu.Demand]*sim.Job{}
	var list []gpu.Demand
	var jobs []*sim.Job
	for _, p := range pods {
		d, err := base.Demand(p.CPUMilli, p.MemoryMiB, p.NumGPU, int32(p.GPUMilli), p.GPUSpec)
		if err != nil {
			t.Fatal(err)
		}
		list = append(list, d)
		jobs = append(jobs, podJob(p))
		byDemand[d] = jobs[len(jobs)-1]
	}
	tt, err := gpu.NewTaskTable(list, gpu.DefaultPopularity)
	if err != nil {
		t.Fatal(err)
	}
	base.SetTaskTable(tt)
	e := &gpu.Experiment{Cluster: base, Pods: list, Inflation: 1.3, StepPct: 1}
	sc, err := sim.NewCluster(openb.NodeSpecs(nodes))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"fgd", "best-fit"} {
		for seed := uint64(42); seed < 45; seed++ {
			driver := base.Clone()
			pol, err := gpu.New(name, gpu.Env{Types: tt, Rand: rand.New(rand.NewPCG(seed, 3))})
			if err != nil {
				t.Fatal(err)
			}
			pipe, err := placement.Build(sc, placement.Spec{Strategy: name})
			if err != nil {
				t.Fatal(err)
			}
			if err := placement.SetGPUWorkload(pipe, jobs); err != nil {
				t.Fatal(err)
			}
			l := placement.NewLedger(sc)
			refused := 0
			for i, d := range e.Arrivals(seed) {
				want, _, ok, err := driver.Schedule(pol, d, nil)
				if err != nil {
					t.Fatal(err)
				}
				got, _ := place(t, pipe, l, sc, int64(i), byDemand[d])
				if !ok {
					want = -1
					refused++
				}
				if g := -1; got != nil && int(got[0]) != want || got == nil && want != -1 {
					if got != nil {
						g = int(got[0])
					}
					t.Fatalf("%s seed %d pod %d: pipeline node %d, driver node %d", name, seed, i, g, want)
				}
			}
			mirror := placement.GPUClusters(pipe)[0]
			if !reflect.DeepEqual(mirror.TaskTable().Types, tt.Types) {
				t.Errorf("%s: the pipeline's task table differs from the driver's", name)
			}
			if mirror.GPUAllocated() != driver.GPUAllocated() || mirror.Fragmentation() != driver.Fragmentation() {
				t.Errorf("%s seed %d: allocated %d vs %d, fragmentation %v vs %v", name, seed,
					mirror.GPUAllocated(), driver.GPUAllocated(), mirror.Fragmentation(), driver.Fragmentation())
			}
			if refused == 0 {
				t.Errorf("%s seed %d: nothing refused at 130%%: the cluster never filled", name, seed)
			}
		}
	}
}

// TestGPULearnedTable: fgd without a given workload learns the task types
// from the jobs as they come, and still places deterministically.
func TestGPULearnedTable(t *testing.T) {
	nodes, pods := openbInputs(t)
	sc, err := sim.NewCluster(openb.NodeSpecs(nodes))
	if err != nil {
		t.Fatal(err)
	}
	run := func() []int32 {
		pipe, err := placement.Build(sc, placement.Spec{Strategy: "fgd"})
		if err != nil {
			t.Fatal(err)
		}
		l := placement.NewLedger(sc)
		var out []int32
		for i, p := range pods {
			n, _ := place(t, pipe, l, sc, int64(i), podJob(p))
			out = append(out, n...)
		}
		g := placement.GPUClusters(pipe)[0]
		if g.TaskTable() == nil || g.TaskTable().Total == 0 {
			t.Fatal("no table learned")
		}
		if err := g.Check(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	// Pods never leave here: the 14 nodes take most, not all, of the 70.
	if a, b := run(), run(); !slices.Equal(a, b) || len(a) < len(pods)*9/10 {
		t.Errorf("learned fgd: %d of %d placed, runs equal %v", len(a), len(pods), slices.Equal(a, b))
	}
}
