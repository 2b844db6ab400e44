package experiment

import (
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// expandSorted is the plan made the plain way, for comparison: every run
// of the product in memory, each key joined from its values, sorted.
func expandSorted(t *testing.T, s *Spec) []Run {
	t.Helper()
	var points [][]Param
	if ps := &s.Parameters; len(ps.Ranges) > 0 && (ps.Sampling == "" || ps.Sampling == Grid) {
		points = [][]Param{nil}
		for _, r := range ps.Ranges {
			var next [][]Param
			for _, pt := range points {
				for _, v := range r.discrete() {
					next = append(next, append(slices.Clone(pt), Param{r.Name, v}))
				}
			}
			points = next
		}
	} else {
		var err error
		if points, err = s.sampledPoints(); err != nil {
			t.Fatal(err)
		}
	}
	clusters := s.Clusters
	if len(clusters) == 0 {
		clusters = []Cluster{{Name: DefaultCluster}}
	}
	var runs []Run
	for ti := range s.Traces {
		tr := s.Traces[ti]
		tr.Name = s.TraceName(ti)
		for _, cl := range clusters {
			for _, q := range s.queues() {
				for _, bf := range orDefault(s.Policies.Backfill, DefaultBackfill) {
					for _, pl := range orDefault(s.Policies.Placement, DefaultPlacement) {
						for _, prof := range s.profilesFor(q) {
							for _, pt := range points {
								for rep := 1; rep <= max(s.Seeds, 1); rep++ {
									r := Run{Trace: tr, Cluster: cl, Queue: q, Backfill: bf, Placement: pl, Profile: prof, Params: slices.Clone(pt), Replica: rep}
									r.Key = joinKey(&r)
									r.Seed = RunSeed(s.Seed, r.Key)
									runs = append(runs, r)
								}
							}
						}
					}
				}
			}
		}
	}
	sort.SliceStable(runs, func(a, b int) bool { return runs[a].Key < runs[b].Key })
	return runs
}

// joinKey joins a run's values into its key, as the docs say.
func joinKey(r *Run) string {
	parts := []string{r.Trace.Name, r.Cluster.Name, r.Queue, r.Backfill, r.Placement}
	if r.Profile != "" {
		parts = append(parts, profileName(r.Profile))
	}
	for _, p := range r.Params {
		parts = append(parts, p.Name+"="+p.Value.key())
	}
	tail := "__seed=" + strconv.Itoa(r.Replica)
	return cutKey(strings.Join(parts, "__")+tail, len(tail))
}

// The plan yields, one at a time, exactly the runs of the product sorted
// by key, with names and values where one key segment is a prefix of
// another (a and a_, x and x_y), seeds past 9 (seed=10 sorts before
// seed=2), queues with and without profiles, sampled points, and keys so
// long that they are cut and hashed.
func TestPlanIsTheSortedProduct(t *testing.T) {
	long := strings.Repeat("l", 150)
	for name, text := range map[string]string{
		"prefixes": `seed: 3
seeds: 12
traces: [{name: a, path: t.swf}, {name: a_, path: t.swf}, {name: a_b, path: t.swf}, {name: a-, path: t.swf}, {name: A, path: t.swf}]
clusters: [{name: c}, {name: c_}, {name: c.1}]
policies: {queue: [fcfs, lattice, sjf], backfill: [none, easy]}
profiles: [hpc-batch, sensitive]
parameters:
  ranges:
    - {name: checkpoint_s, values: [1, 10, 2, 0.5, 1_x]}
    - {name: lattice.half_life_s, values: [x, x_, x_y, x-, "x y_"]}
`,
		"sampled": `seeds: 3
traces: [{path: t.swf}]
policies: {queue: [lattice]}
parameters:
  sampling: random
  samples: 40
  ranges:
    - {name: w_priority, min: 0, max: 1}
    - {name: w_wait_time, values: [0, 1, 10, 1_]}
`,
		"long keys": `seeds: 11
traces: [{name: ` + long + `, path: t.swf}, {name: ` + long + `_, path: t.swf}, {name: ` + long[:100] + `, path: t.swf}]
policies: {queue: [lattice], backfill: [none, easy]}
parameters:
  ranges:
    - {name: w_priority, values: [0, 0.25, 1, 10, 100]}
`,
	} {
		s := parse(t, text)
		got, err := s.Runs()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want := expandSorted(t, s)
		if len(got) != len(want) {
			t.Fatalf("%s: %d runs, want %d", name, len(got), len(want))
		}
		for i := range want {
			if !reflect.DeepEqual(got[i], want[i]) {
				t.Fatalf("%s: run %d is\n%+v, want\n%+v", name, i, got[i], want[i])
			}
		}
		if name == "long keys" && !strings.Contains(got[len(got)-1].Key, "~") {
			t.Errorf("%s: no key was cut: %s", name, got[len(got)-1].Key)
		}
	}
}

// Values that differ only in characters a key cannot hold give two runs
// one key: refused when the spec is read, and by Plan under a --max-runs
// too small for Validate to plan it.
func TestPlanRefusesEqualKeys(t *testing.T) {
	text := `seeds: 3
traces: [{path: t.swf}]
parameters:
  ranges: [{name: lattice.half_life_s, values: ["a b", a-b]}]
`
	_, err := Parse([]byte(text), "/exp/experiment.yaml")
	if err == nil || !strings.Contains(err.Error(), "two runs have the key t__default__fcfs__easy__first-fit__lattice.half_life_s=a-b__seed=1") {
		t.Errorf("Parse: %v", err)
	}
	s := parse(t, strings.Replace(text, `"a b"`, "a", 1))
	s.Parameters.Ranges[0].Values[0] = "a b"
	if _, err := s.Plan(); err == nil || !strings.Contains(err.Error(), "two runs have the key t__default__fcfs__easy__first-fit__lattice.half_life_s=a-b__seed=1") {
		t.Errorf("got %v", err)
	}
}

// Replicas come in the byte order of their keys' seed=N.
func TestEachReplica(t *testing.T) {
	for _, n := range []int{1, 9, 10, 11, 99, 100, 101, 1234} {
		var got, want []string
		eachReplica(n, func(r int) bool { got = append(got, strconv.Itoa(r)); return true })
		for r := 1; r <= n; r++ {
			want = append(want, strconv.Itoa(r))
		}
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("n %d: %v", n, got)
		}
	}
}

