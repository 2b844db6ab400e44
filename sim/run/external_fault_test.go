package run

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/policies/external/refsched"
)

var updateTranscript = flag.Bool("update-transcript", false, "rewrite testdata/external/*.golden")

// TestExternalTranscript pins every message of a small replay driven by
// the test scheduler: test_walltime.json (jobs killed at their walltime,
// jobs without one) on Batsim's small platform.
func TestExternalTranscript(t *testing.T) {
	c := Default()
	c.Trace, c.Platform, c.Format = batsimData+"test_walltime.json", batsimData+"small_platform.xml", "csv"
	var done <-chan error
	c.Scheduler, done = serveRef(t, refsched.Config{Algorithm: "easy"}, nil)
	var transcript bytes.Buffer
	if err := replayInto(t, c, filepath.Join(t.TempDir(), "run"), Options{SchedulerTranscript: &transcript}); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	// The trace's path is the workload's in SIMULATION_BEGINS: keep its
	// name only, the same on every machine.
	got := bytes.ReplaceAll(transcript.Bytes(), []byte(`"w0":"`+c.Trace+`"`), []byte(`"w0":"test_walltime.json"`))
	golden := "../../testdata/external/test_walltime.transcript"
	if *updateTranscript {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("transcript line %d:\n got %s\nwant %s", i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("transcript has %d lines, the golden file %d", len(gl), len(wl))
	}
}

// faultRun replays test_delays.json with the test scheduler whose n-th
// reply mangle replaces, and returns the error; the run must leave no
// directory.
func faultRun(t *testing.T, timeoutS float64, mangle func(n int, reply []byte) []byte) error {
	t.Helper()
	c := Default()
	c.Trace, c.Platform, c.Format = batsimData+"test_delays.json", batsimData+"small_platform.xml", "csv"
	c.SchedulerTimeoutS = timeoutS
	c.Scheduler, _ = serveRef(t, refsched.Config{Algorithm: "easy"}, mangle)
	out := filepath.Join(t.TempDir(), "run")
	err := replayInto(t, c, out, Options{})
	if err == nil {
		t.Fatal("the run succeeded")
	}
	if ExitCode(err) != ExitBadInput {
		t.Errorf("exit %d, want 2: %v", ExitCode(err), err)
	}
	if _, serr := os.Stat(out); !errors.Is(serr, os.ErrNotExist) {
		t.Errorf("a failed run left %s behind", out)
	}
	entries, _ := os.ReadDir(filepath.Dir(out))
	for _, e := range entries {
		t.Errorf("a failed run left %s behind", e.Name())
	}
	return err
}

// at replaces the n-th reply by the result of f.
func at(n int, f func(reply []byte) []byte) func(int, []byte) []byte {
	return func(i int, reply []byte) []byte {
		if i == n {
			return f(reply)
		}
		return reply
	}
}

func constant(s string) func([]byte) []byte { return func([]byte) []byte { return []byte(s) } }

func TestExternalFaults(t *testing.T) {
	for _, tc := range []struct {
		name   string
		mangle func(int, []byte) []byte
		want   []string
	}{
		{"malformed JSON", at(1, constant(`{"now": 3, "events": [`)),
			[]string{"the reply to the message of t=3 s (JOB_SUBMITTED)", "malformed JSON", `"{\"now\": 3, \"events\": ["`}},
		{"unknown job", at(1, constant(`{"now":3,"events":[{"timestamp":3,"type":"EXECUTE_JOB","data":{"job_id":"w0!77","alloc":"0"}}]}`)),
			[]string{"event 0 (EXECUTE_JOB) of the reply to the message of t=3 s", `unknown job "w0!77"`, `w0!77`}},
		{"busy host", at(1, constant(`{"now":3,"events":[{"timestamp":3,"type":"EXECUTE_JOB","data":{"job_id":"w0!1","alloc":"0"}}]}`)),
			[]string{"event 0 (EXECUTE_JOB)", `resource 0 (Jupiter) is busy: job "w0!0" runs on it`}},
		{"non-existent host", at(1, constant(`{"now":3,"events":[{"timestamp":3,"type":"EXECUTE_JOB","data":{"job_id":"w0!1","alloc":"7"}}]}`)),
			[]string{"event 0 (EXECUTE_JOB)", "resource 7 does not exist (the platform has 4, 0-3)"}},
		{"wrong size", at(1, constant(`{"now":3,"events":[{"timestamp":3,"type":"EXECUTE_JOB","data":{"job_id":"w0!1","alloc":"1-2"}}]}`)),
			[]string{"event 0 (EXECUTE_JOB)", `alloc "1-2" has 2 resources; job "w0!1" asks for 1`}},
		{"past timestamp", at(1, constant(`{"now":3,"events":[{"timestamp":1,"type":"EXECUTE_JOB","data":{"job_id":"w0!1","alloc":"1"}}]}`)),
			[]string{"event 0 (EXECUTE_JOB)", "timestamp 1 s is in the past: the message it answers is at now=3 s"}},
		{"past now", at(1, constant(`{"now":2,"events":[]}`)),
			[]string{"the reply to the message of t=3 s", "now=2 s is in the past"}},
		{"call in the past", at(1, constant(`{"now":3,"events":[{"timestamp":3,"type":"CALL_ME_LATER","data":{"timestamp":3}}]}`)),
			[]string{"event 0 (CALL_ME_LATER)", "a call in the past"}},
		{"unknown event", at(1, constant(`{"now":3,"events":[{"timestamp":3,"type":"EXECUTE_JOBS","data":{}}]}`)),
			[]string{"event 0 (EXECUTE_JOBS)", `unknown event type "EXECUTE_JOBS"`}},
		{"no reply", at(1, func([]byte) []byte { return nil }),
			[]string{"the reply to the message of t=3 s (JOB_SUBMITTED)", "no reply within 500ms", `"{\"now\":3,`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := faultRun(t, 0.5, tc.mangle)
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("the error lacks %q:\n%v", w, err)
				}
			}
		})
	}
}
