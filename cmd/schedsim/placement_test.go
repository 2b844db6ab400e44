package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/internal/runcmp"
	"github.com/schedsim/schedsim/sim/run"
)

// readJobsCSV returns the jobs table as job id → column → value.
func readJobsCSV(t *testing.T, path string) map[string]map[string]string {
	t.Helper()
	out := map[string]map[string]string{}
	for _, m := range runcmp.ReadRecords(t, path) {
		out[m["job_id"]] = m
	}
	return out
}

// TestPlacementReplay replays the README's placement example: a cluster
// with racks, taints, a ward and entitlements, and jobs carrying their own
// constraints, under least-allocated with EASY and the checker; it also
// reads the placement block of a config file.
func TestPlacementReplay(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "run.yaml")
	abs := func(p string) string { a, _ := filepath.Abs(p); return a }
	os.WriteFile(cfg, []byte("trace: "+abs("../../testdata/native/placement.jsonl")+"\ncluster: "+abs("../../testdata/clusters/racks.yaml")+
		"\nbackfill: easy\nformat: csv\nout: out\ncheck: true\nexplain: true\nplacement:\n  strategy: least-allocated\n  resources: {cpu: 1}\n"), 0o644)
	if _, err := execute(t, "replay", "--quiet", "--config", cfg); err != nil {
		t.Fatal(err)
	}
	jobs := readJobsCSV(t, filepath.Join(dir, "out", "jobs.csv"))
	want := map[string]string{
		"train-1": "8", // the only GPU host, whose taint it tolerates
		"probe-1": "9", // the quarantine host: immune to its ward, allowed by avoid: 0, arm64
		"db-1":    "4", // zone b, an exclusive host: the emptiest b host is b0
	}
	for id, nodes := range want {
		if got := jobs[id]["node_list"]; got != nodes || jobs[id]["state"] != "completed" {
			t.Errorf("%s: %s on %q, want completed on %q", id, jobs[id]["state"], got, nodes)
		}
	}
	// batch-1's four tasks need member group batch: only a0…a3 have it.
	if got := jobs["batch-1"]["node_list"]; got != "0-3" {
		t.Errorf("batch-1 on %q, want 0-3", got)
	}
	lost := jobs["lost-1"]
	if lost["state"] != "rejected" || !strings.Contains(lost["reason"], "selector") {
		t.Errorf("lost-1: %s, %q; want rejected by the selector", lost["state"], lost["reason"])
	}
	if _, err := os.Stat(filepath.Join(dir, "out", "decisions.csv")); err != nil {
		t.Error(err)
	}
	// Errors in the placement block are reported with their line.
	os.WriteFile(cfg, []byte("placement:\n  strategy: binpack\n  rubrik: {cpu: 1}\n"), 0o644)
	_, err := execute(t, "replay", "--config", cfg)
	if exitCode(err) != run.ExitBadInput || !strings.Contains(err.Error(), `run.yaml:3: unknown key "placement.rubrik"`) {
		t.Errorf("unknown placement key: got %v", err)
	}
}
