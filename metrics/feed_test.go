package metrics

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v17/arrow/memory"

	"github.com/schedsim/schedsim/sim"
)

// feedJobs are synthJobs, every third checkpointing every 5 minutes, so
// that node failures both restart jobs from zero and from a checkpoint.
func feedJobs() []*sim.Job {
	jobs := synthJobs(800, 5)
	for i, j := range jobs {
		if i%3 == 0 {
			j.CheckpointInterval, j.CheckpointCost = 300*sim.Second, 20*sim.Second
		}
	}
	return jobs
}

// runFed replays jobs with events handed to the recorder goroutine in
// batches of size events, or applied on the engine's goroutine as they
// come (inline), and returns the summary's restarts.
func runFed(t *testing.T, dir string, cfg sim.Config, opt Options, size int, inline bool) string {
	t.Helper()
	c := synthCluster(t, 6)
	rec, err := newRecorder(dir, c, opt, memory.NewGoAllocator())
	if err != nil {
		t.Fatal(err)
	}
	rec.feed.size, rec.feed.inline = size, inline
	rec.jobs.cut, rec.series.cut = 97, 97
	rec.jobs.staged, rec.series.staged = 13, 13
	if err := sim.NewEngine(c, &sim.SliceSource{Jobs: feedJobs()}, &fcfs{}, cfg, rec).Run(); err != nil {
		rec.Abort()
		t.Fatal(err)
	}
	if err := rec.Close(FinalInfo{WallSeconds: 1}); err != nil {
		t.Fatal(err)
	}
	s, err := ReadSummaryCSV(dir + "/summary.csv")
	if err != nil {
		t.Fatal(err)
	}
	return s["restarts"]
}

// TestFeedMatchesInline: recording on the recorder goroutine from copies
// writes the same bytes as applying each event on the engine's goroutine
// the moment it happens (what the recorder did before it had a goroutine),
// whatever the batch size, with restarts (from zero and from checkpoints),
// jobs killed after too many restarts, power-down, tenants with shares and
// unmeasured jobs. A field read from the JobRun after the engine moved on
// would differ here, or trip the race detector.
func TestFeedMatchesInline(t *testing.T) {
	configs := map[string]sim.Config{
		"failures": {KillAtWalltime: true, MaxRestarts: 2,
			Failures: &sim.FailureModel{MTBF: 40000 * sim.Second, MTTR: 3000 * sim.Second, Seed: 9}},
		"power-down": {KillAtWalltime: true, PowerDown: &sim.PowerDown{After: 30 * sim.Second}},
	}
	opt := Options{Tenants: TenantsByUser, Shares: map[string]float64{"alice": 2, "bob": 1},
		Measured: func(j *sim.JobRun) bool { return j.TraceSubmit >= 2000*sim.Second }}
	for name, cfg := range configs {
		ref := t.TempDir()
		restarts := runFed(t, ref, cfg, opt, 1, true)
		if name == "failures" && (restarts == "" || restarts == "0") {
			t.Fatalf("%s: restarts = %q: the trace does not exercise requeues", name, restarts)
		}
		for _, size := range []int{1, 3, batchEvents} {
			dir := t.TempDir()
			runFed(t, dir, cfg, opt, size, false)
			for _, n := range files(t, ref) {
				if !bytes.Equal(readFile(t, ref, n), readFile(t, dir, n)) {
					t.Errorf("%s, batches of %d events: %s differs from inline recording", name, size, n)
				}
			}
		}
	}
}

// TestRecorderPanicSurfaces: a panic on the recorder goroutine is raised
// again on the engine's, with the original message and stack, once; Close
// then fails with it and cleans up.
func TestRecorderPanicSurfaces(t *testing.T) {
	dir := t.TempDir()
	c := twoNodes(t)
	rec, err := NewRecorder(dir, c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec.feed.size = 1
	rec.nodes.active = nil // the first start indexes it: a recorder bug
	got := func() (v any) {
		defer func() { v = recover() }()
		_ = sim.NewEngine(c, &sim.SliceSource{Jobs: sevenJobs()}, &fcfs{}, sim.Config{}, rec).Run()
		return nil
	}()
	msg := fmt.Sprint(got)
	if !strings.Contains(msg, "metrics recorder: runtime error: index out of range") || !strings.Contains(msg, "(*nodeUsage).start") {
		t.Errorf("panic = %.300q, want the recorder goroutine's, with its stack", msg)
	}
	if err := rec.Close(FinalInfo{}); err == nil || !strings.Contains(err.Error(), "recorder goroutine panicked: runtime error") {
		t.Errorf("Close = %v, want the panic", err)
	}
	if names := files(t, dir); len(names) != 0 {
		t.Errorf("left behind %v", names)
	}
}

// interruptingSource closes stop once it has given left jobs, as Ctrl-C
// in the middle of a run.
type interruptingSource struct {
	sim.SliceSource
	left int
	stop chan struct{}
}

func (s *interruptingSource) Next() (*sim.Job, error) {
	if s.left--; s.left == 0 {
		close(s.stop)
	}
	return s.SliceSource.Next()
}

// TestAbortStopsRecorder: a run interrupted or failed midway, with events
// still in flight, is aborted without deadlock; the recorder goroutine has
// stopped and nothing is left in the directory.
func TestAbortStopsRecorder(t *testing.T) {
	for _, failing := range []bool{false, true} {
		dir := t.TempDir()
		c := synthCluster(t, 4)
		rec, err := NewRecorder(dir, c, Options{})
		if err != nil {
			t.Fatal(err)
		}
		rec.feed.size = 5
		var src sim.Source
		cfg := sim.Config{}
		if failing {
			src = &failingSource{SliceSource: sim.SliceSource{Jobs: synthJobs(3000, 2)}, left: 2000}
		} else {
			stop := make(chan struct{})
			src = &interruptingSource{SliceSource: sim.SliceSource{Jobs: synthJobs(3000, 2)}, left: 500, stop: stop}
			cfg.Interrupt = stop
		}
		err = sim.NewEngine(c, src, &fcfs{}, cfg, rec).Run()
		if failing && (err == nil || !strings.Contains(err.Error(), "bad record")) || !failing && !errors.Is(err, sim.ErrInterrupted) {
			t.Fatalf("failing %v: Run = %v", failing, err)
		}
		rec.Abort()
		select {
		case <-rec.feed.done:
		default:
			t.Errorf("failing %v: the recorder goroutine still runs after Abort", failing)
		}
		if names := files(t, dir); len(names) != 0 {
			t.Errorf("failing %v: left behind %v", failing, names)
		}
	}
}
