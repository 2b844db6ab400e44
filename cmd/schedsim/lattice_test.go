package main

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/metrics"
	"github.com/schedsim/schedsim/policies/lattice"
	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/sim/run"
)

const latticeData = "../../testdata/lattice"

// tenantWaits replays the embedded KTH-SP2 log with the synthetic tenants
// of testdata/lattice/kth-tenants.yaml (SWF user id mod 4 → t0…t3, shares
// 0.1, 0.2, 0.3, 0.4) under profile, with the checker, and returns each
// tenant's mean wait in seconds.
func tenantWaits(t *testing.T, profile string) map[string]float64 {
	t.Helper()
	out := filepath.Join(t.TempDir(), "run")
	if _, err := execute(t, "replay", "--quiet", "--check", "--format", "csv", "--out", out,
		"--config", filepath.Join(latticeData, "kth-tenants.yaml"), "--profile", profile); err != nil {
		t.Fatalf("%s: %v", profile, err)
	}
	jobs := readJobsCSV(t, filepath.Join(out, "jobs.csv"))
	if len(jobs) != 28475 {
		t.Fatalf("%s: %d jobs", profile, len(jobs))
	}
	tenants := lattice.Tenants{Key: lattice.ByUser, Buckets: 4}
	sum, n := map[string]float64{}, map[string]float64{}
	for _, j := range jobs {
		if j["state"] == "rejected" {
			t.Fatalf("%s: job %s rejected: %s", profile, j["job_id"], j["reason"])
		}
		w, err := strconv.ParseFloat(j["wait_s"], 64)
		if err != nil {
			t.Fatal(err)
		}
		ten := tenants.Of(&sim.Job{User: j["user"]})
		sum[ten] += w
		n[ten]++
	}
	for k := range sum {
		sum[k] /= n[k]
	}
	return sum
}

// TestLatticeReplayProfiles: the fair-share weight moves waits the way it
// should. Over the whole log the tenants' demand is t0 17.9 %, t1 21.4 %,
// t2 23.1 %, t3 37.6 % of the cpu-seconds against shares of 10, 20, 30 and
// 40 %: t0 is the most over-served (share/demand 0.56), t2 the most
// under-served (1.30). Total usage is fixed by the trace, so the factor
// shows in who waits: the more weight on f₃, the longer t0 waits and the
// shorter t2 waits. Directions asserted, not numbers:
//
//   - every named profile with w₃ > 0 puts more of the waiting on t0
//     relative to t3 than sensitive (w₃ = 0) does;
//   - fair-heavy is hpc-batch with w₃ 0.2 → 0.6 and nothing else changed:
//     t0 waits longer and t2 shorter;
//   - fair-only against wait-only (one factor each): the same.
func TestLatticeReplayProfiles(t *testing.T) {
	needLong(t) // nine lattice replays of the whole log
	profiles := append(lattice.BuiltinNames(), "fair-heavy", "fair-only", "wait-only")
	waits := map[string]map[string]float64{}
	for _, p := range profiles {
		waits[p] = tenantWaits(t, p)
	}
	gap := func(p string) float64 { return waits[p]["t0"] - waits[p]["t3"] }
	for _, p := range lattice.BuiltinNames() {
		pr, _ := lattice.Builtin(p)
		t.Logf("%-12s w3=%.2f  mean wait t0 %5.0f s  t1 %5.0f s  t2 %5.0f s  t3 %5.0f s", p, pr.Weights[lattice.FFairShare],
			waits[p]["t0"], waits[p]["t1"], waits[p]["t2"], waits[p]["t3"])
		if pr.Weights[lattice.FFairShare] > 0 && gap(p) <= gap("sensitive") {
			t.Errorf("%s (w3 %.2f): wait(t0) − wait(t3) = %.0f s, not above sensitive's %.0f s", p, pr.Weights[lattice.FFairShare], gap(p), gap("sensitive"))
		}
	}
	for _, pair := range [][2]string{{"hpc-batch", "fair-heavy"}, {"wait-only", "fair-only"}} {
		lo, hi := pair[0], pair[1]
		t.Logf("%s → %s: wait t0 %.0f → %.0f s, t2 %.0f → %.0f s", lo, hi, waits[lo]["t0"], waits[hi]["t0"], waits[lo]["t2"], waits[hi]["t2"])
		if waits[hi]["t0"] <= waits[lo]["t0"] || waits[hi]["t2"] >= waits[lo]["t2"] {
			t.Errorf("%s → %s: t0 (over-served) should wait longer and t2 (under-served) shorter: t0 %.0f → %.0f, t2 %.0f → %.0f",
				lo, hi, waits[lo]["t0"], waits[hi]["t0"], waits[lo]["t2"], waits[hi]["t2"])
		}
	}
}