// A 1000 × 1000 grid (a million runs, --max-runs raised) plans and
// iterates in key order within a few megabytes: made whole, its runs
// alone would take over 300 MB (about 350 bytes a run with its key and
// parameters). The heap is measured every 50,000 runs.
func TestPlanMillionRunsInBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("a million runs")
	}
	s := parse(t, `seed: 1
traces: [{name: kth, path: t.swf}]
policies: {queue: [lattice]}
parameters:
  ranges:
    - {name: w_priority, min: 0, max: 1, steps: 1000}
    - {name: w_wait_time, min: 0, max: 1000, steps: 1000}
`)
	s.MaxRuns = 2_000_000
	const bound = 32 << 20
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	peak := uint64(0)
	measure := func() {
		runtime.ReadMemStats(&ms)
		peak = max(peak, ms.HeapInuse-min(base, ms.HeapInuse))
	}
	plan, err := s.Plan()
	if err != nil {
		t.Fatal(err)
	}
	measure()
	if plan.Len() != 1_000_000 {
		t.Fatalf("%d runs", plan.Len())
	}
	prev, n := "", 0
	for pos, r := range plan.All() {
		if pos != n || r.Key <= prev {
			t.Fatalf("run %d at %d: %s after %s", n, pos, r.Key, prev)
		}
		prev = r.Key
		if n++; n%50_000 == 0 {
			measure()
		}
	}
	if n != 1_000_000 {
		t.Fatalf("iterated %d runs", n)
	}
	t.Logf("peak heap in use over the baseline: %.1f MiB", float64(peak)/(1<<20))
	if peak > bound {
		t.Errorf("planning a million runs held %s of heap, want under %s", mib(peak), mib(bound))
	}
}

func mib(b uint64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }
