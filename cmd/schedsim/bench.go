package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/schedsim/schedsim/cmd/schedsim/run"
	"github.com/schedsim/schedsim/metrics"
)

// newBenchCommand measures end-to-end replays: each run is a child process
// (`schedsim replay --quiet`), so its wall time includes reading the trace
// and writing the output files, and its peak memory is its own max RSS.
func newBenchCommand() *cobra.Command {
	var dir, models, backfills, format, suite string
	var google *googleBench
	cmd := &cobra.Command{
		Use:   "bench [TRACE…]",
		Short: "Time end-to-end replays of SWF logs (wall time, jobs/s, events/s, peak memory), placement and openb",
		Long: `Time end-to-end replays (trace reading, simulation, output files) of every SWF log given,
or of every *.swf / *.swf.gz in --dir, for each backfill and cluster model, one child process
per run, and print a Markdown table.

--suite placement prints placements/s on a 10,000-node heterogeneous cluster at 70% occupancy
(the fit filter, the job-constraint filters and 3 scorers), with a full scan and with the
candidate limit. --suite openb times one FGD run of the openb experiment and all six
policies × 10 seeds (child processes, with peak memory). --suite google generates a
Google-2011-like trace (--tasks, --machines; default 10 million on 12,500) and replays it with
least-allocated placement and the candidate limit auto, printing wall time, tasks/s and peak
memory of each step. --suite sweep times a 200-run
sweep on the first 20,000 jobs of an SWF log (the first TRACE, else the first *.swf.gz in
--dir) with 1 and 2 workers, and prints runs/s and the speed-up.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			switch suite {
			case "swf":
			case "placement":
				return benchPlacement(cmd.OutOrStdout())
			case "openb":
				return benchOpenb(cmd.OutOrStdout())
			case "google":
				return google.run(cmd.OutOrStdout(), googleBackfills(backfills, cmd.Flags().Changed("backfill")))
			case "sweep":
				return benchSweep(cmd.OutOrStdout(), args, dir)
			default:
				return run.BadInput(fmt.Errorf("--suite %q: want swf, placement, openb, sweep or google", suite))
			}
			traces := args
			if len(traces) == 0 {
				seen := map[string]bool{}
				for _, pat := range []string{"*.swf", "*.swf.gz", "lublin_*"} {
					m, _ := filepath.Glob(filepath.Join(dir, pat))
					for _, f := range m {
						if !seen[f] {
							seen[f] = true
							traces = append(traces, f)
						}
					}
				}
				sort.Strings(traces)
			}
			if len(traces) == 0 {
				return run.BadInput(fmt.Errorf("--dir %s: no SWF logs there; give trace files as arguments or --dir (e.g. the embedded log: schedsim bench cmd/schedsim/embedded/KTH-SP2-1996-2.1-cln.swf.gz)", dir))
			}
			self, err := os.Executable()
			if err != nil {
				return run.Failed(err)
			}
			tmp, err := os.MkdirTemp("", "schedsim-bench-")
			if err != nil {
				return run.Failed(err)
			}
			defer os.RemoveAll(tmp)
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "load average before: %s\n\n", loadAverage())
			row := "| %-30s | %-5s | %-12s | %7s | %6s | %6s | %8s | %9s | %8s |\n"
			fmt.Fprintf(out, row, "trace", "model", "backfill", "jobs", "wall s", "CPU s", "jobs/s", "events/s", "peak MiB")
			fmt.Fprintf(out, row, "---", "---", "---", "---:", "---:", "---:", "---:", "---:", "---:")
			var total, totalCPU float64
			for _, tr := range traces {
				for _, model := range strings.Split(models, ",") {
					for _, bf := range strings.Split(backfills, ",") {
						runDir := filepath.Join(tmp, "run")
						t, err := timeChild(self, "replay", "--quiet", "--trace", tr, "--swf-model", model,
							"--backfill", bf, "--format", format, "--out", runDir)
						if err != nil {
							return run.Failed(fmt.Errorf("%s %s %s: %v", tr, model, bf, err))
						}
						total += t.wall
						totalCPU += t.cpu
						sum, err := metrics.ReadSummaryCSV(filepath.Join(runDir, "summary.csv"))
						if err != nil {
							return run.Failed(err)
						}
						// replay refuses an --out that holds a run: clear it for the next one.
						if err := os.RemoveAll(runDir); err != nil {
							return run.Failed(err)
						}
						jobs, _ := strconv.ParseFloat(sum["jobs"], 64)
						events, _ := strconv.ParseFloat(sum["events"], 64)
						fmt.Fprintf(out, row, filepath.Base(tr), model, bf, fmt.Sprintf("%.0f", jobs), fmt.Sprintf("%.2f", t.wall),
							fmt.Sprintf("%.2f", t.cpu), fmt.Sprintf("%.0f", jobs/t.wall), fmt.Sprintf("%.0f", events/t.wall), fmt.Sprintf("%.0f", t.rssMiB))
					}
				}
			}
			fmt.Fprintf(out, "\ntotal: %.2f s wall, %.2f s CPU; load average after: %s\n", total, totalCPU, loadAverage())
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "../shared/traces/swf", "directory of SWF logs used when no trace is given")
	cmd.Flags().StringVar(&models, "models", "pool", "comma-separated SWF cluster models (pool,nodes)")
	cmd.Flags().StringVar(&backfills, "backfill", "none,easy,conservative", "comma-separated backfill disciplines")
	cmd.Flags().StringVar(&format, "format", "parquet", "output table format")
	cmd.Flags().StringVar(&suite, "suite", "swf", "what to measure: swf (replays), placement, openb, sweep, google")
	google = addGoogleBenchFlags(cmd.Flags())
	return cmd
}
