package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/schedsim/schedsim/metrics"
	"github.com/schedsim/schedsim/sim/run"
)

// swfBench is the swf suite of bench: every trace × model × backfill,
// replayed by a child process each, workers at a time.
type swfBench struct {
	traces, models, backfills []string
	format                    string
	workers                   int
}

// swfRun is one replay of the suite and what it measured.
type swfRun struct {
	trace, model, backfill string
	t                      childTimes
	jobs, events           float64
	err                    error
}

// benchSWF runs the suite and prints its table, rows in suite order.
func benchSWF(out io.Writer, b swfBench) error {
	self, tmp, err := childScratch("swf")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	var runs []*swfRun
	for _, tr := range b.traces {
		for _, model := range b.models {
			for _, bf := range b.backfills {
				runs = append(runs, &swfRun{trace: tr, model: model, backfill: bf})
			}
		}
	}
	fmt.Fprintf(out, "load average before: %s\n\n", loadAverage())
	start := time.Now()
	next := make(chan int)
	var wg sync.WaitGroup
	for w := range b.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				runs[i].replay(self, filepath.Join(tmp, fmt.Sprintf("run%d-%d", w, i)), b.format)
			}
		}()
	}
	for i := range runs {
		next <- i
	}
	close(next)
	wg.Wait()
	elapsed := time.Since(start).Seconds()

	row := "| %-30s | %-5s | %-12s | %7s | %6s | %6s | %8s | %9s | %8s |\n"
	fmt.Fprintf(out, row, "trace", "model", "backfill", "jobs", "wall s", "CPU s", "jobs/s", "events/s", "peak MiB")
	fmt.Fprintf(out, row, "---", "---", "---", "---:", "---:", "---:", "---:", "---:", "---:")
	var sum, cpu float64
	for _, r := range runs {
		if r.err != nil {
			return run.Failed(fmt.Errorf("%s %s %s: %v", r.trace, r.model, r.backfill, r.err))
		}
		sum += r.t.wall
		cpu += r.t.cpu
		fmt.Fprintf(out, row, filepath.Base(r.trace), r.model, r.backfill, fmt.Sprintf("%.0f", r.jobs),
			fmt.Sprintf("%.2f", r.t.wall), fmt.Sprintf("%.2f", r.t.cpu), fmt.Sprintf("%.0f", r.jobs/r.t.wall),
			fmt.Sprintf("%.0f", r.events/r.t.wall), fmt.Sprintf("%.0f", r.t.rssMiB))
	}
	fmt.Fprintf(out, "\ntotal: %.2f s wall, %.2f s CPU", sum, cpu)
	if b.workers > 1 {
		fmt.Fprintf(out, " (sum of the runs); %.2f s elapsed with %d workers", elapsed, b.workers)
	}
	fmt.Fprintf(out, "; load average after: %s\n", loadAverage())
	return nil
}

// replay times the run in a child process writing to runDir, and reads the
// job and event counts from its summary.
func (r *swfRun) replay(self, runDir, format string) {
	r.t, r.err = timeChild(self, "replay", "--quiet", "--trace", r.trace, "--swf-model", r.model,
		"--backfill", r.backfill, "--format", format, "--out", runDir)
	if r.err != nil {
		return
	}
	sum, err := metrics.ReadSummaryCSV(filepath.Join(runDir, "summary.csv"))
	if err != nil {
		r.err = err
		return
	}
	r.jobs, _ = strconv.ParseFloat(sum[metrics.ColJobs], 64)
	r.events, _ = strconv.ParseFloat(sum[metrics.ColEvents], 64)
	r.err = os.RemoveAll(runDir)
}
