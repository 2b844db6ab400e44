package main

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/schedsim/schedsim/metrics"
)

// smallLogs are the SWF logs whose six replays take seconds; the others
// (up to CEA-Curie, whose conservative replays in the nodes model take one
// to three minutes each) are long tests (needLong).
var smallLogs = map[string]bool{"NASA-iPSC-1993-3.1-cln.swf.gz": true, "lublin_256_new2": true}

// TestSWFLogs replays every SWF log of ../shared/traces/swf with none, EASY
// and conservative backfilling in both cluster models, with the invariant
// checker on, and checks that every job is accounted for. By default only
// the two smallest logs run; SCHEDSIM_LONG=1 runs them all.
func TestSWFLogs(t *testing.T) {
	needShared(t)
	logs, _ := filepath.Glob(filepath.Join(shared, "swf", "*"))
	if len(logs) == 0 {
		t.Fatal("no SWF logs")
	}
	for _, log := range logs {
		name := filepath.Base(log)
		for _, model := range []string{"pool", "nodes"} {
			// conservative-batsim: batsched's reservation rule (repick)
			// with its 5 s planning delay, where it differs (nodes).
			for _, bf := range []string{"none", "easy", "conservative", "conservative-batsim"} {
				if bf == "conservative-batsim" && model == "pool" {
					continue
				}
				t.Run(name+"/"+model+"/"+bf, func(t *testing.T) {
					if !smallLogs[name] {
						needLong(t)
					}
					t.Parallel()
					out := filepath.Join(t.TempDir(), "run")
					args := []string{"replay", "--quiet", "--check", "--trace", log, "--swf-model", model, "--format", "csv", "--out", out}
					if bf == "conservative-batsim" {
						args = append(args, "--backfill", "conservative", "--compat", "batsim")
					} else {
						args = append(args, "--backfill", bf)
					}
					_, err := execute(t, args...)
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
