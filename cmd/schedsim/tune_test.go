package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/metrics"
	"github.com/schedsim/schedsim/sim/run"
)

const tuneSpec = "../../testdata/tune/kth-tune.yaml"

// readSweepRows reads a sweep-format summary.csv into rows by run.
func readSweepRows(t *testing.T, path string) map[string]map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	header := strings.Split(lines[0], ",")
	rows := map[string]map[string]string{}
	for _, l := range lines[1:] {
		cells := strings.Split(l, ",")
		row := map[string]string{}
		for i, h := range header {
			row[h] = cells[i]
		}
		rows[row["run"]] = row
	}
	return rows
}

func number(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestTuneKTH tunes the weights of priority, wait_time, fair_share and
// backlog on KTH-SP2's first 2,000 jobs (EASY, tenants = user id mod 4)
// for mean bounded slowdown under jain_bsld ≥ 0.85, 4 CMA-ES iterations of
// 6. The named profiles' runs show that only wait_time, fair_share and
// conformance differ between queued jobs (in 15,940 passes of two jobs or
// more): an SWF log has no priorities, labels or topology groups, and
// backlog is global; so priority and backlog are named inert and left out,
// and the search moves wait_time and fair_share only. The named profiles
// give mean_bsld default 73.04, hpc-batch 73.04, interactive 48.33,
// ml-training 46.28, sensitive 62.99, service 59.57; only service (jain
// 0.886) meets the constraint, so the search starts from it. It finds 43.84
// (jain 0.981) with wait_time 0, fair_share 0.122: better than every named
// profile, feasible or not. The same seed gives the same bytes, with one
// worker or two; the printed profile and best.yaml, a complete run spec,
// replay to the same mean_bsld.
func TestTuneKTH(t *testing.T) {
	tmp := t.TempDir()
	out1, out2 := filepath.Join(tmp, "t1"), filepath.Join(tmp, "t2")
	stdout1, err := execute(t, "tune", tuneSpec, "--iterations", "4", "--workers", "2", "--out", out1)
	if err != nil {
		t.Fatalf("%v\n%s", err, stdout1)
	}
	rows := readSweepRows(t, filepath.Join(out1, "summary.csv"))
	best := ""
	for run, row := range rows {
		if row["feasible"] == "1" && (best == "" || number(t, row["objective"]) < number(t, rows[best]["objective"])) {
			best = run
		}
	}
	tuned := number(t, rows[best]["objective"])
	if rows[best]["param_profile"] != "tuned" {
		t.Errorf("best is the named profile %s", best)
	}
	for _, name := range []string{"default", "hpc-batch", "interactive", "ml-training", "sensitive", "service"} {
		row, ok := rows[name]
		if !ok {
			t.Fatalf("no row for the named profile %s", name)
		}
		if named := number(t, row["objective"]); tuned > named {
			t.Errorf("tuned mean_bsld %.4g is worse than %s's %.4g", tuned, name, named)
		}
	}
	if tuned > 44 || number(t, rows[best]["jain_bsld"]) < 0.85 {
		t.Errorf("tuned: mean_bsld %v jain %s, want ≤ 44 with jain ≥ 0.85", tuned, rows[best]["jain_bsld"])
	}

	for _, want := range []string{
		"tuned weights: wait_time [0, 1], fair_share [0, 1];",
		"inert factors: priority, topology, data_ready, backlog, energy, checkpoint — the same for every queued job in each of the 15940 passes",
		"left out of the search: priority, backlog",
	} {
		if !strings.Contains(stdout1, want) {
			t.Errorf("tune output lacks %q:\n%s", want, stdout1)
		}
	}

	stdout2, err := execute(t, "tune", tuneSpec, "--iterations", "4", "--workers", "1", "--out", out2)
	if err != nil {
		t.Fatal(err)
	}
	same := func(s string) string {
		return strings.NewReplacer("2 concurrent", "N concurrent", "1 concurrent", "N concurrent", out1, "OUT", out2, "OUT").Replace(s)
	}
	if same(stdout1) != same(stdout2) {
		t.Errorf("two tunes with the same seed differ:\n%s\n---\n%s", stdout1, stdout2)
	}
	for _, f := range []string{"summary.csv", "summary.parquet", "convergence.csv", "best-profile.yaml", "best.yaml"} {
		a, _ := os.ReadFile(filepath.Join(out1, f))
		b, _ := os.ReadFile(filepath.Join(out2, f))
		if len(a) == 0 || string(a) != string(b) {
			t.Errorf("%s differs between the two tunes (or is empty)", f)
		}
	}

	// The profile as printed, pasted into a file, replays to the same value.
	printed := stdout1[strings.Index(stdout1, "profile: tuned\n"):strings.Index(stdout1, "\nfiles in")]
	prof := filepath.Join(tmp, "pasted.yaml")
	os.WriteFile(prof, []byte(printed), 0o644)
	cfg := filepath.Join(tmp, "run.yaml")
	os.WriteFile(cfg, []byte("trace: "+filepath.Join(mustAbs(t, "../../testdata/experiments"), "kth-sp2-2000.swf.gz")+
		"\nqueue: lattice\nbackfill: easy\nlattice: {tenants: user, tenant_buckets: 4, shares: {t0: 0.1, t1: 0.2, t2: 0.3, t3: 0.4}}\n"), 0o644)
	runDir := filepath.Join(tmp, "replay")
	if _, err := execute(t, "replay", "--config", cfg, "--profile", prof, "--quiet", "--format", "csv", "--out", runDir); err != nil {
		t.Fatal(err)
	}
	sum, err := metrics.ReadSummaryCSV(filepath.Join(runDir, "summary.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if number(t, sum["mean_bsld"]) != tuned {
		t.Errorf("pasted profile replays to mean_bsld %s, tune said %v", sum["mean_bsld"], tuned)
	}

	// best.yaml alone, from another directory, replays to it too, and says
	// which weights were not searched.
	bestYAML, _ := os.ReadFile(filepath.Join(out1, "best.yaml"))
	if !strings.Contains(string(bestYAML), "# left out of the search: priority, backlog") || !strings.Contains(string(bestYAML), "\nprofile: best-profile.yaml\n") {
		t.Errorf("best.yaml:\n%s", bestYAML)
	}
	bestDir := filepath.Join(tmp, "best-replay")
	if _, err := execute(t, "replay", "--config", filepath.Join(out1, "best.yaml"), "--quiet", "--format", "csv", "--out", bestDir); err != nil {
		t.Fatal(err)
	}
	if sum, err = metrics.ReadSummaryCSV(filepath.Join(bestDir, "summary.csv")); err != nil {
		t.Fatal(err)
	}
	if number(t, sum["mean_bsld"]) != tuned {
		t.Errorf("best.yaml replays to mean_bsld %s, tune said %v", sum["mean_bsld"], tuned)
	}
}

func mustAbs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// A spec the sweep accepts but tune cannot use: every problem, with lines.
func TestTuneBadInput(t *testing.T) {
	dir := t.TempDir()
	trace := mustAbs(t, "../../testdata/experiments/kth-sp2-2000.swf.gz")
	for _, c := range []struct {
		spec string
		want []string
	}{
		{`seed: 1
traces: [{path: ` + trace + `}]
policies: {queue: [fcfs, lattice]}
tune:
  objective: speed
  constraints: ["jain_bsld >= high"]
`, []string{
			"bad.yaml:3: policies.queue: tune searches lattice weights: want [lattice]",
			`bad.yaml:5: tune.objective: "speed" is not a summary metric`,
			`bad.yaml:6: tune.constraints[0]: bound: want a number, got "high"`,
		}},
		{`seed: 1
traces: [{path: ` + trace + `}]
policies: {queue: [lattice]}
parameters:
  ranges: [{name: w_priority, values: [0, 1]}]
`, []string{"bad.yaml:5: parameters.ranges[0].name: tune chooses the weights: drop w_priority"}},
	} {
		spec := filepath.Join(dir, "bad.yaml")
		os.WriteFile(spec, []byte(c.spec), 0o644)
		_, err := execute(t, "tune", spec)
		if exitCode(err) != run.ExitBadInput {
			t.Fatalf("status %d: %v", exitCode(err), err)
		}
		for _, want := range c.want {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error lacks %q:\n%v", want, err)
			}
		}
	}
}
