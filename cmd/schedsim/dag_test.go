package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"testing"
)

// TestDAGReplay replays testdata/native/dag.jsonl (and the same jobs as
// CSV) on the small cluster with the checker, and reads the jobs table:
//   - train-a and train-b wait for prep (ends at 600 s); train-b is killed
//     at its 1800 s walltime (2400 s);
//   - eval waits for train-a's success (4200 s) and any end of train-b;
//     report follows eval (4500 s) after 120 s of think time;
//   - a released job's submit_s is its release time (its effective
//     submit), so its wait counts from its entry into the queue;
//   - publish needs train-b's success and is rejected when train-b is
//     killed; typo names a job that is not in the trace.
func TestDAGReplay(t *testing.T) {
	want := map[string][4]string{ // state, submit_s, start_s, reason
		"prep":    {"completed", "0", "0", ""},
		"train-a": {"completed", "600", "600", ""},
		"train-b": {"killed", "600", "600", "walltime exceeded"},
		"eval":    {"completed", "4200", "4200", ""},
		"report":  {"completed", "4620", "4620", ""},
		"publish": {"rejected", "10", "", "dependency train-b was killed"},
		"typo":    {"rejected", "20", "", "dependency trian-a is not in the trace (a job may only depend on earlier ones)"},
		"other":   {"completed", "30", "30", ""},
	}
	for _, trace := range []string{"dag.jsonl", "dag.csv"} {
		t.Run(trace, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			if _, err := execute(t, "replay", "--quiet", "--check", "--format", "csv", "--out", out,
				"--trace", "../../testdata/native/"+trace, "--cluster", "../../testdata/clusters/small.yaml"); err != nil {
				t.Fatal(err)
			}
			jobs := readJobsCSV(t, filepath.Join(out, "jobs.csv"))
			if len(jobs) != len(want) {
				t.Errorf("%d jobs in the table, want %d", len(jobs), len(want))
			}
			for id, w := range want {
				j := jobs[id]
				got := [4]string{j["state"], j["submit_s"], j["start_s"], j["reason"]}
				if got != w {
					t.Errorf("%s: got %q, want %q", id, got, w)
				}
				if w[0] == "completed" && j["wait_s"] != "0" {
					t.Errorf("%s: wait %s s, want 0 (the cluster has room)", id, j["wait_s"])
				}
			}
			f, err := os.Open(filepath.Join(out, "summary.csv"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			rows, err := csv.NewReader(f).ReadAll()
			if err != nil || len(rows) != 2 {
				t.Fatalf("summary: %v, %d rows", err, len(rows))
			}
			sum := map[string]string{}
			for i, col := range rows[0] {
				sum[col] = rows[1][i]
			}
			for col, v := range map[string]string{"jobs": "8", "jobs_completed": "5", "jobs_killed": "1", "jobs_rejected": "2", "jobs_unfinished": "0", "makespan_s": "4680"} {
				if sum[col] != v {
					t.Errorf("summary %s = %s, want %s", col, sum[col], v)
				}
			}
		})
	}
}
