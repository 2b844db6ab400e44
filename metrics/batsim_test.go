package metrics

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

// TestBatsimExport replays synthetic jobs (completed, killed at their
// walltime, rejected, and, with the run stopped early, still queued or
// running; one with a Batsim id "w3!7") in every format, exports each run
// as Batsim's out_jobs.csv and reads it back: every column of every row
// agrees with the jobs table, and the three exports are the same bytes.
func TestBatsimExport(t *testing.T) {
	c := synthCluster(t, 6)
	jobs := synthJobs(400, 5)
	jobs[3].ID = "w3!7"
	cfg := sim.Config{KillAtWalltime: true, Until: jobs[300].Submit}
	var exports [][]byte
	for _, f := range []string{FormatParquet, FormatArrow, FormatCSV} {
		dir := t.TempDir()
		run(t, dir, c, jobs, cfg, Options{Format: f}, FinalInfo{})
		out := filepath.Join(t.TempDir(), "out_jobs.csv")
		if err := ExportBatsim(dir, out, BatsimOptions{}); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		exports = append(exports, b)
		if f != FormatParquet {
			continue
		}
		table := readParquet(t, filepath.Join(dir, "jobs.parquet"))
		checkBatsimRows(t, b, table)
	}
	for i := 1; i < len(exports); i++ {
		if !bytes.Equal(exports[i], exports[0]) {
			t.Errorf("export %d differs from the parquet run's", i)
		}
	}
}

// checkBatsimRows reads an out_jobs.csv and checks it against the jobs
// table it came from.
func checkBatsimRows(t *testing.T, out []byte, jobs readTable) {
	t.Helper()
	rows, err := csv.NewReader(bytes.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rows[0], BatsimJobsColumns) {
		t.Fatalf("header %v", rows[0])
	}
	rows = rows[1:]
	if len(rows) != len(jobs["job_id"]) {
		t.Fatalf("%d rows, jobs table has %d", len(rows), len(jobs["job_id"]))
	}
	seen := map[string]int{}
	for i, row := range rows {
		get := func(name string) string { return row[slices.Index(BatsimJobsColumns, name)] }
		fail := func(format string, args ...any) {
			t.Helper()
			t.Errorf("row %d (%s): "+format, append([]any{i, jobs["job_id"][i]}, args...)...)
		}
		// Seconds columns: empty for null, else the same float64.
		same := func(col string, v any) {
			t.Helper()
			s := get(col)
			if v == nil {
				if s != "" {
					fail("%s = %q, want empty", col, s)
				}
				return
			}
			x, err := strconv.ParseFloat(s, 64)
			if err != nil || x != v.(float64) {
				fail("%s = %q, want %v", col, s, v)
			}
		}
		state, reason := jobs["state"][i].(string), jobs["reason"][i].(string)
		seen[state]++

		wantID, wantWL := jobs["job_id"][i].(string), "w0"
		if jobs["job_id"][i] == "w3!7" {
			wantID, wantWL = "7", "w3"
		}
		if get("job_id") != wantID || get("workload_name") != wantWL || get("profile") != "" || get("metadata") != "" {
			fail("id %q workload %q profile %q metadata %q", get("job_id"), get("workload_name"), get("profile"), get("metadata"))
		}
		same("submission_time", jobs["submit_s"][i])
		if get("requested_number_of_resources") != strconv.FormatInt(jobs["tasks"][i].(int64), 10) {
			fail("resources %q, tasks %v", get("requested_number_of_resources"), jobs["tasks"][i])
		}
		if w := jobs["walltime_s"][i]; w == nil {
			same("requested_time", -1.0)
		} else {
			same("requested_time", w)
		}
		wantState := map[string]string{"completed": "COMPLETED_SUCCESSFULLY", "rejected": "REJECTED",
			"queued": "SUBMITTED", "running": "RUNNING"}[state]
		if state == "killed" && reason == "walltime exceeded" {
			wantState = "COMPLETED_WALLTIME_REACHED"
		}
		if get("final_state") != wantState || (get("success") == "1") != (state == "completed") || !slices.Contains([]string{"0", "1"}, get("success")) {
			fail("final state %q success %q; state %s reason %q", get("final_state"), get("success"), state, reason)
		}
		same("starting_time", jobs["start_s"][i])
		same("execution_time", jobs["runtime_s"][i])
		same("finish_time", jobs["end_s"][i])
		same("waiting_time", jobs["wait_s"][i])
		same("turnaround_time", jobs["turnaround_s"][i])
		same("stretch", jobs["slowdown"][i])
		if jobs["start_s"][i] == nil {
			same("consumed_energy", nil)
		} else {
			same("consumed_energy", jobs["energy_j"][i])
		}
		// The interval set holds the same nodes as node_list, in
		// Batsim's canonical form.
		alloc := get("allocated_resources")
		if strings.Contains(alloc, ",") || !slices.Equal(expandIntervals(t, alloc, " "), expandIntervals(t, jobs["node_list"][i].(string), ",")) {
			fail("allocated_resources %q, node_list %q", alloc, jobs["node_list"][i])
		}
	}
	for _, s := range []string{"completed", "killed", "rejected", "queued", "running"} {
		if seen[s] == 0 {
			t.Errorf("no %s job: that case is not exercised", s)
		}
	}
}

