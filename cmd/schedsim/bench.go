package main

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/schedsim/schedsim/sim/run"
)

// newBenchCommand measures end-to-end replays: each run is a child process
// (`schedsim replay --quiet`), so its wall time includes reading the trace
// and writing the output files, and its peak memory is its own max RSS.
func newBenchCommand() *cobra.Command {
	var dir, models, backfills, format, suite string
	var workers int
	var google *googleBench
	cmd := &cobra.Command{
		Use:   "bench [TRACE…]",
		Short: "Time end-to-end replays of SWF logs (wall time, jobs/s, events/s, peak memory), placement and openb",
		Long: `Time end-to-end replays (trace reading, simulation, output files) of every SWF log given,
or of every *.swf / *.swf.gz in --dir, for each backfill and cluster model, one child process
per run, and print a Markdown table. --workers N runs N children at once, as a sweep on all
cores would, and prints the elapsed time of the whole table beside the sum of the runs.

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
				return run.BadInput(fmt.Errorf("--dir %s: no SWF logs there; give trace files as arguments or --dir (e.g. the embedded log: schedsim bench traces/embedded/KTH-SP2-1996-2.1-cln.swf.gz)", dir))
			}
			if workers < 1 {
				return run.BadInput(fmt.Errorf("--workers %d: want at least 1", workers))
			}
			return benchSWF(cmd.OutOrStdout(), swfBench{traces: traces, models: strings.Split(models, ","),
				backfills: strings.Split(backfills, ","), format: format, workers: workers})
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "../shared/traces/swf", "directory of SWF logs used when no trace is given")
	cmd.Flags().StringVar(&models, "models", "pool", "comma-separated SWF cluster models (pool,nodes)")
	cmd.Flags().StringVar(&backfills, "backfill", "none,easy,conservative", "comma-separated backfill disciplines")
	cmd.Flags().StringVar(&format, "format", "parquet", "output table format")
	cmd.Flags().IntVar(&workers, "workers", 1, "replays run at once (--suite swf); each row's times are then measured beside the others")
	cmd.Flags().StringVar(&suite, "suite", "swf", "what to measure: swf (replays), placement, openb, sweep, google")
	google = addGoogleBenchFlags(cmd.Flags())
	return cmd
}
