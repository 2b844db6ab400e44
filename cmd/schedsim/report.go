package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/schedsim/schedsim/report"
)

// newReportCommand is `schedsim report RUN_DIR… --out DIR` (SPEC §7): the
// comparative figures and index.html of package report. A directory that
// is not a run is bad input (exit 2, the message names it and the missing
// file); a failed write is a failed run (exit 1).
func newReportCommand() *cobra.Command {
	var out string
	var quiet bool
	cmd := &cobra.Command{
		Use:   "report RUN_DIR… --out DIR",
		Short: "Comparative figures (PNG and SVG) and a self-contained index.html for run directories",
		Long: "report reads run directories written by replay and draws, one line or box per run: the wait-time CDF,\n" +
			"bounded-slowdown box plots, utilization, queue length and power over time, as PNG and SVG, plus\n" +
			"index.html with every figure inline and the summary table of every run (it works from a file:// URL).",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return badInput(fmt.Errorf("report: give at least one run directory"))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return badInput(fmt.Errorf("report: --out DIR is required"))
			}
			runs, err := report.LoadRuns(args)
			if err != nil {
				return badInput(err)
			}
			written, err := report.Write(runs, out)
			if err != nil {
				return failed(err)
			}
			if !quiet {
				fmt.Fprintf(cmd.OutOrStdout(), "wrote %d files; open %s\n", len(written), written[len(written)-1])
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "report directory (created if missing)")
	cmd.Flags().BoolVar(&quiet, "quiet", false, "print nothing but errors")
	return cmd
}