// TestLatticeFlags: --queue lattice, --profile and the lattice block are
// validated together; every problem is reported.
func TestLatticeFlags(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("profiles:\n  x:\n    weights: {speed: 1}\n  y:\n    weights: {priority: -1}\n"), 0o644)
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"--profile", "hpc-batch"}, []string{"--profile: weight profiles need --queue lattice"}},
		{[]string{"--queue", "lattice", "--profile", "nope"}, []string{`unknown profile "nope"`}},
		{[]string{"--queue", "bogus"}, []string{"lattice"}},
		{[]string{"--queue", "lattice", "--backfill", "conservative"}, []string{"holds one reservation"}},
		{[]string{"--queue", "lattice", "--placement", "spread"}, []string{"chooses nodes itself"}},
		{[]string{"--queue", "lattice", "--profile", bad}, []string{`line 3: profile x: unknown factor "speed"`, "line 5: profile y: weight priority is negative"}},
	} {
		_, err := execute(t, append([]string{"replay", "--quiet", "--out", filepath.Join(dir, "r")}, c.args...)...)
		if err == nil || exitCode(err) != run.ExitBadInput {
			t.Errorf("%v: %v, want bad input", c.args, err)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: error lacks %q:\n%v", c.args, w, err)
			}
		}
	}
	// A config with a lattice block but another queue is refused.
	cfg := filepath.Join(dir, "c.yaml")
	os.WriteFile(cfg, []byte("lattice: {cycle_s: 30, tenants: tribe}\n"), 0o644)
	if _, err := execute(t, "replay", "--quiet", "--config", cfg); err == nil || !strings.Contains(err.Error(), "lattice: this block is the arguments of --queue lattice") {
		t.Errorf("lattice block without the queue: %v", err)
	}
	if _, err := execute(t, "replay", "--quiet", "--config", cfg, "--queue", "lattice"); err == nil || !strings.Contains(err.Error(), `lattice: tenants: want user, group or queue, got "tribe"`) {
		t.Errorf("bad tenants: %v", err)
	}
}

