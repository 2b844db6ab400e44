package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/internal/runcmp"
)

// TestSweepExternalScheduler: a sweep of two runs, each starting its own
// Python scheduler process on a port of its own (scheduler_command with
// {port}); both runs are driven by it and it ends with each.
func TestSweepExternalScheduler(t *testing.T) {
	if err := exec.Command("/usr/bin/python3", "-c", "import zmq").Run(); err != nil {
		t.Skip("no /usr/bin/python3 with zmq (apt-get install python3-zmq)")
	}
	script, err := filepath.Abs("../../docs/examples/batsim_easy.py")
	if err != nil {
		t.Fatal(err)
	}
	data, err := filepath.Abs("../../testdata/batsim")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	spec := filepath.Join(dir, "external.yaml")
	os.WriteFile(spec, []byte(`name: external
traces:
  - {name: delays, path: `+data+`/test_delays.json}
  - {name: medium, path: `+data+`/medium_late_head.json}
clusters:
  - {name: small, platform: `+data+`/small_platform.xml}
replay:
  scheduler_command: "/usr/bin/python3 `+script+` --endpoint tcp://127.0.0.1:{port}"
  format: csv
`), 0o644)
	out := filepath.Join(dir, "out")
	if stdout, err := execute(t, "sweep", spec, "--out", out, "--workers", "2"); err != nil {
		t.Fatalf("sweep: %v\n%s", err, stdout)
	}
	rows := runcmp.ReadCSV(t, filepath.Join(out, "summary.csv"))
	if len(rows) != 3 {
		t.Fatalf("%d lines, want a header and 2 runs", len(rows))
	}
	col := map[string]int{}
	for i, name := range rows[0] {
		col[name] = i
	}
	for _, row := range rows[1:] {
		if row[col["queue"]] != "external" || row[col["jobs_unfinished"]] != "0" {
			t.Errorf("run %s: queue %s, unfinished %s", row[0], row[col["queue"]], row[col["jobs_unfinished"]])
		}
		log, err := os.ReadFile(filepath.Join(out, row[col["run_dir"]], "scheduler.log"))
		if err != nil || !strings.Contains(string(log), "simulation ended") {
			t.Errorf("run %s: scheduler.log %q, %v", row[0], log, err)
		}
	}
}
