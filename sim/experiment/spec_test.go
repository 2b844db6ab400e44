package experiment

import (
	"math"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
)

func parse(t *testing.T, text string) *Spec {
	t.Helper()
	s, err := Parse([]byte(text), "/exp/experiment.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Every problem of a spec is reported at once, each with its line.
func TestValidateReportsEveryProblemWithLines(t *testing.T) {
	text := `name: broken
seed: 1
seeds: 2
traces:
  - {name: kth, path: kth.swf, colour: blue}
clusters:
  - {name: pool, swf_model: lake}
policies:
  queue: [fcfs]
  backfill: [none, eazy]
profiles: [hpc-batch]
parameters:
  sampling: lhs
  ranges:
    - {name: w_fairness, min: 0, max: 1}
    - {name: checkpoint_s, min: 10, max: 5}
replay: {seed: 3}
metrics: [mean_wait_s, wall_s, mean_wiat_s]
objective: jobs
target: p95_wait_s under 3600
`
	_, err := Parse([]byte(text), "exp.yaml")
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		`exp.yaml:5: unknown key "traces[0].colour"`,
		`exp.yaml:7: clusters[0].swf_model: want pool or nodes, got "lake"`,
		`exp.yaml:10: policies.backfill[1]: unknown backfill "eazy"`,
		`exp.yaml:11: profiles: weight profiles need queue lattice`,
		`exp.yaml:12: parameters.samples: sampling lhs needs samples ≥ 1`,
		`exp.yaml:15: parameters.ranges[0].name: unknown lattice factor "fairness"`,
		`exp.yaml:15: parameters.ranges[0].name: weights apply to queue lattice only`,
		`exp.yaml:16: parameters.ranges[1]: want finite min ≤ max, got min 10, max 5`,
		`exp.yaml:17: replay.seed: set by the experiment's axes`,
		`exp.yaml:18: metrics[1]: "wall_s" measures the machine`,
		`exp.yaml:18: metrics[2]: unknown summary column "mean_wiat_s"`,
		`exp.yaml:19: objective: "jobs" has no known better direction; rank by one of `,
		`exp.yaml:20: target: target "p95_wait_s under 3600": want METRIC OP VALUE`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in:\n%v", want, err)
		}
	}
}

const kthSpec = `seed: 42
seeds: 2
traces: [{path: ../swf/kth-head.swf.gz}]
policies:
  queue: [lattice]
  backfill: [none, easy]
profiles: [hpc-batch, fair.yaml]
`

// 1 trace × 1 cluster × 2 backfills × 2 profiles × 2 seeds = 8 runs,
// sorted by key, each seeded from the base seed and its key only.
func TestRunsExpandTheProduct(t *testing.T) {
	s := parse(t, kthSpec)
	runs, err := s.Runs()
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 8 {
		t.Fatalf("%d runs, want 8", len(runs))
	}
	keys := make([]string, len(runs))
	seeds := map[uint64]bool{}
	for i, r := range runs {
		keys[i] = r.Key
		seeds[r.Seed] = true
		if r.Seed != RunSeed(42, r.Key) || r.Seed >= 1<<63 {
			t.Errorf("%s: seed %d", r.Key, r.Seed)
		}
	}
	if !sort.StringsAreSorted(keys) {
		t.Errorf("keys not sorted: %v", keys)
	}
	if len(seeds) != 8 {
		t.Errorf("%d distinct seeds, want 8", len(seeds))
	}
	if want := "kth-head__default__lattice__easy__first-fit__fair__seed=1"; keys[0] != want {
		t.Errorf("first key %s, want %s", keys[0], want)
	}
	if runs[0].Trace.Path != "/swf/kth-head.swf.gz" || runs[0].Profile != "/exp/fair.yaml" {
		t.Errorf("paths not resolved against the spec's directory: %q %q", runs[0].Trace.Path, runs[0].Profile)
	}
	again, _ := parse(t, kthSpec).Runs()
	if !reflect.DeepEqual(runs, again) {
		t.Error("two expansions differ")
	}
	// Another base seed gives other run seeds, the same keys.
	other, _ := parse(t, strings.Replace(kthSpec, "seed: 42", "seed: 43", 1)).Runs()
	if other[0].Key != runs[0].Key || other[0].Seed == runs[0].Seed {
		t.Errorf("base seed 43: %s %d vs %s %d", other[0].Key, other[0].Seed, runs[0].Key, runs[0].Seed)
	}
}

