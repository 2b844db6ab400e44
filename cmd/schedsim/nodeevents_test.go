package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/metrics"
)

// TestFailureModelReplay replays the embedded log on its nodes with random
// node failures under the checker: every job ends up completed, killed at
// its walltime or reported unfinished (none is lost), restarts happen, and
// the nodes table's downtime adds up to the summary's.
func TestFailureModelReplay(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "run")
	if _, err := execute(t, "replay", "--quiet", "--swf-model", "nodes", "--mtbf", "3000000", "--mttr", "20000",
		"--checkpoint", "900", "--seed", "11", "--check", "--format", "csv", "--out", out); err != nil {
		t.Fatal(err)
	}
	row, err := metrics.ReadSummaryCSV(filepath.Join(out, "summary.csv"))
	if err != nil {
		t.Fatal(err)
	}
	n := func(k string) float64 { v, _ := strconv.ParseFloat(row[k], 64); return v }
	if n("jobs_completed")+n("jobs_killed")+n("jobs_rejected")+n("jobs_unfinished") != n("jobs") {
		t.Errorf("jobs do not add up: %v", row)
	}
	if n("restarts") == 0 || n("lost_work_s") <= 0 || n("node_downtime_s") <= 0 {
		t.Errorf("no failure effect: restarts %v lost %v downtime %v", row["restarts"], row["lost_work_s"], row["node_downtime_s"])
	}
	jobs := readJobsCSV(t, filepath.Join(out, "jobs.csv"))
	restarts := 0.0
	for _, j := range jobs {
		r, _ := strconv.ParseFloat(j["restarts"], 64)
		restarts += r
	}
	if restarts != n("restarts") {
		t.Errorf("jobs table has %v restarts, summary %v", restarts, n("restarts"))
	}
	nodes, err := os.ReadFile(filepath.Join(out, "nodes.csv"))
	if err != nil {
		t.Fatal(err)
	}
	down := sumColumn(t, string(nodes), "downtime_s")
	if d := down - n("node_downtime_s"); d > 1e-6*down || d < -1e-6*down {
		t.Errorf("nodes table downtime %v, summary %v", down, n("node_downtime_s"))
	}
}

// sumColumn adds up one column of a CSV table.
func sumColumn(t *testing.T, table, column string) float64 {
	t.Helper()
	rows, err := csv.NewReader(strings.NewReader(table)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	idx := slices.Index(rows[0], column)
	if idx < 0 {
		t.Fatalf("no column %s", column)
	}
	sum := 0.0
	for _, r := range rows[1:] {
		v, _ := strconv.ParseFloat(r[idx], 64)
		sum += v
	}
	return sum
}

// TestCheckpointLabels: a native job's labels checkpoint_s and
// checkpoint_cost_s set its checkpoints. j1 runs on node0 from 0 for 100 s,
// checkpointing every 30 s; node0 fails at 70: 60 s are kept, 10 lost; it
// resumes on node1 at once with 40 s left plus a 5 s restore: it ends at
// 115.
func TestCheckpointLabels(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "jobs.jsonl")
	os.WriteFile(trace, []byte(`{"id": "j1", "submit_s": 0, "runtime_s": 100, "tasks": 1, "request": {"cpu": 16}, "labels": {"checkpoint_s": "30", "checkpoint_cost_s": "5"}}`+"\n"), 0o644)
	events := filepath.Join(dir, "events.csv")
	os.WriteFile(events, []byte("time_s,node,event\n70,node0,fail\n"), 0o644)
	out := filepath.Join(dir, "run")
	if _, err := execute(t, "replay", "--quiet", "--trace", trace, "--cluster", "../../testdata/clusters/small.yaml",
		"--node-events", events, "--check", "--format", "csv", "--out", out); err != nil {
		t.Fatal(err)
	}
	j := readJobsCSV(t, filepath.Join(out, "jobs.csv"))["j1"]
	if j["end_s"] != "115" || j["restarts"] != "1" || j["lost_work_s"] != "10" {
		t.Errorf("j1: end %s restarts %s lost %s, want 115, 1, 10", j["end_s"], j["restarts"], j["lost_work_s"])
	}
	row, err := metrics.ReadSummaryCSV(filepath.Join(out, "summary.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if row["checkpoint_overhead_s"] != "5" {
		t.Errorf("checkpoint overhead %s, want 5", row["checkpoint_overhead_s"])
	}
}

// TestMaxRestartsReplay replays the embedded log under a failure rate
// that its largest jobs cannot outrun without checkpoints: with
// --max-restarts 2 (under the checker) the run ends, some jobs are killed
// after 2 restarts and none restarted more; a negative cap is refused.
func TestMaxRestartsReplay(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	if _, err := execute(t, "replay", "--quiet", "--swf-model", "nodes", "--mtbf", "100000", "--mttr", "3600",
		"--max-restarts", "2", "--seed", "3", "--check", "--format", "csv", "--out", out); err != nil {
		t.Fatal(err)
	}
	gaveUp := 0
	for id, j := range readJobsCSV(t, filepath.Join(out, "jobs.csv")) {
		if r, _ := strconv.Atoi(j["restarts"]); r > 2 {
			t.Errorf("job %s restarted %d times", id, r)
		}
		if j["reason"] == "node failure after 2 restarts" {
			gaveUp++
			if j["state"] != "killed" || j["restarts"] != "2" {
				t.Errorf("job %s: state %s, restarts %s", id, j["state"], j["restarts"])
			}
		}
	}
	if gaveUp == 0 {
		t.Error("no job was killed after 2 restarts")
	}
	_, err := execute(t, "replay", "--quiet", "--max-restarts", "-1", "--out", filepath.Join(t.TempDir(), "bad"))
	if err == nil || !strings.Contains(err.Error(), "--max-restarts: want ≥ 0") {
		t.Errorf("--max-restarts -1: got %v", err)
	}
}
