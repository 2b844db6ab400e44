package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/schedsim/schedsim/sim/run"
	"github.com/schedsim/schedsim/sim/sweep"

	"github.com/spf13/cobra"

	"github.com/schedsim/schedsim/internal/words"
	"github.com/schedsim/schedsim/metrics/compare"
	"github.com/schedsim/schedsim/sim/experiment"
)

// shardsEnv gives the shard count alongside JOB_COMPLETION_INDEX when
// --shards is not given.
const shardsEnv = "SCHEDSIM_SHARDS"

func newSweepCommand() *cobra.Command {
	var out, shard string
	var workers, shards, maxRuns int
	var quiet, dryRun bool
	cmd := &cobra.Command{
		Use:   "sweep EXPERIMENT.yaml --out DIR",
		Short: "Run every run of an experiment on all cores: resumable, shardable, one summary",
		Long: `Run the product of an experiment's traces × clusters × policies × profiles ×
parameter points × seeds, one replay per goroutine on --workers cores, each into
DIR/runs/<key>/, then write DIR/summary.csv and DIR/summary.parquet (one row per run).

Finished runs are kept: running the same command again (after Ctrl-C, kill -9, or
failed runs) does only what is missing. A failed run is reported and counted; the
others go on, and the exit status is 1 at the end.

Sharding: --shard i/n runs the runs at positions i, i+n, … of the sorted keys (so does
JOB_COMPLETION_INDEX=i with --shards n or SCHEDSIM_SHARDS=n, and a Slurm array task's
SLURM_ARRAY_TASK_ID, _COUNT, _MIN and _STEP). Each shard writes its runs into DIR/runs/
and DIR/shards/<i>-of-<n>.csv; 'schedsim merge DIR' then writes the summary.

Runs are planned one at a time, in key order, never all held: planning holds the
experiment's axes, not its runs (docs/sweeps.md says what does grow with them).
--dry-run plans and checks every run and says how many there are and how many are
done, replaying and writing nothing.`,
		Args: wantArgs(1, 1, "the experiment file that lists the runs (EXPERIMENT.yaml, see docs/sweeps.md)", "schedsim sweep testdata/experiments/kth-lattice.yaml --out runs/sweep-kth"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				// Stable, so that running the same command again resumes it.
				out = defaultOut("sweep", args[0])
			}
			if workers < 1 {
				return run.BadInput(fmt.Errorf("--workers: want ≥ 1, got %d", workers))
			}
			index, count, err := resolveShard(shard, shards, cmd.Flags().Changed("shards"), os.LookupEnv)
			if err != nil {
				return run.BadInput(err)
			}
			spec, err := experiment.Load(args[0])
			if err != nil {
				return run.BadInput(err)
			}
			if maxRuns < 1 {
				return run.BadInput(fmt.Errorf("--max-runs: want ≥ 1, got %d", maxRuns))
			}
			spec.MaxRuns = maxRuns
			if dryRun {
				sw := &sweep.Sweeper{Dir: out, Stderr: cmd.ErrOrStderr(), Quiet: quiet}
				o, err := sw.DryRun(spec, index, count)
				if err != nil || quiet {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "sweep%s, dry run: %s, %d already done in %s, %d to run; nothing replayed\n",
					o.Where(), words.Count(o.Runs, "run"), o.AlreadyDone, out, o.Runs-o.AlreadyDone)
				return nil
			}
			defer runtimeForManyRuns(workers)()
			ctx, stop := interruptible()
			defer stop()
			sw := &sweep.Sweeper{Dir: out, Workers: workers, Stderr: cmd.ErrOrStderr(), Traces: run.NewTraceCache(),
				Progress: !quiet && run.IsTerminal(os.Stderr), Quiet: quiet}
			o, err := sw.Sweep(ctx, spec, index, count)
			if err != nil || quiet {
				return err
			}
			return printSweep(cmd.OutOrStdout(), o, out, spec)
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "sweep directory (runs/, summary.csv, summary.parquet, experiment.yaml); default runs/sweep-<experiment file name>")
	cmd.Flags().IntVar(&workers, "workers", runtime.GOMAXPROCS(0), "runs at once, on as many cores (GOMAXPROCS, when set, decides the cores)")
	cmd.Flags().StringVar(&shard, "shard", "", "run shard i of n (0 ≤ i < n) of the sorted run keys")
	cmd.Flags().IntVar(&shards, "shards", 0, "shard count with JOB_COMPLETION_INDEX (Kubernetes Indexed Job); default $"+shardsEnv)
	cmd.Flags().BoolVar(&quiet, "quiet", false, "print nothing but errors")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "plan and check every run, print how many there are and how many are done; replay and write nothing")
	cmd.Flags().IntVar(&maxRuns, "max-runs", experiment.DefaultMaxRuns, "refuse an experiment of more runs than this (a guard against a grid or a seed count given by mistake)")
	return cmd
}

