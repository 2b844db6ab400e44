package main

import (
	"errors"
	"fmt"
	"io"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/schedsim/schedsim/sim/run"
	"github.com/schedsim/schedsim/sim/tune"
)

// newTuneCommand is `schedsim tune EXPERIMENT.yaml`: it searches
// the weights of a lattice profile for the experiment's tune: objective
// under its constraints, replaying every run of the experiment (with the
// profile axis replaced by the candidate) for each profile evaluated.
func newTuneCommand() *cobra.Command {
	var out string
	var workers, iterations int
	var seed uint64
	cmd := &cobra.Command{
		Use:   "tune EXPERIMENT.yaml",
		Short: "Search lattice profile weights (CMA-ES or Nelder–Mead) for an objective under constraints",
		Long: `tune reads an experiment (the sweep format, queue lattice) and its tune: block, evaluates the
named profiles (the experiment's profiles:, else every built-in one), measures on their runs
which factors ever differ between the jobs queued in a pass (the others cannot change a schedule
and are left out of the search unless tune.keep_inert is true), then searches the weights
from the best of them with gonum/optimize (CMA-ES, its population replayed in parallel, or
Nelder–Mead). Each profile is scored by replaying every run of the experiment (traces × clusters
× backfills × parameter points × seeds) and averaging. It prints the named profiles, the best
objective after each iteration, the Pareto front of everything evaluated and the best profile as
YAML for --profile FILE; --out DIR gets summary.csv and summary.parquet (one row per profile, the
sweep summary format that 'schedsim report' draws), convergence.csv, best-profile.yaml and
best.yaml, a complete run spec: 'schedsim replay --config best.yaml' replays the best profile
(on the first run of the experiment; best-<run>.yaml for each when there are several).

Exit status: 0 when a profile meets the constraints, 1 when none does or a replay fails, 2 bad input.`,
		Args: wantArgs(1, 1, "the experiment file with a tune: section (see docs/sweeps.md)", "schedsim tune testdata/tune/kth-tune.yaml"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if workers < 1 {
				return run.BadInput(fmt.Errorf("--workers: want ≥ 1, got %d", workers))
			}
			t, err := tune.Prepare(args[0])
			if err != nil {
				return run.BadInput(err)
			}
			if cmd.Flags().Changed("seed") {
				t.Config.Seed = seed
			}
			if cmd.Flags().Changed("iterations") {
				if iterations < 1 {
					return run.BadInput(fmt.Errorf("--iterations: want ≥ 1, got %d", iterations))
				}
				t.Config.Iterations = iterations
			}
			if out == "" {
				out = defaultOut("tune", t.Name)
			}
			defer runtimeForManyRuns(workers)()
			return runTune(t, workers, out, cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "output directory (default runs/tune-<experiment name>)")
	cmd.Flags().IntVar(&workers, "workers", runtime.GOMAXPROCS(0), "replays at once, on as many cores (GOMAXPROCS, when set, decides the cores)")
	cmd.Flags().Uint64Var(&seed, "seed", 0, "optimizer seed (default: tune.seed, else the experiment's seed)")
	cmd.Flags().IntVar(&iterations, "iterations", 0, "search iterations (default: tune.iterations, else 20)")
	return cmd
}

// runTune searches, prints what it found and writes the files.
func runTune(t *tune.Tuning, workers int, out string, stdout io.Writer) error {
	ctx, stop := interruptible()
	defer stop()
	res, err := t.Search(ctx, workers)
	if err != nil {
		return run.Failed(err)
	}
	if err := res.WriteText(stdout, tune.Describe{Spec: t.Spec.File, Runs: len(t.Runs), Workers: workers}); err != nil {
		return run.Failed(err)
	}
	if err := t.WriteFiles(out, res); err != nil {
		return run.Failed(err)
	}
	fmt.Fprintf(stdout, "\nfiles in %s/: summary.csv, summary.parquet, convergence.csv", out)
	if res.Best != nil {
		fmt.Fprint(stdout, ", best-profile.yaml, best.yaml (schedsim replay --config best.yaml")
		if len(t.Runs) > 1 {
			fmt.Fprintf(stdout, " replays the first of the %d runs; best-<run>.yaml each of them", len(t.Runs))
		}
		fmt.Fprint(stdout, ")")
	}
	fmt.Fprintln(stdout)
	if res.Best == nil {
		return run.Failed(errors.New("tune: no profile evaluated meets the constraints"))
	}
	return nil
}
