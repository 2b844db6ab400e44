package main

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/schedsim/schedsim/metrics"
	"github.com/schedsim/schedsim/sim/run"
)

func newExportCommand() *cobra.Command {
	var to, out, workload string
	cmd := &cobra.Command{
		Use:   "export RUN_DIR",
		Short: "Write a run's jobs in another simulator's format (--to batsim: Batsim's out_jobs.csv, read by evalys)",
		Long: `export writes a run's jobs table in another tool's format.

  --to batsim   Batsim's out_jobs.csv: job_id, workload_name, profile, submission_time,
                requested_number_of_resources, requested_time, success, final_state,
                starting_time, execution_time, finish_time, waiting_time, turnaround_time,
                stretch, allocated_resources (interval sets such as "0-3 7"),
                consumed_energy, metadata — so evalys and Batsim users' scripts read the run.`,
		Args: wantArgs(1, 1, "one run directory", "schedsim export runs/easy --to batsim"),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := args[0]
			if to != "batsim" {
				return run.BadInput(fmt.Errorf("--to: unknown format %q (known: batsim)", to))
			}
			if !run.IsRunDir(dir) {
				return run.BadInput(fmt.Errorf("%s: not a run directory (no run.yaml or summary.csv)", dir))
			}
			if out == "" {
				out = filepath.Join(dir, "out_jobs.csv")
			}
			if err := metrics.ExportBatsim(dir, out, metrics.BatsimOptions{Workload: workload}); err != nil {
				return run.BadInput(err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "wrote %s\n", out)
			return nil
		},
	}
	cmd.Flags().StringVar(&to, "to", "batsim", "output format: batsim")
	cmd.Flags().StringVar(&out, "out", "", "output file (default RUN_DIR/out_jobs.csv)")
	cmd.Flags().StringVar(&workload, "workload", "", "workload_name of jobs whose id names none (default w0)")
	return cmd
}
