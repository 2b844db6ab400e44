package main

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/schedsim/schedsim/metrics"
)

// slowNodesConservative are the logs whose conservative replay in the
// nodes model (node-level reservations for every queued job, compressed at
// every job end) takes many minutes on two cores; they run only with
// SCHEDSIM_LONG=1. See README, Performance.
var slowNodesConservative = map[string]bool{
	"CEA-Curie-2011-2.1-cln.swf.gz": true,
}

// TestSWFLogs replays every SWF log of ../shared/traces/swf with none, EASY
// and conservative backfilling in both cluster models, with the invariant
// checker on, and checks that every job is accounted for. With -short only
// the two smallest logs run.
func TestSWFLogs(t *testing.T) {
	long := os.Getenv("SCHEDSIM_LONG") != ""
	needShared(t)
	logs, _ := filepath.Glob(filepath.Join(shared, "swf", "*"))
	if len(logs) == 0 {
		t.Fatal("no SWF logs")
	}
	small := map[string]bool{"NASA-iPSC-1993-3.1-cln.swf.gz": true, "lublin_256_new2": true}
	for _, log := range logs {
		name := filepath.Base(log)
		if testing.Short() && !small[name] {
			continue
		}
		for _, model := range []string{"pool", "nodes"} {
			for _, bf := range []string{"none", "easy", "conservative"} {
				t.Run(name+"/"+model+"/"+bf, func(t *testing.T) {
					if model == "nodes" && bf == "conservative" && slowNodesConservative[name] && !long {
						t.Skip("slow: set SCHEDSIM_LONG=1")
					}
					t.Parallel()
					out := filepath.Join(t.TempDir(), "run")
					_, err := execute(t, "replay", "--quiet", "--check", "--trace", log, "--swf-model", model,
						"--backfill", bf, "--format", "csv", "--out", out)
					if err != nil {
						t.Fatal(err)
					}
					row, err := metrics.ReadSummaryCSV(filepath.Join(out, "summary.csv"))
					if err != nil {
						t.Fatal(err)
					}
					n := func(k string) int { v, _ := strconv.Atoi(row[k]); return v }
					if n("jobs") == 0 || n("jobs_unfinished") != 0 ||
						n("jobs_completed")+n("jobs_killed")+n("jobs_rejected") != n("jobs") {
						t.Errorf("jobs %s = completed %s + killed %s + rejected %s, unfinished %s",
							row["jobs"], row["jobs_completed"], row["jobs_killed"], row["jobs_rejected"], row["jobs_unfinished"])
					}
					os.RemoveAll(out)
				})
			}
		}
	}
}
