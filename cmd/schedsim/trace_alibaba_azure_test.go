package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/internal/runcmp"
	"github.com/schedsim/schedsim/sim/run"
)

// replayTwice replays args into two directories and checks that every
// table is byte-identical (summary.csv but its wall-clock columns).
func replayTwice(t *testing.T, args ...string) string {
	t.Helper()
	dirs := [2]string{filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")}
	for _, d := range dirs {
		full := append([]string{"replay", "--quiet", "--check", "--format", "csv", "--out", d}, args...)
		if _, err := execute(t, full...); err != nil {
			t.Fatal(err)
		}
	}
	for _, table := range []string{"jobs.csv", "timeseries.csv", "nodes.csv"} {
		a, _ := os.ReadFile(filepath.Join(dirs[0], table))
		b, _ := os.ReadFile(filepath.Join(dirs[1], table))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s differs between two runs (or is empty)", table)
		}
	}
	if a, b := maskedSummary(t, dirs[0]), maskedSummary(t, dirs[1]); a != b {
		t.Errorf("summary.csv differs beyond wall-clock columns:\n%s\n%s", a, b)
	}
	return dirs[0]
}

// TestAlibabaReplay replays the sample directory on its machine_meta
// cluster under the checker. With the instances, j_1's DAG runs as
// (all on free machines, so no queue wait):
//
//	M1      100 → 149  (longest instance 150 − 101 = 49 s)
//	M2_1    149 → 179  (30 s), M3_1 149 → 209 (60 s)
//	R4_2    179 → 234  (after M2_1, 55 s)
//	M5_3_4  234 → 269  (after M3_1 and R4_2, 35 s)
//
// A released task's submit_s is its release time. Machine m_4 joins at
// 200 s: down 200 s.
func TestAlibabaReplay(t *testing.T) {
	out := replayTwice(t, "--trace", "../../testdata/alibaba")
	jobs := readJobsCSV(t, filepath.Join(out, "jobs.csv"))
	if len(jobs) != 14 {
		t.Errorf("%d jobs, want the sample's 14 tasks", len(jobs))
	}
	for id, w := range map[string][3]string{ // submit_s, start_s, end_s
		"j_1/M1": {"100", "100", "149"}, "j_1/M2_1": {"149", "149", "179"}, "j_1/M3_1": {"149", "149", "209"},
		"j_1/R4_2": {"179", "179", "234"}, "j_1/M5_3_4": {"234", "234", "269"},
	} {
		j := jobs[id]
		if got := [3]string{j["submit_s"], j["start_s"], j["end_s"]}; got != w || j["state"] != "completed" {
			t.Errorf("%s: %v %s, want %v completed", id, got, j["state"], w)
		}
	}
	for _, n := range nodeRows(t, filepath.Join(out, "nodes.csv")) {
		want := "0"
		if n["node"] == "m_4" {
			want = "200"
		}
		if n["downtime_s"] != want {
			t.Errorf("node %s down %s s, want %s", n["node"], n["downtime_s"], want)
		}
	}
	// The batch_task table alone, on a cluster file: task runtimes.
	out = replayTwice(t, "--trace", "../../testdata/alibaba/batch_task.csv", "--cluster", "../../testdata/clusters/small.yaml")
	if j := readJobsCSV(t, filepath.Join(out, "jobs.csv"))["j_1/M1"]; j["end_s"] != "160" {
		t.Errorf("batch_task alone: j_1/M1 ends at %s, want 160 (100 + 60)", j["end_s"])
	}
}

// TestAzureReplay replays the sample VM table on the example cluster.
func TestAzureReplay(t *testing.T) {
	out := replayTwice(t, "--trace", "../../testdata/azure/vmtable.csv", "--cluster", "../../testdata/azure/cluster.yaml",
		"--placement", "least-allocated")
	jobs := readJobsCSV(t, filepath.Join(out, "jobs.csv"))
	if len(jobs) != 24 {
		t.Errorf("%d jobs, want the sample's 24 VMs", len(jobs))
	}
	for id, j := range jobs {
		if j["state"] != "completed" {
			t.Errorf("VM %.8s: %s %s", id, j["state"], j["reason"])
		}
	}
}

// TestCloudTraceInputErrors: what a user gets wrong is exit status 2 with
// a message naming the file.
func TestCloudTraceInputErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "batch_task.csv")
	os.WriteFile(bad, []byte("M1,1,j_1,1,Terminated,100,160,100,0.39\nM,1,j_1,1,Terminated,100,160,100,0.39\n"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--trace", "../../testdata/azure/vmtable.csv"}, "carries no cluster"},
		{[]string{"--trace", "../../testdata/alibaba/batch_task.csv"}, "no machine_meta.csv"},
		{[]string{"--trace", bad, "--cluster", "../../testdata/clusters/small.yaml", "--strict"}, "batch_task.csv:2: field task_name"},
	} {
		_, err := execute(t, append([]string{"replay", "--quiet", "--out", filepath.Join(dir, "out")}, c.args...)...)
		if exitCode(err) != run.ExitBadInput || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v (exit %d), want %q", c.args, err, exitCode(err), c.want)
		}
	}
}

// nodeRows reads a nodes.csv table, one map a node.
func nodeRows(t *testing.T, path string) []map[string]string {
	t.Helper()
	out := runcmp.ReadRecords(t, path)
	if len(out) == 0 {
		t.Fatalf("%s: no rows", path)
	}
	return out
}
