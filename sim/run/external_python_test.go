package run

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// pythonScheduler is the Python EASY scheduler of the docs.
const pythonScheduler = "../../docs/examples/batsim_easy.py"

// needPythonZMQ skips a test where Debian's python3-zmq is missing (CI
// installs it).
func needPythonZMQ(t *testing.T) {
	t.Helper()
	if err := exec.Command("/usr/bin/python3", "-c", "import zmq").Run(); err != nil {
		t.Skip("no /usr/bin/python3 with zmq (apt-get install python3-zmq)")
	}
}

// TestExternalPythonEqualsOwn: the Python scheduler, started by schedsim,
// starts every job when schedsim's own fcfs with backfill none or easy
// does, on the Batsim fixtures and 2,000 jobs of KTH-SP2 in both SWF
// models.
func TestExternalPythonEqualsOwn(t *testing.T) {
	needPythonZMQ(t)
	script, err := filepath.Abs(pythonScheduler)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, trace, platform, model, backfill, args string
	}{
		{"walltime-easy", batsimData + "test_walltime.json", batsimData + "small_platform.xml", "", "easy", ""},
		{"medium-easy", batsimData + "medium_late_head.json", batsimData + "platform_head.xml", "", "easy", ""},
		{"medium512-none", batsimData + "medium_late_head.json", batsimData + "cluster512.xml", "", "none", "--no-backfill"},
		{"kth-pool-easy", smallTrace, "", "pool", "easy", "--count"},
		{"kth-nodes-easy", smallTrace, "", "nodes", "easy", ""},
		{"kth-nodes-none", smallTrace, "", "nodes", "none", "--no-backfill"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			c := Default()
			c.Trace, c.Platform, c.Format = tc.trace, tc.platform, "csv"
			if tc.model != "" {
				c.SWFModel = tc.model
			}
			own := c
			own.Backfill = tc.backfill
			if err := replayInto(t, own, filepath.Join(dir, "own"), Options{}); err != nil {
				t.Fatal(err)
			}
			c.SchedulerCommand = "/usr/bin/python3 " + script + " --endpoint tcp://127.0.0.1:{port} " + tc.args
			if err := replayInto(t, c, filepath.Join(dir, "py"), Options{}); err != nil {
				t.Fatal(err)
			}
			sameStarts(t, jobStarts(t, filepath.Join(dir, "own")), jobStarts(t, filepath.Join(dir, "py")))
			log, _ := os.ReadFile(filepath.Join(dir, "py", "scheduler.log"))
			if !strings.Contains(string(log), "simulation ended") {
				t.Errorf("scheduler.log: %q", log)
			}
		})
	}
}
