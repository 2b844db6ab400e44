package run

import (
	"fmt"
	"io"
	"math"
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
func printSummary(out io.Writer, cfg *Spec, w *Workload, c *sim.Cluster, skips traces.Skips, dir string) error {
	row, err := metrics.ReadSummaryCSV(filepath.Join(dir, "summary.csv"))
	if err != nil {
		return Failed(err)
	}
	// An empty cell is a statistic over no jobs (no job started, say).
	num := func(k string) float64 {
		v, err := strconv.ParseFloat(row[k], 64)
		if err != nil {
			return math.NaN()
		}
		return v
	}
	fmt.Fprintf(out, "schedsim replay: %s\n", w.Name)
	fmt.Fprintf(out, "  cluster: %s\n", w.Cluster)
	fmt.Fprintf(out, "  policy:  queue %s, backfill %s, placement %s\n\n", cfg.Queue, cfg.Backfill, cfg.Placement.String())
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	line := func(name, value string) { fmt.Fprintf(tw, "  %s\t%s\n", name, value) }
	killed := "killed at walltime" // or, with node events, also after --max-restarts restarts
	if num("restarts") > 0 {
		killed = "killed"
	}
	line("jobs", fmt.Sprintf("%s (completed %s, %s %s, rejected %s, unfinished %s)",
		row["jobs"], row["jobs_completed"], killed, row["jobs_killed"], row["jobs_rejected"], row["jobs_unfinished"]))
	if skips.Total > 0 {
		line("skipped records", fmt.Sprintf("%d (first: %v)", skips.Total, skips.First))
	}
	line("makespan", duration(num("makespan_s")))
	line("wait mean / median", duration(num("mean_wait_s"))+" / "+duration(num("median_wait_s")))
	line("wait p95 / max", duration(num("p95_wait_s"))+" / "+duration(num("max_wait_s")))
	line("mean slowdown", orNA(num("mean_slowdown"), "%.2f"))
	line("mean bounded slowdown", orNA(num("mean_bsld"), "%.2f")+fmt.Sprintf(" (τ = %g s)", cfg.TauS))
	if num("restarts") > 0 || num("node_downtime_s") > 0 {
		line("node events", fmt.Sprintf("%.0f restarts, %s of work lost, %s of node downtime",
			num("restarts"), duration(num("lost_work_s")), duration(num("node_downtime_s"))))
	}
	line("utilization", orNA(100*num("utilization"), "%.1f %%"))
	line("energy", fmt.Sprintf("%.4g J (%.1f kWh)", num("energy_j"), num("energy_kwh")))
	if cfg.Price != "" || cfg.Carbon != "" {
		line("energy cost / carbon", orNA(num("energy_cost"), "%.4g")+" / "+orNA(num("carbon_kg"), "%.4g kg CO₂"))
	}
	if cfg.PowerDownS >= 0 {
		line("power-down", fmt.Sprintf("%.0f switch-offs, %.0f switch-ons, %s node time asleep",
			num("switch_offs"), num("switch_ons"), duration(num("node_asleep_s"))))
	}
	line("simulated in", fmt.Sprintf("%.3f s (%.0f events/s)", num("wall_s"), num("events_per_s")))
	tw.Flush()
	files := ""
	tables := []string{"jobs", "timeseries", "nodes", "summary"}
	if cfg.Explain {
		tables = append(tables, "decisions")
	}
	for _, table := range tables {
		files += table + "." + cfg.Format + " "
	}
	if cfg.Format != "csv" {
		files += "summary.csv "
	}
	fmt.Fprintf(out, "\n  files in %s/: %srun.yaml\n", dir, files)
	return nil
}

// orNA formats v, or says "n/a" for a statistic over no jobs.
func orNA(v float64, format string) string {
	if math.IsNaN(v) {
		return "n/a"
	}
	return fmt.Sprintf(format, v)
}

// duration prints seconds readably: "0 s", "42 s", "3h25m10s"; "n/a"
// for a statistic over no jobs.
func duration(s float64) string {
	if math.IsNaN(s) {
		return "n/a"
	}
	if s < 60 {
		return strconv.FormatFloat(s, 'f', -1, 64) + " s"
	}
	d := time.Duration(s * float64(time.Second)).Round(time.Second)
	return fmt.Sprintf("%s (%.0f s)", d, s)
}
