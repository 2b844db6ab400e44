package run

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/schedsim/schedsim/internal/runcmp"
	"github.com/schedsim/schedsim/metrics"
)

// writeJobs writes a native trace of n jobs, one every 60 s from 0, each
// of 1–4 tasks of 16 cpus running 300–1200 s within a 1500 s walltime.
func writeJobs(t *testing.T, n int) string {
	t.Helper()
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `{"id": "%d", "submit_s": %d, "runtime_s": %d, "walltime_s": 1500, "tasks": %d, "request": {"cpu": 16}}`+"\n",
			i+1, 60*i, 300+(i*137)%900, 1+i%4)
	}
	path := filepath.Join(t.TempDir(), "jobs.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A replay with every transform writes a run.yaml that records them and
// replays to the same files; another seed gives another replica.
func TestReplayWithTransformsReruns(t *testing.T) {
	c := Default()
	c.Trace, c.Cluster = writeJobs(t, 80), "../../testdata/clusters/hetero.yaml"
	c.TransformSpec = TransformSpec{From: "600", FirstJobs: 60, LoadFactor: 1.5, RuntimeFactor: 1.2, WalltimeModel: "scaled",
		ClusterFactor: 1.5, AddNodes: []string{"2:fat1"}, WarmUpS: 300, CoolDownS: 300, JitterSubmitS: 20, JitterRuntime: 0.2}
	c.Seed, c.Quiet, c.Check, c.Format = 3, true, true, metrics.FormatCSV
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	first := filepath.Join(t.TempDir(), "first")
	c.Out = first
	if _, err := Replay(context.Background(), &c, Options{}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(first, "run.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		LoadFactor float64  `yaml:"load_factor"`
		AddNodes   []string `yaml:"add_nodes"`
		Jitter     float64  `yaml:"jitter_runtime"`
		Provenance struct {
			Cluster struct {
				Source string `yaml:"source"`
				Nodes  int    `yaml:"nodes"`
			} `yaml:"cluster"`
		} `yaml:"provenance"`
	}
	if err := yaml.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	// hetero: 8 cpu, 4 gpu and 1 fat node; × 1.5 → 12, 6, 2; +2 fat → 22.
	if rec.LoadFactor != 1.5 || len(rec.AddNodes) != 1 || rec.Jitter != 0.2 || rec.Provenance.Cluster.Nodes != 22 ||
		!strings.HasSuffix(rec.Provenance.Cluster.Source, ", × 1.5, +2 like fat1") {
		t.Errorf("run.yaml records %+v", rec)
	}

	again, err := Load(filepath.Join(first, "run.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	second := filepath.Join(t.TempDir(), "second")
	again.Out, again.Quiet = second, true
	if _, err := Replay(context.Background(), &again, Options{}); err != nil {
		t.Fatal(err)
	}
	if err := runcmp.SameRun(first, second); err != nil {
		t.Error(err)
	}

	// The jobs table: 60 jobs from job 11 (submitted at 600) on; measured
	// exactly those submitted from 300 s after the first to 300 s before
	// the last, as the summary counts them.
	jobs, err := metrics.ReadJobs(first)
	if err != nil {
		t.Fatal(err)
	}
	if jobs.Len() != 60 {
		t.Fatalf("%d jobs, want 60", jobs.Len())
	}
	lo, hi := 1e18, -1e18
	for i := range jobs.Len() {
		s, _ := jobs.Float("submit_s", i)
		lo, hi = min(lo, s), max(hi, s)
	}
	if lo != 600 {
		t.Errorf("first submit %g, want 600 (the window's first job is not moved)", lo)
	}
	measured := 0
	for i := range jobs.Len() {
		s, _ := jobs.Float("submit_s", i)
		m, _ := jobs.Bool("measured", i)
		if want := s >= lo+300 && s <= hi-300; m != want {
			t.Errorf("job %s submitted at %g: measured %v, want %v", jobs.Str("job_id", i), s, m, want)
		}
		if m {
			measured++
		}
	}
	sum, err := metrics.ReadSummaryCSV(filepath.Join(first, "summary.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if sum["jobs_measured"] != fmt.Sprint(measured) || measured == 0 || measured == 60 {
		t.Errorf("jobs_measured %q, measured rows %d", sum["jobs_measured"], measured)
	}

	other := c
	other.Seed, other.Out = 4, filepath.Join(t.TempDir(), "other")
	if _, err := Replay(context.Background(), &other, Options{}); err != nil {
		t.Fatal(err)
	}
	if a, b := maskedSummary(t, first), maskedSummary(t, other.Out); a == b {
		t.Error("seeds 3 and 4 gave the same summary: the jitter draws nothing")
	}
}

// Without transforms, run.yaml has none of their keys: older runs' files
// are unchanged.
func TestNoTransformKeys(t *testing.T) {
	c := Default()
	out, err := yaml.Marshal(&c)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"from", "until", "first_jobs", "load_factor", "runtime_factor", "walltime_model",
		"cluster_factor", "add_nodes", "warm_up_s", "cool_down_s", "jitter_submit_s", "jitter_runtime"} {
		if strings.Contains(string(out), "\n"+key+":") {
			t.Errorf("run.yaml of a plain run has %s", key)
		}
		if flagSet().Lookup(flagName(key)) == nil {
			t.Errorf("key %s has no flag --%s", key, flagName(key))
		}
	}
}

func TestTransformValidation(t *testing.T) {
	path := filepath.Join(t.TempDir(), "spec.yaml")
	spec := "load_factor: 0\nwalltime_model: fast\nadd_nodes: [c1]\nfrom: yesterday\nwarm_up_s: -5\n"
	if err := os.WriteFile(path, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	err = c.Validate()
	for _, want := range []string{
		path + ":1: load_factor: want a factor > 0",
		path + ":2: walltime_model: walltime model: want traced, scaled, exact",
		path + ":3: add_nodes: want COUNT:NODE",
		path + ":4: from: want seconds or an RFC 3339 time",
		path + ":5: warm_up_s: want a number ≥ 0",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("want %q in %v", want, err)
		}
	}
	// From flags, errors name the flag.
	c = Default()
	c.RuntimeFactor, c.CoolDownS = -1, -1
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "--runtime-factor: want a factor > 0") ||
		!strings.Contains(err.Error(), "--cool-down: want a number ≥ 0") {
		t.Errorf("flags: %v", err)
	}
	// A calendar window needs the trace's epoch: the native sample has none.
	c = Default()
	c.Trace, c.Cluster = writeJobs(t, 3), "../../testdata/clusters/hetero.yaml"
	c.From, c.Quiet, c.Out = "2024-03-01T00:00:00Z", true, filepath.Join(t.TempDir(), "run")
	if _, err := Replay(context.Background(), &c, Options{}); err == nil || !strings.Contains(err.Error(), "the trace's epoch is unknown") {
		t.Errorf("calendar --from without an epoch: %v", err)
	}
}

func TestDrawsRandom(t *testing.T) {
	for _, c := range []struct {
		set  func(*Spec)
		want bool
	}{
		{func(*Spec) {}, false},
		{func(c *Spec) { c.LoadFactor, c.WarmUpS = 2, 600 }, false},
		{func(c *Spec) { c.JitterRuntime = 0.1 }, true},
		{func(c *Spec) { c.JitterSubmitS = 60 }, true},
		{func(c *Spec) { c.MTBFs, c.MTTRs = 3600, 60 }, true},
		{func(c *Spec) { c.Placement.Set("random") }, true},
	} {
		s := Default()
		c.set(&s)
		if got := s.DrawsRandom(); got != c.want {
			t.Errorf("%+v: DrawsRandom %v, want %v", s.TransformSpec, got, c.want)
		}
	}
}

// Five seeds of a jittered replay give five distinct summaries.
func TestJitterReplicasDiffer(t *testing.T) {
	trace := writeJobs(t, 40)
	seen := map[string]uint64{}
	for seed := uint64(1); seed <= 5; seed++ {
		c := Default()
		c.Trace, c.Cluster = trace, "../../testdata/clusters/hetero.yaml"
		c.JitterSubmitS, c.JitterRuntime, c.Seed = 30, 0.3, seed
		c.Quiet, c.Format, c.Out = true, metrics.FormatCSV, filepath.Join(t.TempDir(), "run")
		if _, err := Replay(context.Background(), &c, Options{}); err != nil {
			t.Fatal(err)
		}
		s := maskedSummary(t, c.Out)
		if other, dup := seen[s]; dup {
			t.Errorf("seeds %d and %d gave the same summary", other, seed)
		}
		seen[s] = seed
	}
}
