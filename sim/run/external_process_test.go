package run

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/schedsim/schedsim/policies/external/refsched"
)

// TestMain lets this test binary be the scheduler process a run starts
// (scheduler_command): with SCHEDSIM_REFSCHED=1 it is the test scheduler.
func TestMain(m *testing.M) {
	if os.Getenv("SCHEDSIM_REFSCHED") == "1" {
		os.Exit(refsched.Main(os.Args[1:], os.Stderr))
	}
	os.Exit(m.Run())
}

// refschedCommand is a scheduler_command that starts the test scheduler.
func refschedCommand(args string) string {
	return fmt.Sprintf("env SCHEDSIM_REFSCHED=1 '%s' -endpoint tcp://127.0.0.1:{port} %s", os.Args[0], args)
}

// TestExternalCommand: schedsim starts the scheduler on a free port,
// the run equals the one over an in-process scheduler, and the process
// has exited when the replay returns; its output is in scheduler.log.
func TestExternalCommand(t *testing.T) {
	dir := t.TempDir()
	c := Default()
	c.Trace, c.Platform, c.Format = batsimData+"medium_late_head.json", batsimData+"platform_head.xml", "csv"
	own := c
	if err := replayInto(t, own, filepath.Join(dir, "own"), Options{}); err != nil {
		t.Fatal(err)
	}
	pidfile := filepath.Join(dir, "pid")
	c.SchedulerCommand = refschedCommand("-algo easy -pidfile " + pidfile)
	if err := replayInto(t, c, filepath.Join(dir, "ext"), Options{}); err != nil {
		t.Fatal(err)
	}
	sameStarts(t, jobStarts(t, filepath.Join(dir, "own")), jobStarts(t, filepath.Join(dir, "ext")))
	log, err := os.ReadFile(filepath.Join(dir, "ext", "scheduler.log"))
	if err != nil || !strings.Contains(string(log), "refsched: simulation ended") {
		t.Errorf("scheduler.log: %q, %v", log, err)
	}
	assertGone(t, pidfile)
}

// assertGone checks that the process of a pid file no longer exists.
func assertGone(t *testing.T, pidfile string) {
	t.Helper()
	b, err := os.ReadFile(pidfile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(string(b))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("the scheduler process %d is still there (kill 0: %v)", pid, err)
	}
}

// TestExternalProcessFaults: a scheduler killed mid-run, and one that
// hangs until the reply timeout and is then stopped by its pid.
func TestExternalProcessFaults(t *testing.T) {
	for _, tc := range []struct {
		name, args string
		want       []string
	}{
		{"killed", "-die-after 2", []string{"the reply to the message of t=6 s (JOB_SUBMITTED)", "exited (signal: killed) before it replied",
			`"{\"now\":6,`, "refsched: dying on request 3"}},
		{"hangs", "-hang-after 2", []string{"the reply to the message of t=6 s (JOB_SUBMITTED)", "no reply within 1s", `"{\"now\":6,`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			c := Default()
			c.Trace, c.Platform, c.Format = batsimData+"test_delays.json", batsimData+"small_platform.xml", "csv"
			c.SchedulerTimeoutS = 1
			pidfile := filepath.Join(dir, "pid")
			c.SchedulerCommand = refschedCommand("-algo easy -pidfile " + pidfile + " " + tc.args)
			out := filepath.Join(dir, "runs", "run")
			err := replayInto(t, c, out, Options{})
			if ExitCode(err) != ExitBadInput {
				t.Fatalf("exit %d, want 2: %v", ExitCode(err), err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("the error lacks %q:\n%v", w, err)
				}
			}
			if entries, _ := os.ReadDir(filepath.Dir(out)); len(entries) > 0 {
				t.Errorf("a failed run left %s behind", entries[0].Name())
			}
			assertGone(t, pidfile)
		})
	}
}
