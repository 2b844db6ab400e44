package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/schedsim/schedsim/internal/bench"
	"github.com/schedsim/schedsim/sim/run"
)

// swfBench is the swf suite of bench: every trace × model × backfill,
// replayed by a child process each, workers at a time.
type swfBench struct {
	traces, models, backfills []string
	format                    string
	workers                   int
}

// benchSWF runs the suite and prints its table, rows in suite order.
func benchSWF(out io.Writer, b swfBench) error {
	self, tmp, err := bench.Scratch("swf")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	fmt.Fprintf(out, "load average before: %s\n\n", bench.LoadAverage())
	runs, elapsed := bench.SWF(self, tmp, b.traces, b.models, b.backfills, b.format, b.workers)
	row := "| %-30s | %-5s | %-12s | %7s | %6s | %6s | %8s | %9s | %8s |\n"
	fmt.Fprintf(out, row, "trace", "model", "backfill", "jobs", "wall s", "CPU s", "jobs/s", "events/s", "peak MiB")
	fmt.Fprintf(out, row, "---", "---", "---", "---:", "---:", "---:", "---:", "---:", "---:")
	var sum, cpu float64
	for _, r := range runs {
		if r.Err != nil {
			return run.Failed(fmt.Errorf("%s %s %s: %v", r.Trace, r.Model, r.Backfill, r.Err))
		}
		sum += r.Wall
		cpu += r.CPU
		fmt.Fprintf(out, row, filepath.Base(r.Trace), r.Model, r.Backfill, fmt.Sprintf("%.0f", r.Jobs),
			fmt.Sprintf("%.2f", r.Wall), fmt.Sprintf("%.2f", r.CPU), fmt.Sprintf("%.0f", r.Jobs/r.Wall),
			fmt.Sprintf("%.0f", r.Events/r.Wall), fmt.Sprintf("%.0f", r.RSSMiB))
	}
	fmt.Fprintf(out, "\ntotal: %.2f s wall, %.2f s CPU", sum, cpu)
	if b.workers > 1 {
		fmt.Fprintf(out, " (sum of the runs); %.2f s elapsed with %d workers", elapsed.Seconds(), b.workers)
	}
	fmt.Fprintf(out, "; load average after: %s\n", bench.LoadAverage())
	return nil
}
