package metrics

import (
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces/swf"
)

// TestKTHCalendar replays the first 300 jobs of the KTH-SP2 log (pool
// model, strict FCFS) with the epoch and time zone its header gives, as
// the CLI does: the first job (job 15; the cleaned log dropped jobs 1–14)
// is submitted 599850 s after the header's UnixStartTime 843480031, at
// 1996-09-30T10:38:01Z, and its recorded start is 192180 s (its wait)
// later; the files say Europe/Stockholm.
func TestKTHCalendar(t *testing.T) {
	path := "../../shared/traces/swf/KTH-SP2-1996-2.1-cln.swf.gz"
	if _, err := os.Stat(path); err != nil {
		t.Skip("../shared/traces not present")
	}
	r, err := swf.Open(path, swf.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var jobs []*sim.Job
	for len(jobs) < 300 {
		j, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, j)
	}
	specs, err := r.Header().Cluster(swf.ClusterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := sim.NewCluster(specs)
	if err != nil {
		t.Fatal(err)
	}
	h := r.Header()
	dir := t.TempDir()
	run(t, dir, c, jobs, sim.Config{}, Options{Epoch: h.Epoch, TimeZone: h.TimeZone}, FinalInfo{})
	back, err := ReadJobs(dir)
	if err != nil {
		t.Fatal(err)
	}
	if back.Metadata(MetaEpoch) != "1996-09-23T12:00:31Z" || back.Metadata(MetaTimeZone) != "Europe/Stockholm" {
		t.Errorf("metadata epoch %q zone %q", back.Metadata(MetaEpoch), back.Metadata(MetaTimeZone))
	}
	found := false
	for i := range back.Len() {
		if back.Str("job_id", i) != "15" {
			continue
		}
		found = true
		at, _ := back.Time("submit_time", i)
		rec, ok := back.Float("recorded_start_s", i)
		procs, _ := back.Int("requested_procs", i)
		if want := time.Date(1996, 9, 30, 10, 38, 1, 0, time.UTC); !at.Equal(want) || !ok || rec != 599850+192180 || procs != 4 {
			t.Errorf("job 15: submitted %v (want %v), recorded start %v (%v), requested %d procs", at, want, rec, ok, procs)
		}
	}
	if !found {
		t.Error("no job 15")
	}
	s, err := ReadSummaryCSV(filepath.Join(dir, "summary.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if s["calib_jobs"] == "0" || s["calib_wait_ks"] == "" {
		t.Errorf("no calibration on KTH: calib_jobs %s, ks %q", s["calib_jobs"], s["calib_wait_ks"])
	}
}
