package metrics

import (
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

// A warm-up of 30 s leaves jobs 1, 2 and 3 of the hand-computed scenario
// (TestHandComputed) out of the per-job statistics; they still run.
func TestMeasuredJobs(t *testing.T) {
	warm := func(j *sim.JobRun) bool { return j.TraceSubmit >= secs(30) }
	for _, format := range []string{FormatParquet, FormatArrow, FormatCSV} {
		dir := t.TempDir()
		run(t, dir, twoNodes(t), sevenJobs(), sim.Config{KillAtWalltime: true}, Options{Format: format, Measured: warm}, FinalInfo{})
		s, err := ReadSummaryCSV(filepath.Join(dir, "summary.csv"))
		if err != nil {
			t.Fatal(err)
		}
		// Measured jobs 4 5 6 7; 5 was rejected. Waits of 4, 6, 7: 35 35 10
		// → mean 80/3, median 35, p95 35, max 35. Slowdown over 4 and 7:
		// (2.75 + 2)/2; bsld over 4, 6, 7: (2.75 + 3.5 + 2)/3. The counts
		// and the makespan are the whole run's.
		wantF := map[string]float64{"mean_wait_s": 80.0 / 3, "median_wait_s": 35, "p95_wait_s": 35, "max_wait_s": 35,
			"mean_slowdown": 2.375, "mean_bsld": 2.75, "makespan_s": 110}
		for k, w := range wantF {
			if g, err := strconv.ParseFloat(s[k], 64); err != nil || math.Abs(g-w) > 1e-9 {
				t.Errorf("%s: summary %s = %q, want %v", format, k, s[k], w)
			}
		}
		for k, w := range map[string]string{"jobs": "7", "jobs_measured": "4", "jobs_completed": "5"} {
			if s[k] != w {
				t.Errorf("%s: summary %s = %q, want %s", format, k, s[k], w)
			}
		}
		jobs, err := ReadJobs(dir)
		if err != nil {
			t.Fatal(err)
		}
		// Rows in leaving order: 5 2 3 4 6 1 7.
		var got []bool
		for i := range jobs.Len() {
			m, ok := jobs.Bool("measured", i)
			if !ok {
				t.Fatalf("%s: row %d: measured is null", format, i)
			}
			got = append(got, m)
		}
		if want := []bool{true, false, false, true, true, false, true}; !slices.Equal(got, want) {
			t.Errorf("%s: measured %v, want %v", format, got, want)
		}
	}
}

// Without Options.Measured the files have neither column.
func TestUnmeasuredRunHasNoMeasuredColumns(t *testing.T) {
	dir := t.TempDir()
	run(t, dir, twoNodes(t), sevenJobs(), sim.Config{KillAtWalltime: true}, Options{}, FinalInfo{})
	s, err := ReadSummaryCSV(filepath.Join(dir, "summary.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s["jobs_measured"]; ok {
		t.Error("summary has jobs_measured")
	}
	jobs, err := ReadJobs(dir)
	if err != nil {
		t.Fatal(err)
	}
	if jobs.Has("measured") {
		t.Error("jobs table has measured")
	}
	if k, ok := RunSummaryKind("jobs_measured"); !ok || k != KindInt {
		t.Errorf("jobs_measured: kind %v, known %v; want an int the sweep summary knows", k, ok)
	}
}
