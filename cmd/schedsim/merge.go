package main

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/schedsim/schedsim/internal/words"
	"github.com/schedsim/schedsim/sim/experiment"
	"github.com/schedsim/schedsim/sim/run"
	"github.com/schedsim/schedsim/sim/sweep"
)

func newMergeCommand() *cobra.Command {
	var out string
	var quiet bool
	var maxRuns int
	cmd := &cobra.Command{
		Use:   "merge DIR | merge SHARD_DIR… --out DIR",
		Short: "Join the shards of a sweep into one summary.csv and summary.parquet",
		Long: `Join the runs of a sharded sweep into DIR/summary.csv and DIR/summary.parquet,
byte for byte what one process would have written. Every run of the experiment
(DIR/experiment.yaml) must be complete; the missing ones are listed, with their shard.

'merge DIR' reads a sweep directory the shards shared. 'merge SHARD_DIR… --out DIR'
joins shards that wrote to separate directories: their runs are copied into DIR/runs/.`,
		Args: wantArgs(1, -1, "a sweep directory, or its shard directories and --out", "schedsim merge runs/sweep-kth"),
		RunE: func(cmd *cobra.Command, args []string) error {
			var sources []string
			if out == "" {
				if len(args) != 1 {
					return run.BadInput(errors.New("give one sweep directory, or shard directories and --out DIR"))
				}
				out = args[0]
			} else {
				sources = args
			}
			if maxRuns < 1 {
				return run.BadInput(fmt.Errorf("--max-runs: want ≥ 1, got %d", maxRuns))
			}
			n, err := sweep.Merge(out, sources, maxRuns)
			if err != nil {
				return err
			}
			if !quiet {
				fmt.Fprintf(cmd.OutOrStdout(), "merge: %s → %s, %s\n", words.Count(n, "run"),
					filepath.Join(out, "summary.csv"), filepath.Join(out, "summary.parquet"))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "sweep directory to write (with shard directories as arguments)")
	cmd.Flags().BoolVar(&quiet, "quiet", false, "print nothing but errors")
	cmd.Flags().IntVar(&maxRuns, "max-runs", experiment.DefaultMaxRuns, "refuse an experiment of more runs than this (give the sweep's --max-runs)")
	return cmd
}
