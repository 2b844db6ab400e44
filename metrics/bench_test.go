package metrics

import (
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/schedsim/schedsim/sim"
)

// BenchmarkRecorder replays 300k synthetic jobs (≈600k event times) with
// strict FCFS on 128 nodes. "engine" runs without observers and is the
// baseline; the other cases add a Recorder writing that format, so their
// difference is the recorder's cost, files included.
func BenchmarkRecorder(b *testing.B) {
	const n = 300_000
	c := synthCluster(b, 128)
	jobs := synthJobs(n, 42)
	replay := func(b *testing.B, obs ...sim.Observer) *sim.Engine {
		e := sim.NewEngine(c, &sim.SliceSource{Jobs: jobs}, &fcfs{}, sim.Config{KillAtWalltime: true}, obs...)
		if err := e.Run(); err != nil {
			b.Fatal(err)
		}
		return e
	}
	b.Run("engine", func(b *testing.B) {
		cpu0 := cpuTime()
		for b.Loop() {
			replay(b)
		}
		b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/job")
	})
	for _, f := range []string{FormatParquet, FormatArrow, FormatCSV} {
		b.Run(f, func(b *testing.B) {
			base := b.TempDir()
			var rows int64
			cpu0 := cpuTime()
			for b.Loop() {
				dir, err := os.MkdirTemp(base, "run")
				if err != nil {
					b.Fatal(err)
				}
				rec, err := NewRecorder(dir, c, Options{Format: f})
				if err != nil {
					b.Fatal(err)
				}
				e := replay(b, rec)
				if err := rec.Close(FinalInfo{Events: e.EventsApplied()}); err != nil {
					b.Fatal(err)
				}
				rows = rec.series.total
				os.RemoveAll(dir)
			}
			b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/job")
			b.ReportMetric(float64(rows), "series_rows")
		})
	}
}

// cpuTime is the process's user+system CPU time. Wall time is noisy on a
// shared machine; CPU time tells what the work costs (it includes the GC's
// background workers).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