// expandIntervals lists the members of "0-3 7" (sep " ") or "0-3,7".
func expandIntervals(t *testing.T, s, sep string) []int {
	t.Helper()
	var out []int
	if s == "" {
		return out
	}
	for _, part := range strings.Split(s, sep) {
		a, b, isRange := strings.Cut(part, "-")
		lo, err1 := strconv.Atoi(a)
		hi, err2 := lo, error(nil)
		if isRange {
			hi, err2 = strconv.Atoi(b)
		}
		if err1 != nil || err2 != nil || hi < lo || (isRange && hi == lo) {
			t.Fatalf("bad interval %q in %q", part, s)
		}
		for n := lo; n <= hi; n++ {
			out = append(out, n)
		}
	}
	return out
}

// TestBatsimHandComputed pins the text of the rows of sevenJobs' replay
// (TestHandComputed's schedule).
func TestBatsimHandComputed(t *testing.T) {
	dir := t.TempDir()
	run(t, dir, twoNodes(t), sevenJobs(), sim.Config{KillAtWalltime: true}, Options{}, FinalInfo{})
	jobs, err := ReadJobs(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteBatsimJobs(&b, jobs, BatsimOptions{Workload: "kth"}); err != nil {
		t.Fatal(err)
	}
	want := strings.Join(BatsimJobsColumns, ",") + "\n" +
		"5,kth,,40.000000,1,-1.000000,0,REJECTED,,,,,,,,,\n" +
		"2,kth,,10.000000,2,-1.000000,1,COMPLETED_SUCCESSFULLY,10.000000,50.000000,60.000000,0.000000,50.000000,1,1,10000,\n" +
		"3,kth,,20.000000,1,-1.000000,1,COMPLETED_SUCCESSFULLY,60.000000,5.000000,65.000000,40.000000,45.000000,9,1,1000,\n" +
		"4,kth,,30.000000,1,20.000000,0,COMPLETED_WALLTIME_REACHED,65.000000,20.000000,85.000000,35.000000,55.000000,2.75,1,4000,\n" +
		"6,kth,,50.000000,1,-1.000000,1,COMPLETED_SUCCESSFULLY,85.000000,0.000000,85.000000,35.000000,35.000000,,1,0,\n" +
		"1,kth,,0.000000,1,200.000000,1,COMPLETED_SUCCESSFULLY,0.000000,100.000000,100.000000,0.000000,100.000000,1,0,10000,\n" +
		"7,kth,,90.000000,2,10.000000,1,COMPLETED_SUCCESSFULLY,100.000000,10.000000,110.000000,10.000000,20.000000,2,0-1,2250,\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

// TestReadJobsErrors: a directory without a jobs table, and a csv cell
// that is not of its column's type, are errors naming the file.
func TestReadJobsErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := ReadJobs(dir); err == nil || !strings.Contains(err.Error(), "no jobs table") {
		t.Errorf("empty dir: %v", err)
	}
	path := filepath.Join(dir, "jobs.csv")
	if err := os.WriteFile(path, []byte("job_id,tasks\n1,2\n2,many\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadJobs(dir)
	if want := path + ": line 3: column tasks: "; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("bad cell: %v, want %s…", err, want)
	}
	if err := os.WriteFile(path, []byte("job_id,tasks\n1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	jobs, err := ReadJobs(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteBatsimJobs(&bytes.Buffer{}, jobs, BatsimOptions{}); err == nil || !strings.Contains(err.Error(), `no STRING column "state"`) {
		t.Errorf("not a jobs table: %v", err)
	}
}
