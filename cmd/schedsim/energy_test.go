package main

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/schedsim/schedsim/internal/runcmp"
	"github.com/schedsim/schedsim/metrics"
)

// jobsCSV reads a run's jobs.csv as one map per row.
func jobsCSV(t *testing.T, dir string) []map[string]string {
	t.Helper()
	return runcmp.ReadRecords(t, filepath.Join(dir, "jobs.csv"))
}

func num(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%q is not a number", s)
	}
	return v
}

func closeTo(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// TestMediumLateEnergy: the Batsim medium_late workload on its platform
// (128 compute hosts; watt_per_state of pstate 0 "95.0:95.0:190.738": idle
// 95 W, every core busy 190.738 W). A job asks res whole hosts, each task
// host: 1, the power resource, so a host with a task draws 190.738 W.
// Between events the draw is constant, so the energy is, piece by piece,
//
//	E = 128 hosts · 95 W · makespan
//	  + Σ_jobs nodes · (190.738 − 95) W · (end − start)
//
// recomputed here from the jobs table, and it must equal the summary's
// energy_j (and the nodes table's sum).
func TestMediumLateEnergy(t *testing.T) {
	needShared(t)
	dir := filepath.Join(shared, "batsim", "medium_late")
	out := filepath.Join(t.TempDir(), "run")
	if _, err := execute(t, "replay", "--quiet", "--check", "--format", "csv", "--trace", filepath.Join(dir, "medium_late.json"),
		"--platform", filepath.Join(dir, "platform.xml"), "--out", out); err != nil {
		t.Fatal(err)
	}
	sum, err := metrics.ReadSummaryCSV(filepath.Join(out, "summary.csv"))
	if err != nil {
		t.Fatal(err)
	}
	makespan := num(t, sum["makespan_s"])
	want := 128 * 95 * makespan
	var busy float64 // Σ nodes · (end − start), host-seconds
	for _, j := range jobsCSV(t, out) {
		if j["state"] == "rejected" {
			continue
		}
		busy += num(t, j["nodes"]) * (num(t, j["end_s"]) - num(t, j["start_s"]))
	}
	want += (190.738 - 95) * busy
	if got := num(t, sum["energy_j"]); !closeTo(got, want) {
		t.Errorf("energy_j %g, by hand %g (makespan %g s, %g busy host-seconds)", got, want, makespan, busy)
	}
	var nodesJ float64
	for _, n := range runcmp.ReadRecords(t, filepath.Join(out, "nodes.csv")) {
		nodesJ += num(t, n["energy_j"])
	}
	if !closeTo(nodesJ, want) {
		t.Errorf("nodes table: %g J, by hand %g", nodesJ, want)
	}
}

// TestMediumLatePowerDown: the same replay with hosts switched off after
// 600 s idle (sleep_pstates 13:14:15: asleep 9.75 W; off 6.1 s at
// 100.996721311 W; on 151.52 s at 125.1743849 W). The invariants hold
// (the checker verifies that every run begins exactly when its last host
// is on), energy falls, and job 424242, alone at 16000 s after a 5240 s
// gap when every host sleeps, waits exactly the switch-on time, 151.52 s.
// The energy still follows piece by piece from the nodes table.
func TestMediumLatePowerDown(t *testing.T) {
	needShared(t)
	dir := filepath.Join(shared, "batsim", "medium_late")
	runs := map[string]string{}
	for _, pd := range []string{"-1", "600"} {
		out := filepath.Join(t.TempDir(), "pd"+pd)
		if _, err := execute(t, "replay", "--quiet", "--check", "--format", "csv", "--trace", filepath.Join(dir, "medium_late.json"),
			"--platform", filepath.Join(dir, "platform.xml"), "--power-down", pd, "--out", out); err != nil {
			t.Fatal(err)
		}
		runs[pd] = out
	}
	on, err := metrics.ReadSummaryCSV(filepath.Join(runs["-1"], "summary.csv"))
	if err != nil {
		t.Fatal(err)
	}
	down, err := metrics.ReadSummaryCSV(filepath.Join(runs["600"], "summary.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if num(t, down["energy_j"]) >= num(t, on["energy_j"]) || down["switch_offs"] == "0" || on["switch_offs"] != "0" {
		t.Errorf("energy always on %s J, powered down %s J (%s switch-offs)", on["energy_j"], down["energy_j"], down["switch_offs"])
	}
	for _, j := range jobsCSV(t, runs["600"]) {
		if j["job_id"] == "424242" && j["wait_s"] != "151.52" {
			t.Errorf("job 424242 waits %s s, want 151.52", j["wait_s"])
		}
	}
	// Per node: 95 W on, 9.75 W asleep, the switches' draws, and the
	// dynamic part; the nodes add up to the summary.
	var nodesJ float64
	for _, n := range runcmp.ReadRecords(t, filepath.Join(runs["600"], "nodes.csv")) {
		nodesJ += num(t, n["energy_j"])
	}
	if got := num(t, down["energy_j"]); !closeTo(got, nodesJ) {
		t.Errorf("summary %g J, nodes table %g J", got, nodesJ)
	}
	t.Logf("medium_late energy: always on %s J, power-down after 600 s %s J (%s switch-offs, %s s asleep); mean wait %s → %s s",
		on["energy_j"], down["energy_j"], down["switch_offs"], down["node_asleep_s"], on["mean_wait_s"], down["mean_wait_s"])
}

// TestPowerDownDeterministic: the same power-down run twice gives the same
// bytes in every table.
func TestPowerDownDeterministic(t *testing.T) {
	needShared(t)
	dir := filepath.Join(shared, "batsim", "medium_late")
	var outs [2]string
	for i := range outs {
		outs[i] = filepath.Join(t.TempDir(), "run")
		if _, err := execute(t, "replay", "--quiet", "--format", "csv", "--trace", filepath.Join(dir, "medium_late.json"),
			"--platform", filepath.Join(dir, "platform.xml"), "--power-down", "300", "--out", outs[i]); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"jobs.csv", "timeseries.csv", "nodes.csv"} {
		a, errA := os.ReadFile(filepath.Join(outs[0], f))
		b, errB := os.ReadFile(filepath.Join(outs[1], f))
		if errA != nil || errB != nil || string(a) != string(b) {
			t.Errorf("%s differs between two identical runs", f)
		}
	}
}
