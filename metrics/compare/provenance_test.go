package compare

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeProvRun writes a run directory whose run.yaml carries provenance.
func writeProvRun(t *testing.T, dir, seed, sha, nodes, transforms, waits, energy string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	csv := "jobs,mean_wait_s,energy_kwh,trace,queue,backfill\n100," + waits + "," + energy + ",kth,fcfs,easy\n"
	power := "assumed 100 W idle, 250 W busy per node"
	if energy == "" {
		power = "none (energy not measured)"
	}
	run := "seed: " + seed + "\nqueue: fcfs\nbackfill: easy\nplacement: first-fit\nprovenance:\n  trace:\n    name: kth.swf\n    sha256: " + sha +
		"\n  cluster:\n    nodes: " + nodes + "\n    totals:\n      - 'cpu: " + nodes + "'\n    power: " + power + "\n" + transforms
	for name, data := range map[string]string{"summary.csv": csv, "run.yaml": run} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const shaA = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
const shaB = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"

// Two runs of different traces are refused unless asked; the refusal
// names what differs.
func TestDifferentWorkloadsRefused(t *testing.T) {
	dir := t.TempDir()
	writeProvRun(t, filepath.Join(dir, "kth"), "1", shaA, "100", "", "100", "5")
	writeProvRun(t, filepath.Join(dir, "small"), "1", shaB, "100", "", "1", "0.1")
	b, _ := Load(filepath.Join(dir, "kth"))
	c, _ := Load(filepath.Join(dir, "small"))
	_, err := Compare(b, c, DefaultTolerances(), Options{})
	var dw *DifferentWorkloadsError
	if !errors.As(err, &dw) || !strings.Contains(err.Error(), "trace: kth.swf, sha256 aaaaaaaaaaaa… → kth.swf, sha256 bbbbbbbbbbbb…") ||
		!strings.Contains(err.Error(), "--allow-different-workloads") {
		t.Fatalf("different workloads: %v", err)
	}
	res, err := Compare(b, c, DefaultTolerances(), Options{AllowDifferentWorkloads: true})
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	res.WriteText(&text)
	if !strings.Contains(text.String(), "comparing: DIFFERENT WORKLOADS") {
		t.Errorf("allowed, but not labelled:\n%s", text.String())
	}
}

// Same trace, another cluster and a transform: a what-if, labelled with
// what differs. Energy null on one side is not comparable, and why.
func TestWhatIfLabelled(t *testing.T) {
	dir := t.TempDir()
	writeProvRun(t, filepath.Join(dir, "today"), "1", shaA, "100", "", "100", "5")
	writeProvRun(t, filepath.Join(dir, "plus20"), "1", shaA, "120", "  transforms:\n    cluster_factor: 1.2\n", "80", "")
	b, _ := Load(filepath.Join(dir, "today"))
	c, _ := Load(filepath.Join(dir, "plus20"))
	res, err := Compare(b, c, DefaultTolerances(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	res.WriteText(&text)
	out := text.String()
	for _, want := range []string{
		"comparing: a what-if on the same workload (kth.swf, sha256 aaaaaaaaaaaa…)",
		"differs: cluster: 100 nodes, cpu 100 → 120 nodes, cpu 120",
		"differs: cluster_factor: none → 1.2",
		"not comparable: energy_kwh: the candidate has no value (the cluster has no power model)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	for _, s := range res.Sections {
		if s.Metric.Name == "energy_kwh" {
			t.Errorf("energy_kwh scored against a null")
		}
	}
}

// The planner's question: per scenario, the replicas that meet the
// target, each value, the interval of the mean, and the answer.
func TestTargetAnswer(t *testing.T) {
	for _, bad := range []string{"p95_wait_s", "p95_wait_s <= lots", "<= 3", "p95 wait <= 3"} {
		if _, err := ParseTarget(bad); err == nil {
			t.Errorf("target %q accepted", bad)
		}
	}
	tg, err := ParseTarget("p95_wait_s≤3600")
	if err != nil || tg != (Target{Metric: "p95_wait_s", Op: "<=", Value: 3600}) {
		t.Fatalf("%+v %v", tg, err)
	}
	base := side("today", map[string][]float64{"p95_wait_s": {7000, 8000, 9000}})
	cand := side("plus20", map[string][]float64{"p95_wait_s": {3000, 3600, 4000}})
	res, err := Compare(base, cand, DefaultTolerances(), Options{Targets: []Target{tg}})
	if err != nil {
		t.Fatal(err)
	}
	a := res.Answers[0]
	if len(a.Scenarios) != 2 || a.Scenarios[0].Met != 0 || a.Scenarios[1].Met != 2 || a.Scenarios[1].Mean != 3533.3333333333335 {
		t.Fatalf("%+v", a.Scenarios)
	}
	if !a.Scenarios[1].Interval.Has() || a.Scenarios[1].Values[2] != 4000 {
		t.Errorf("%+v", a.Scenarios[1])
	}
	if got := a.Sentence(); !strings.HasPrefix(got, "partly — p95_wait_s <= 3600? plus20 meets it in 2 of 3 replicas (mean 58.9 min)") {
		t.Errorf("answer %q", got)
	}
	var text strings.Builder
	res.WriteText(&text)
	if !strings.Contains(text.String(), "50.0 min ✓, 1.0 h ✓, 1.1 h") {
		t.Errorf("replica values not marked:\n%s", text.String())
	}
	// A target on a metric a side lacks is bad input.
	if _, err := Compare(base, cand, DefaultTolerances(), Options{Targets: []Target{{Metric: "nope", Op: "<", Value: 1}}}); err == nil {
		t.Error("target on a missing metric accepted")
	}
	// In a tolerances file.
	ms, targets, err := parseTolerancesFile("t.yaml", []byte("mean_bsld: 5%\ntarget: [\"p95_wait_s <= 3600\", \"utilization >= 0.6\"]\n"))
	if err != nil || len(ms) != 1 || len(targets) != 2 || targets[1].Op != ">=" {
		t.Errorf("%v %v %v", ms, targets, err)
	}
}
