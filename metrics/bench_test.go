package metrics

import (
	"math/rand/v2"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow/go/v17/arrow/memory"

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

// BenchmarkEncodeSweepTables encodes the jobs and timeseries tables of
// one sweep-sized run (20k jobs, 36k steps: what a CEA-Curie head makes)
// to Parquet. Each table fits in one record, as in every run of a sweep.
// cpu-ms/op counts every goroutine (the encoders, the collector).
func BenchmarkEncodeSweepTables(b *testing.B) {
	const jobsN, stepsN = 20_000, 36_000
	runs := make([]*sim.JobRun, jobsN)
	rng := rand.New(rand.NewPCG(7, 1))
	users := []string{"u12", "u305", "u7", "u4491", "u88"}
	var now sim.Time
	for i := range runs {
		now += sim.Time(rng.Int64N(int64(30 * sim.Second)))
		start := now + sim.Time(rng.Int64N(int64(3000*sim.Second)))
		first := int32(rng.IntN(5000))
		nodes := make([]int32, 1+rng.IntN(8))
		for k := range nodes {
			nodes[k] = first + int32(k)
		}
		runs[i] = &sim.JobRun{
			Job: &sim.Job{ID: strconv.Itoa(i + 1), Submit: now, Runtime: sim.Time(rng.Int64N(int64(7200 * sim.Second))),
				Walltime: sim.Time(7200 * sim.Second), Tasks: len(nodes), User: users[rng.IntN(len(users))], Group: "g1", Queue: "1"},
			FirstStart: start, End: start + sim.Time(rng.Int64N(int64(7200*sim.Second))), Nodes: nodes,
		}
	}
	c := synthCluster(b, 128)
	base := b.TempDir()
	cpu0 := cpuTime()
	for b.Loop() {
		jt, err := newJobsTable(base, FormatParquet, 10*sim.Second, calendar{}, nil, memory.DefaultAllocator)
		if err != nil {
			b.Fatal(err)
		}
		st, err := newSeriesTable(base, FormatParquet, c, []string{"cpu"}, memory.DefaultAllocator, newFragTracker(c), new(int64), nil, nil, calendar{})
		if err != nil {
			b.Fatal(err)
		}
		for _, j := range runs {
			ev := event{job: j.Job, first: j.FirstStart, end: j.End, measured: true}
			if err := jt.add(&ev, j.Nodes, sim.Completed, 1e6*rng.Float64()); err != nil {
				b.Fatal(err)
			}
		}
		for i := range stepsN {
			st.lastAlloc[0] = sim.Units(int64(rng.IntN(80000)))
			st.lastFrag[0] = rng.Float64()
			if err := st.add(seriesRow{at: sim.Time(i) * sim.Second, queued: int64(rng.IntN(300)), running: int64(rng.IntN(900)), powerW: 1e5 * rng.Float64()}); err != nil {
				b.Fatal(err)
			}
		}
		for _, flush := range []func() error{func() error { return jt.flush(true) }, func() error { return st.flush(true) }, jt.table.stop, st.table.stop} {
			if err := flush(); err != nil {
				b.Fatal(err)
			}
		}
		jt.table.abort()
		st.table.abort()
	}
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}