// TestLatticeCycleAndPower replays a few hundred KTH jobs in cycle mode
// with a price series, a power budget on a cluster file and the checker;
// the run.yaml records the lattice block.
func TestLatticeCycleAndPower(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "run")
	if _, err := execute(t, "replay", "--quiet", "--check", "--format", "csv", "--out", out,
		"--config", filepath.Join(latticeData, "cycle-power.yaml")); err != nil {
		t.Fatal(err)
	}
	jobs := readJobsCSV(t, filepath.Join(out, "jobs.csv"))
	ids := make([]string, 0, len(jobs))
	for id := range jobs {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	started := 0
	for _, id := range ids {
		j := jobs[id]
		if j["start_s"] == "" {
			continue
		}
		started++
		s, _ := strconv.ParseFloat(j["start_s"], 64)
		if int64(s)%60 != 0 {
			t.Errorf("job %s starts at %s, not on a 60 s cycle tick", id, j["start_s"])
		}
	}
	if started == 0 {
		t.Fatal("nothing started")
	}
	// The cluster never draws more than the 3 kW budget (and the budget
	// binds: the draw reaches it).
	ts, err := os.ReadFile(filepath.Join(out, "timeseries.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(strings.NewReader(string(ts))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := slices.Index(rows[0], "power_w")
	peak := 0.0
	for _, r := range rows[1:] {
		w, _ := strconv.ParseFloat(r[col], 64)
		peak = max(peak, w)
	}
	if peak > 3000+1e-6 || peak < 2900 {
		t.Errorf("peak draw %.1f W, want ≤ 3000 and binding", peak)
	}
	runYAML, err := os.ReadFile(filepath.Join(out, "run.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(runYAML), "cycle_s: 60") {
		t.Errorf("run.yaml lacks the lattice block:\n%s", runYAML)
	}
}

// TestLatticePreemption replays testdata/lattice/preempt.yaml under the
// checker. low (class 1, 12 nodes, checkpoint every 10 s) runs from 0;
// peer (class 1, 1 node) arrives at 10 and may not preempt an equal
// class: it waits. high (class 5, 1 node) arrives at 25 and preempts low,
// which keeps 20 s and loses 5 s on 12 nodes (60 node-s = 1/60
// node-hour); high starts at 25, and peer takes one of the freed nodes in
// the same pass (25–45). low is queued again after the pass and resumes
// when all 12 nodes are free, at 45, with 80 s left: it ends at 125. The
// trace gives no checkpoint cost, so the overhead is 0.
func TestLatticePreemption(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	if _, err := execute(t, "replay", "--quiet", "--check", "--format", "csv", "--out", out,
		"--config", filepath.Join(latticeData, "preempt.yaml")); err != nil {
		t.Fatal(err)
	}
	jobs := readJobsCSV(t, filepath.Join(out, "jobs.csv"))
	for id, want := range map[string][3]string{"low": {"0", "125", "1"}, "peer": {"25", "45", "0"}, "high": {"25", "35", "0"}} {
		j := jobs[id]
		if got := [3]string{j["start_s"], j["end_s"], j["restarts"]}; got != want {
			t.Errorf("%s: start, end, restarts %v, want %v", id, got, want)
		}
	}
	row, err := metrics.ReadSummaryCSV(filepath.Join(out, "summary.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lost, _ := strconv.ParseFloat(row["lost_node_hours"], 64)
	if row["preemptions"] != "1" || row["lost_work_s"] != "5" || row["checkpoint_overhead_s"] != "0" || math.Abs(lost-60.0/3600) > 1e-9 {
		t.Errorf("summary: preemptions %s, lost_work_s %s, lost_node_hours %s, checkpoint_overhead_s %s; want 1, 5, 1/60, 0",
			row["preemptions"], row["lost_work_s"], row["lost_node_hours"], row["checkpoint_overhead_s"])
	}
	runYAML, err := os.ReadFile(filepath.Join(out, "run.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(runYAML), "preemption: true") {
		t.Errorf("run.yaml lacks preemption:\n%s", runYAML)
	}
}

// TestLatticeVClusters replays testdata/lattice/vclusters.yaml under the
// checker: big (vCluster b by its label, 3 nodes) borrows one of a's two
// nodes at 0; home (queue a, 2 nodes) arrives at 25 and reclaims it: big
// is preempted (keeps 20 s, loses 5 on 3 nodes), home runs 25–35, big
// resumes at 35 on b's nodes and the borrowed one again, ending at 115.
func TestLatticeVClusters(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	if _, err := execute(t, "replay", "--quiet", "--check", "--format", "csv", "--out", out,
		"--config", filepath.Join(latticeData, "vclusters.yaml")); err != nil {
		t.Fatal(err)
	}
	jobs := readJobsCSV(t, filepath.Join(out, "jobs.csv"))
	for id, want := range map[string][4]string{"big": {"0", "115", "1", "0,2-3"}, "home": {"25", "35", "0", "0-1"}} {
		j := jobs[id]
		if got := [4]string{j["start_s"], j["end_s"], j["restarts"], j["node_list"]}; got != want {
			t.Errorf("%s: start, end, restarts, nodes %v, want %v", id, got, want)
		}
	}
	row, err := metrics.ReadSummaryCSV(filepath.Join(out, "summary.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if row["preemptions"] != "1" || row["lost_work_s"] != "5" {
		t.Errorf("summary: preemptions %s, lost_work_s %s; want 1, 5", row["preemptions"], row["lost_work_s"])
	}
	// The ownership table records every change of holder.
	own, err := os.ReadFile(filepath.Join(out, "ownership.csv"))
	if err != nil {
		t.Fatal(err)
	}
	// a0 (home a) is lent to b at 0, reclaimed by a at 25, lent again when
	// a's job ends at 35, and back home when b's job ends at 115.
	want := "time_s,node,holder\n0,a0,b\n25,a0,a\n35,a0,b\n115,a0,a\n"
	if string(own) != want {
		t.Errorf("ownership table:\n%s\nwant:\n%s", own, want)
	}
}