// A grid of 2 × 3 values: 6 points; steps spread min..max evenly:
// 0, 1800, 3600 for min 0, max 3600, steps 3.
func TestGrid(t *testing.T) {
	s := parse(t, `traces: [{path: t.swf}]
policies: {queue: [lattice]}
parameters:
  ranges:
    - {name: w_fair_share, values: [0, 0.5]}
    - {name: checkpoint_s, min: 0, max: 3600, steps: 3}
`)
	runs, err := s.Runs()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range runs {
		got = append(got, r.Params[0].Value.String()+"/"+r.Params[1].Value.String())
	}
	want := []string{"0/0", "0/1800", "0/3600", "0.5/0", "0.5/1800", "0.5/3600"}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("points %v, want %v", got, want)
	}
	if w := runs[0].Weights(); len(w) != 1 {
		t.Errorf("weights %v", w)
	}
	if cols := s.ParamColumns(); cols[len(cols)-1] != "param_checkpoint_s" || cols[0] != "param_trace" {
		t.Errorf("columns %v", cols)
	}
}

// A Latin hypercube of 10 samples puts exactly one sample in each tenth of
// every range; the same seed draws the same points.
func TestLatinHypercube(t *testing.T) {
	text := `traces: [{path: t.swf}]
policies: {queue: [lattice]}
parameters:
  sampling: lhs
  samples: 10
  seed: 7
  ranges:
    - {name: w_priority, min: 0, max: 1}
    - {name: w_wait_time, min: 0, max: 10}
`
	runs, err := parse(t, text).Runs()
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 10 {
		t.Fatalf("%d runs", len(runs))
	}
	for j, width := range []float64{0.1, 1} {
		strata := map[int]bool{}
		for _, r := range runs {
			strata[int(math.Floor(r.Params[j].Value.Num/width))] = true
		}
		if len(strata) != 10 {
			t.Errorf("range %d: %d strata hit, want 10", j, len(strata))
		}
	}
	again, _ := parse(t, text).Runs()
	if !reflect.DeepEqual(runs, again) {
		t.Error("same seed, other points")
	}
}

// Shards are disjoint, cover every run and differ by at most one run.
func TestShard(t *testing.T) {
	plan, err := parse(t, kthSpec).Plan()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for i := range 3 {
		n := 0
		for pos, r := range plan.Shard(i, 3) {
			if pos%3 != i {
				t.Errorf("shard %d has the run at %d", i, pos)
			}
			seen[r.Key]++
			n++
		}
		if n < 2 || n > 3 || n != plan.ShardLen(i, 3) { // 8 runs over 3 shards: 3, 3, 2
			t.Errorf("shard %d has %d runs, ShardLen says %d", i, n, plan.ShardLen(i, 3))
		}
	}
	if len(seen) != plan.Len() || plan.Len() != 8 {
		t.Errorf("%d runs covered, want %d", len(seen), plan.Len())
	}
	for k, n := range seen {
		if n != 1 {
			t.Errorf("%s in %d shards", k, n)
		}
	}
	for _, bad := range []string{"3/3", "-1/2", "1", "a/b", "0/0"} {
		if _, _, err := ParseShard(bad); err == nil {
			t.Errorf("ParseShard(%q): no error", bad)
		}
	}
	if i, n, err := ParseShard("2/5"); err != nil || i != 2 || n != 5 {
		t.Errorf("ParseShard(2/5) = %d, %d, %v", i, n, err)
	}
}

// Long keys keep a readable prefix and a hash of the whole.
func TestLongKey(t *testing.T) {
	s := parse(t, `traces: [{path: t.swf, name: `+strings.Repeat("a", 250)+`}]`)
	runs, err := s.Runs()
	if err != nil {
		t.Fatal(err)
	}
	if k := runs[0].Key; len(k) != maxKey || !strings.HasPrefix(k, "aaaa") || !strings.Contains(k, "~") || !strings.HasSuffix(k, "__seed=1") {
		t.Errorf("key %q (%d chars)", k, len(k))
	}
}
