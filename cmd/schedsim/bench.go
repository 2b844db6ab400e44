package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/schedsim/schedsim/metrics"
)

// newBenchCommand measures end-to-end replays: each run is a child process
// (`schedsim replay --quiet`), so its wall time includes reading the trace
// and writing the output files, and its peak memory is its own max RSS.
func newBenchCommand() *cobra.Command {
	var dir, models, backfills, format string
	cmd := &cobra.Command{
		Use:   "bench [TRACE…]",
		Short: "Time end-to-end replays of SWF logs: wall time, jobs/s, events/s, peak memory",
		Long: `Time end-to-end replays (trace reading, simulation, output files) of every SWF log given,
or of every *.swf / *.swf.gz in --dir, for each backfill and cluster model, one child process
per run, and print a Markdown table.`,
		RunE: func(cmd *cobra.Command, args []string) error {
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
				return badInput(fmt.Errorf("no SWF logs in %s; give trace files", dir))
			}
			self, err := os.Executable()
			if err != nil {
				return failed(err)
			}
			tmp, err := os.MkdirTemp("", "schedsim-bench-")
			if err != nil {
				return failed(err)
			}
			defer os.RemoveAll(tmp)
			out := cmd.OutOrStdout()
			tw := tabwriter.NewWriter(out, 0, 0, 1, ' ', 0)
			fmt.Fprintln(tw, "| trace\t| model\t| backfill\t| jobs\t| wall s\t| jobs/s\t| events/s\t| peak MiB\t|")
			fmt.Fprintln(tw, "|---\t|---\t|---\t|---:\t|---:\t|---:\t|---:\t|---:\t|")
			var total float64
			for _, tr := range traces {
				for _, model := range strings.Split(models, ",") {
					for _, bf := range strings.Split(backfills, ",") {
						runDir := filepath.Join(tmp, "run")
						c := exec.Command(self, "replay", "--quiet", "--trace", tr, "--swf-model", model,
							"--backfill", bf, "--format", format, "--out", runDir)
						c.Stderr = os.Stderr
						start := time.Now()
						err := c.Run()
						wall := time.Since(start).Seconds()
						if err != nil {
							return failed(fmt.Errorf("%s %s %s: %v", tr, model, bf, err))
						}
						total += wall
						row, err := metrics.ReadSummaryCSV(filepath.Join(runDir, "summary.csv"))
						if err != nil {
							return failed(err)
						}
						jobs, _ := strconv.ParseFloat(row["jobs"], 64)
						events, _ := strconv.ParseFloat(row["events"], 64)
						rss := float64(c.ProcessState.SysUsage().(*syscall.Rusage).Maxrss) / 1024 // KiB on Linux
						fmt.Fprintf(tw, "| %s\t| %s\t| %s\t| %.0f\t| %.2f\t| %.0f\t| %.0f\t| %.0f\t|\n",
							filepath.Base(tr), model, bf, jobs, wall, jobs/wall, events/wall, rss)
						tw.Flush()
					}
				}
			}
			tw.Flush()
			fmt.Fprintf(out, "\ntotal wall time: %.2f s\n", total)
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "../shared/traces/swf", "directory of SWF logs used when no trace is given")
	cmd.Flags().StringVar(&models, "models", "pool", "comma-separated SWF cluster models (pool,nodes)")
	cmd.Flags().StringVar(&backfills, "backfill", "none,easy,conservative", "comma-separated backfill disciplines")
	cmd.Flags().StringVar(&format, "format", "parquet", "output table format")
	return cmd
}
