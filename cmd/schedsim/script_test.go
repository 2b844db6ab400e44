package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestScriptReplay runs the README's scriptlet example end to end: the
// script places jobs, rejects by name, and a runaway script rejects the
// job with the budget's reason instead of hanging.
func TestScriptReplay(t *testing.T) {
	dir := t.TempDir()
	trace, cluster := "../../testdata/native/placement.jsonl", "../../testdata/clusters/racks.yaml"
	rejector := filepath.Join(dir, "reject.star")
	os.WriteFile(rejector, []byte(`
def instance_placement(request, candidate_members):
    if request.name == "web-1":
        log_warn("no web today")
        return "web jobs are not welcome"
`), 0o644)
	out := filepath.Join(dir, "a")
	if _, err := execute(t, "replay", "--quiet", "--trace", trace, "--cluster", cluster, "--script", rejector,
		"--check", "--format", "csv", "--out", out); err != nil {
		t.Fatal(err)
	}
	jobs := readJobsCSV(t, filepath.Join(out, "jobs.csv"))
	if j := jobs["web-1"]; j["state"] != "rejected" || j["reason"] != "web jobs are not welcome" {
		t.Errorf("web-1: %s %q", j["state"], j["reason"])
	}
	if j := jobs["db-1"]; j["state"] != "completed" {
		t.Errorf("db-1 falls back to the strategy and runs, got %s", j["state"])
	}
	log, err := os.ReadFile(filepath.Join(out, "script.log"))
	if err != nil || !strings.Contains(string(log), "warn job=web-1") {
		t.Errorf("script.log: %q, %v", log, err)
	}

	loop := filepath.Join(dir, "loop.star")
	os.WriteFile(loop, []byte("def instance_placement(request, candidate_members):\n    while True:\n        pass\n"), 0o644)
	out = filepath.Join(dir, "b")
	if _, err := execute(t, "replay", "--quiet", "--trace", trace, "--cluster", cluster, "--script", loop,
		"--format", "csv", "--out", out); err != nil {
		t.Fatal(err)
	}
	if j := readJobsCSV(t, filepath.Join(out, "jobs.csv"))["db-1"]; !strings.HasPrefix(j["reason"], "script: step budget exceeded") {
		t.Errorf("runaway script: %q", j["reason"])
	}
	// on_error: stop ends the run with the script's error, and no files.
	cfg := filepath.Join(dir, "stop.yaml")
	os.WriteFile(cfg, []byte("script: {path: "+loop+", on_error: stop, step_budget: 5000}\n"), 0o644)
	out = filepath.Join(dir, "c")
	_, err = execute(t, "replay", "--quiet", "--config", cfg, "--trace", trace, "--cluster", cluster, "--out", out)
	if err == nil || !strings.Contains(err.Error(), "step budget exceeded") {
		t.Errorf("on_error stop: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "summary.csv")); err == nil {
		t.Error("a stopped run left a summary")
	}
}
