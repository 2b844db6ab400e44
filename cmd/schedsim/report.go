package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/schedsim/schedsim/cmd/schedsim/run"
	"github.com/schedsim/schedsim/report"
)

// newReportCommand is `schedsim report DIR… --out DIR` (SPEC §7): the
// comparative figures and index.html of package report, for run and sweep
// directories. A directory that is neither is bad input (exit 2, the
// message names it and the missing file), and so is a heatmap option the
// sweep cannot satisfy; a failed write is a failed run (exit 1).
func newReportCommand() *cobra.Command {
	var out string
	var quiet bool
	var opts report.Options
	cmd := &cobra.Command{
		Use:   "report DIR… --out DIR",
		Short: "Comparative figures (PNG and SVG) and a self-contained index.html for run and sweep directories",
		Long: "report reads run directories written by replay and draws, one line, box or bar per run: the wait-time CDF,\n" +
			"bounded-slowdown box plots, per-tenant fairness bars (mean bounded slowdown and usage ÷ share),\n" +
			"utilization, queue length, power, fragmentation and nodes asleep over time (the last two when a run has\n" +
			"them) and the cumulative energy. For a sweep directory (written\n" +
			"by sweep: its summary.csv has a run column) it draws weight heatmaps and the Pareto front of mean wait,\n" +
			"fairness and energy. PNG and SVG, plus index.html with every figure inline and the summary tables\n" +
			"(it works from a file:// URL).",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return run.BadInput(fmt.Errorf("report: give at least one run or sweep directory"))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return run.BadInput(fmt.Errorf("report: --out DIR is required"))
			}
			in, err := report.LoadInputs(args)
			if err != nil {
				return run.BadInput(err)
			}
			if err := report.CheckOptions(in, opts); err != nil {
				return run.BadInput(err)
			}
			written, err := report.Write(in, out, opts)
			if err != nil {
				return run.Failed(err)
			}
			if !quiet {
				fmt.Fprintf(cmd.OutOrStdout(), "wrote %d files; open %s\n", len(written), written[len(written)-1])
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "report directory (created if missing)")
	cmd.Flags().BoolVar(&quiet, "quiet", false, "print nothing but errors")
	cmd.Flags().StringSliceVar(&opts.HeatmapMetrics, "heatmap-metric", nil,
		"sweep summary columns drawn as weight heatmaps, one figure each (default: "+strings.Join(report.DefaultHeatmapMetrics, ",")+", those the sweep has)")
	cmd.Flags().StringSliceVar(&opts.HeatmapWeights, "heatmap-weights", nil,
		"the two swept weights on the heatmaps' axes, e.g. w_age,w_size (default: the two with the most values)")
	return cmd
}
