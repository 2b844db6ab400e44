package metrics

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow/go/v17/arrow/memory"

	"github.com/schedsim/schedsim/sim"
)

// TestStagedBatches: a record built from several staged batches, with
// columns sized for too few rows (grown), too many (cut) or a whole
// record, gives the same files as a record staged at once, in every
// format, nulls, timestamps and the measured column included.
func TestStagedBatches(t *testing.T) {
	c := synthCluster(t, 8)
	jobs := synthJobs(1500, 5)
	epoch := time.Date(2011, 2, 1, 0, 0, 0, 0, time.UTC)
	measured := func(j *sim.JobRun) bool { return j.Seq%3 != 0 }
	for _, f := range []string{FormatParquet, FormatArrow, FormatCSV} {
		opt := Options{Format: f, Epoch: epoch, Measured: measured}
		ref := t.TempDir()
		runStaged(t, ref, c, jobs, opt, 400, 400)
		for _, v := range []struct{ staged, expected int }{{37, 0}, {37, 1}, {64, 10}, {100, 700}, {50, 1e6}} {
			dir := t.TempDir()
			opt.ExpectedJobs = v.expected
			runStaged(t, dir, c, jobs, opt, 400, v.staged)
			for _, n := range files(t, ref) {
				if strings.HasPrefix(n, "summary.") {
					continue
				}
				if !bytes.Equal(readFile(t, ref, n), readFile(t, dir, n)) {
					t.Errorf("%s, batches of %d rows, %d jobs expected: %s differs", f, v.staged, v.expected, n)
				}
			}
		}
	}
}

// runStaged replays jobs with records of cut rows staged in batches of
// staged rows.
func runStaged(t *testing.T, dir string, c *sim.Cluster, jobs []*sim.Job, opt Options, cut, staged int) {
	t.Helper()
	rec, err := newRecorder(dir, c, opt, memory.NewGoAllocator())
	if err != nil {
		t.Fatal(err)
	}
	rec.jobs.cut, rec.series.cut = cut, cut
	rec.jobs.staged, rec.series.staged = staged, staged
	e := sim.NewEngine(c, &sim.SliceSource{Jobs: jobs}, &fcfs{}, sim.Config{KillAtWalltime: true}, rec)
	if err := e.Run(); err != nil {
		rec.Abort()
		t.Fatal(err)
	}
	if err := rec.Close(FinalInfo{WallSeconds: 1}); err != nil {
		t.Fatal(err)
	}
}
