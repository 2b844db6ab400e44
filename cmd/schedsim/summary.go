package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/schedsim/schedsim/metrics"
	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
)

// printSummary prints the run's summary.csv as a readable table and says
// where the files are.
func printSummary(out io.Writer, cfg *replayConfig, w *workload, c *sim.Cluster, skips traces.Skips) error {
	row, err := metrics.ReadSummaryCSV(filepath.Join(cfg.Out, "summary.csv"))
	if err != nil {
		return failed(err)
	}
	num := func(k string) float64 {
		v, _ := strconv.ParseFloat(row[k], 64)
		return v
	}
	fmt.Fprintf(out, "schedsim replay: %s\n", w.name)
	fmt.Fprintf(out, "  cluster: %s\n", w.cluster)
	fmt.Fprintf(out, "  policy:  queue %s, backfill %s, placement %s\n\n", cfg.Queue, cfg.Backfill, cfg.Placement)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	line := func(name, value string) { fmt.Fprintf(tw, "  %s\t%s\n", name, value) }
	line("jobs", fmt.Sprintf("%s (completed %s, killed at walltime %s, rejected %s, unfinished %s)",
		row["jobs"], row["jobs_completed"], row["jobs_killed"], row["jobs_rejected"], row["jobs_unfinished"]))
	if skips.Total > 0 {
		line("skipped records", fmt.Sprintf("%d (first: %v)", skips.Total, skips.First))
	}
	line("makespan", duration(num("makespan_s")))
	line("wait mean / median", duration(num("mean_wait_s"))+" / "+duration(num("median_wait_s")))
	line("wait p95 / max", duration(num("p95_wait_s"))+" / "+duration(num("max_wait_s")))
	line("mean slowdown", fmt.Sprintf("%.2f", num("mean_slowdown")))
	line("mean bounded slowdown", fmt.Sprintf("%.2f (τ = %g s)", num("mean_bsld"), cfg.TauS))
	line("utilization", fmt.Sprintf("%.1f %%", 100*num("utilization")))
	line("energy", fmt.Sprintf("%.4g J (%.1f kWh)", num("energy_j"), num("energy_kwh")))
	line("simulated in", fmt.Sprintf("%.3f s (%.0f events/s)", num("wall_s"), num("events_per_s")))
	tw.Flush()
	files := ""
	for _, table := range []string{"jobs", "timeseries", "nodes", "summary"} {
		files += table + "." + cfg.Format + " "
	}
	if cfg.Format != "csv" {
		files += "summary.csv "
	}
	fmt.Fprintf(out, "\n  files in %s/: %srun.yaml\n", cfg.Out, files)
	return nil
}

// duration prints seconds readably: "0 s", "42 s", "3h25m10s".
func duration(s float64) string {
	if s < 60 {
		return strconv.FormatFloat(s, 'f', -1, 64) + " s"
	}
	d := time.Duration(s * float64(time.Second)).Round(time.Second)
	return fmt.Sprintf("%s (%.0f s)", d, s)
}