// resolveShard picks the shard from --shard, else JOB_COMPLETION_INDEX
// (with --shards or $SCHEDSIM_SHARDS), else a Slurm array's variables
// (--shards overrides SLURM_ARRAY_TASK_COUNT), else the whole sweep.
func resolveShard(flag string, shards int, shardsSet bool, env func(string) (string, bool)) (index, count int, err error) {
	if flag != "" {
		index, count, err = experiment.ParseShard(flag)
		if err != nil {
			return 0, 0, fmt.Errorf("--shard: %w", err)
		}
		return index, count, nil
	}
	atoi := func(name, v string) int {
		n, perr := strconv.Atoi(v)
		if perr != nil && err == nil {
			err = fmt.Errorf("%s=%q: want a whole number", name, v)
		}
		return n
	}
	if v, ok := env("JOB_COMPLETION_INDEX"); ok {
		index = atoi("JOB_COMPLETION_INDEX", v)
		count = shards
		if !shardsSet {
			n, ok := env(shardsEnv)
			if !ok {
				return 0, 0, fmt.Errorf("JOB_COMPLETION_INDEX is set: give the shard count with --shards N or %s=N", shardsEnv)
			}
			count = atoi(shardsEnv, n)
		}
	} else if v, ok := env("SLURM_ARRAY_TASK_ID"); ok {
		// --array=MIN-MAX[:STEP] numbers tasks MIN, MIN+STEP, …
		index = atoi("SLURM_ARRAY_TASK_ID", v)
		if m, ok := env("SLURM_ARRAY_TASK_MIN"); ok {
			index -= atoi("SLURM_ARRAY_TASK_MIN", m)
		}
		if st, ok := env("SLURM_ARRAY_TASK_STEP"); ok {
			if step := atoi("SLURM_ARRAY_TASK_STEP", st); step > 1 {
				index /= step
			}
		}
		count = shards
		if !shardsSet {
			n, ok := env("SLURM_ARRAY_TASK_COUNT")
			if !ok {
				return 0, 0, errors.New("SLURM_ARRAY_TASK_ID is set without SLURM_ARRAY_TASK_COUNT: give --shards N")
			}
			count = atoi("SLURM_ARRAY_TASK_COUNT", n)
		}
	} else {
		if shardsSet && shards != 1 {
			return 0, 0, errors.New("--shards: needs JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID (or use --shard i/n)")
		}
		return 0, 1, nil
	}
	if err != nil {
		return 0, 0, err
	}
	if count < 1 || index < 0 || index >= count {
		return 0, 0, fmt.Errorf("shard %d of %d: want 0 ≤ index < count", index, count)
	}
	return index, count, nil
}

// printSweep prints what a sweep did and, for a whole sweep, its results.
func printSweep(w io.Writer, o *sweep.Outcome, dir string, spec *experiment.Spec) error {
	outputs := strings.Join(o.Summaries, ", ")
	if o.Count > 1 {
		outputs += "; when every shard is done: schedsim merge " + dir
	}
	fmt.Fprintf(w, "sweep%s: %s (%d run now, %d already done) in %.1f s\n  summary: %s\n",
		o.Where(), words.Count(o.Runs, "run"), o.Ran, o.AlreadyDone, o.Elapsed.Seconds(), outputs)
	if o.Count > 1 {
		return nil
	}
	if err := printSweepResults(w, dir, spec); err != nil {
		return run.Failed(err)
	}
	return nil
}

// printSweepResults prints the sweep's table of results from its
// summary: per group (the run key without its seed), the headline
// metrics' means and intervals over the seeds, the best group on the
// experiment's objective, and how many replicas meet its target.
func printSweepResults(w io.Writer, dir string, spec *experiment.Spec) error {
	side, err := compare.Load(dir)
	if err != nil {
		return err
	}
	objective := spec.Objective
	if objective == "" {
		objective = experiment.DefaultObjective
	}
	cols := slices.Clone(compare.Headline)
	if !slices.Contains(cols, objective) {
		cols = append(cols, objective)
	}
	cols = slices.DeleteFunc(cols, func(c string) bool { return !slices.Contains(side.Columns, c) })
	var target *compare.Target
	if spec.Target != "" {
		t, err := compare.ParseTarget(spec.Target)
		if err != nil {
			return err // Validate checked it
		}
		target = &t
	}
	groups, common := compare.Summarize(side, cols)
	fmt.Fprintln(w)
	return compare.WriteGroups(w, groups, common, cols, objective, target)
}
