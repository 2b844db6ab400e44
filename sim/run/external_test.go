package run

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/internal/runcmp"
	"github.com/schedsim/schedsim/policies/external/refsched"
)

// serveRef starts the test scheduler of cfg on a free port of 127.0.0.1
// and returns its --scheduler value; it serves one run.
func serveRef(t *testing.T, cfg refsched.Config, mangle func(n int, reply []byte) []byte) (string, <-chan error) {
	t.Helper()
	srv, err := refsched.Listen("tcp://127.0.0.1:0", cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv.Mangle = mangle
	done := make(chan error, 1)
	go func() { done <- srv.Serve() }()
	t.Cleanup(func() { srv.Close() })
	return "batsim:" + srv.Endpoint(), done
}

// readJobs reads a run's jobs.csv, a map of column to value per job.
func readJobs(t *testing.T, dir string) []map[string]string {
	t.Helper()
	return runcmp.ReadRecords(t, filepath.Join(dir, "jobs.csv"))
}

// jobStarts is each job's start_s ("" when it never started).
func jobStarts(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, j := range readJobs(t, dir) {
		out[j["job_id"]] = j["start_s"]
	}
	return out
}

// sameStarts compares two runs job for job.
func sameStarts(t *testing.T, own, ext map[string]string) {
	t.Helper()
	if len(own) != len(ext) {
		t.Fatalf("%d jobs in schedsim's own run, %d with the external scheduler", len(own), len(ext))
	}
	bad := 0
	for id, s := range own {
		if ext[id] != s {
			if bad < 5 {
				t.Errorf("job %s: starts at %q under schedsim's own policy, %q under the external scheduler", id, s, ext[id])
			}
			bad++
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d jobs start differently", bad, len(own))
	}
}

// equalToOwn replays c with schedsim's own fcfs queue and backfill (none
// or easy), then driven by the test scheduler over a real socket, and
// compares the starts job for job.
func equalToOwn(t *testing.T, c Spec, backfill string, count bool) {
	t.Helper()
	dir := t.TempDir()
	c.Format = "csv"
	own := c
	own.Queue, own.Backfill = "fcfs", backfill
	if err := replayInto(t, own, filepath.Join(dir, "own"), Options{}); err != nil {
		t.Fatal(err)
	}
	algo := map[string]string{"none": "fcfs", "easy": "easy"}[backfill]
	ext := c
	var done <-chan error
	ext.Scheduler, done = serveRef(t, refsched.Config{Algorithm: algo, CountReservation: count}, nil)
	if err := replayInto(t, ext, filepath.Join(dir, "ext"), Options{}); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("test scheduler: %v", err)
	}
	sameStarts(t, jobStarts(t, filepath.Join(dir, "own")), jobStarts(t, filepath.Join(dir, "ext")))
}

const batsimData = "../../testdata/batsim/"

// TestExternalEqualsOwnBatsim: on the Batsim fixtures, the test scheduler
// over the protocol starts every job when schedsim's own fcfs does, with
// backfill none and easy.
func TestExternalEqualsOwnBatsim(t *testing.T) {
	for _, tc := range []struct{ workload, platform string }{
		{"test_delays.json", "small_platform.xml"},
		{"test_walltime.json", "small_platform.xml"},
		{"medium_late_head.json", "platform_head.xml"},
		{"medium_late_head.json", "cluster512.xml"},
	} {
		for _, bf := range []string{"none", "easy"} {
			t.Run(strings.TrimSuffix(tc.workload, ".json")+"-"+strings.TrimSuffix(tc.platform, ".xml")+"-"+bf, func(t *testing.T) {
				c := Default()
				c.Trace, c.Platform = batsimData+tc.workload, batsimData+tc.platform
				equalToOwn(t, c, bf, false)
			})
		}
	}
}

// TestExternalEqualsOwnMediumLate: Batsim's medium_late workload (801
// jobs) on its platform, from ../shared (skipped without it).
func TestExternalEqualsOwnMediumLate(t *testing.T) {
	dir := "../../shared/traces/batsim/medium_late"
	if _, err := os.Stat(dir); err != nil {
		t.Skip("no ../shared/traces/batsim/medium_late")
	}
	for _, bf := range []string{"none", "easy"} {
		t.Run(bf, func(t *testing.T) {
			c := Default()
			c.Trace, c.Platform = dir+"/medium_late.json", dir+"/platform.xml"
			equalToOwn(t, c, bf, false)
		})
	}
}

// TestExternalEqualsOwnKTH: 2,000 jobs of KTH-SP2 in both SWF models
// (the whole log under SCHEDSIM_LONG=1).
func TestExternalEqualsOwnKTH(t *testing.T) {
	trace := smallTrace
	if os.Getenv("SCHEDSIM_LONG") == "1" {
		trace = ""
	}
	for _, model := range []string{"pool", "nodes"} {
		for _, bf := range []string{"none", "easy"} {
			t.Run(model+"-"+bf, func(t *testing.T) {
				c := Default()
				c.Trace, c.SWFModel = trace, model
				equalToOwn(t, c, bf, model == "pool")
			})
		}
	}
}
