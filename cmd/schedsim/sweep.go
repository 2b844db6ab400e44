package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/schedsim/schedsim/sim/run"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/schedsim/schedsim/internal/words"
	"github.com/schedsim/schedsim/metrics"
	"github.com/schedsim/schedsim/metrics/compare"
	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/sim/experiment"
)

// shardsEnv gives the shard count alongside JOB_COMPLETION_INDEX when
// --shards is not given.
const shardsEnv = "SCHEDSIM_SHARDS"

func newSweepCommand() *cobra.Command {
	var out, shard string
	var workers, shards, maxRuns int
	var quiet bool
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
and DIR/shards/<i>-of-<n>.csv; 'schedsim merge DIR' then writes the summary.`,
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
			defer runtimeForManyRuns(workers)()
			ctx, stop := interruptible()
			interrupt := ctx.Done()
			defer stop()
			sw := &sweeper{dir: out, workers: workers, ctx: ctx, interrupt: interrupt, stderr: cmd.ErrOrStderr(), traces: run.NewTraceCache(),
				progress: !quiet && run.IsTerminal(os.Stderr)}
			return sw.sweep(spec, index, count, quiet, cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "sweep directory (runs/, summary.csv, summary.parquet, experiment.yaml); default runs/sweep-<experiment file name>")
	cmd.Flags().IntVar(&workers, "workers", runtime.GOMAXPROCS(0), "runs at once, on as many cores (GOMAXPROCS, when set, decides the cores)")
	cmd.Flags().StringVar(&shard, "shard", "", "run shard i of n (0 ≤ i < n) of the sorted run keys")
	cmd.Flags().IntVar(&shards, "shards", 0, "shard count with JOB_COMPLETION_INDEX (Kubernetes Indexed Job); default $"+shardsEnv)
	cmd.Flags().BoolVar(&quiet, "quiet", false, "print nothing but errors")
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

// sweeper runs a sweep's runs on a pool of goroutines.
type sweeper struct {
	dir       string
	workers   int
	ctx       context.Context
	interrupt <-chan struct{}
	stderr    io.Writer
	progress  bool
	traces    *run.TraceCache

	mu       sync.Mutex
	bar      *progressbar.ProgressBar
	ran      int
	failures []runFailure
}

type runFailure struct {
	key string
	err error
}

// sweep runs shard index of count of the spec into s.dir.
func (s *sweeper) sweep(spec *experiment.Spec, index, count int, quiet bool, stdout io.Writer) error {
	all, err := spec.Runs()
	if err != nil {
		return run.BadInput(err)
	}
	mine := experiment.Shard(all, index, count)
	runs, err := sweepRuns(spec, mine, s.dir)
	if err != nil {
		return run.BadInput(err)
	}
	if !quiet {
		warnIdenticalReplicas(s.stderr, spec.Seeds, runs)
	}
	data, err := spec.Marshal()
	if err != nil {
		return run.Failed(err)
	}
	if err := checkSweepDir(s.dir, spec.File, data); err != nil {
		return err
	}
	release, err := lockShard(s.dir, index, count)
	if err != nil {
		return err
	}
	defer release()
	if err := os.MkdirAll(filepath.Join(s.dir, experiment.RunsDir), 0o755); err != nil {
		return run.Failed(err)
	}
	if err := writeSpecCopy(s.dir, spec); err != nil {
		return err
	}
	var todo []sweepRun
	for _, r := range runs {
		// A run killed mid-write left its stage: start it over.
		os.RemoveAll(experiment.StageDir(s.dir, r.Key))
		if !experiment.Done(s.dir, r.Key) {
			todo = append(todo, r)
		}
	}
	start := time.Now()
	s.runAll(todo)
	interrupted := false
	select {
	case <-s.interrupt:
		interrupted = true
	default:
	}
	missing := experiment.Missing(s.dir, mine)
	where := ""
	if count > 1 {
		where = fmt.Sprintf(" of shard %d/%d", index, count)
	}
	switch {
	case interrupted:
		return run.Failed(fmt.Errorf("interrupted: %d of %d runs%s finished; run the same command again to finish the rest",
			len(mine)-len(missing), len(mine), where))
	case len(s.failures) > 0:
		return run.Failed(fmt.Errorf("%d of %d runs%s failed (listed above); run the same command again to retry them",
			len(s.failures), len(mine), where))
	case len(missing) > 0: // removed behind our back
		return run.Failed(fmt.Errorf("%d runs%s are not complete, e.g. %s", len(missing), where, missing[0]))
	}
	var outputs string
	if count == 1 {
		if err := writeSweepSummary(s.dir, spec, all); err != nil {
			return run.Failed(err)
		}
		outputs = filepath.Join(s.dir, "summary.csv") + ", " + filepath.Join(s.dir, "summary.parquet")
	} else {
		path := filepath.Join(s.dir, experiment.ShardsDir, fmt.Sprintf("%d-of-%d.csv", index, count))
		if err := writeShardSummary(path, spec, s.dir, mine); err != nil {
			return run.Failed(err)
		}
		outputs = path + "; when every shard is done: schedsim merge " + s.dir
	}
	if !quiet {
		fmt.Fprintf(stdout, "sweep%s: %s (%d run now, %d already done) in %.1f s\n  summary: %s\n",
			where, words.Count(len(mine), "run"), s.ran, len(mine)-len(todo), time.Since(start).Seconds(), outputs)
		if count == 1 {
			if err := printSweepResults(stdout, s.dir, spec); err != nil {
				return run.Failed(err)
			}
		}
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

// warnIdenticalReplicas warns when an experiment asks for several seeds
// but some of its runs draw no random number: their replicas are the same
// run, and a comparison over them has no interval.
func warnIdenticalReplicas(w io.Writer, seeds int, runs []sweepRun) {
	if seeds <= 1 {
		return
	}
	fixed := 0
	for i := range runs {
		if !runs[i].cfg.DrawsRandom() {
			fixed++
		}
	}
	if fixed > 0 {
		fmt.Fprintf(w, "schedsim sweep: warning: seeds: %d, but %d of %d runs draw no random number, so their replicas are identical; "+
			"give them jitter (jitter_submit_s, jitter_runtime), random failures (mtbf_s) or a random placement\n", seeds, fixed, len(runs))
	}
}

// runAll runs todo on s.workers goroutines, stopping early on interrupt.
func (s *sweeper) runAll(todo []sweepRun) {
	if len(todo) == 0 {
		return
	}
	if s.progress {
		s.bar = progressbar.NewOptions(len(todo),
			progressbar.OptionSetWriter(s.stderr),
			progressbar.OptionSetDescription("sweep"),
			progressbar.OptionShowCount(),
			progressbar.OptionSetItsString("runs"),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(200*time.Millisecond),
			progressbar.OptionClearOnFinish(),
		)
		defer s.bar.Finish()
	}
	// A failed run is counted and the others go on: the group's
	// functions never fail; an interrupt stops feeding it.
	var g errgroup.Group
	g.SetLimit(s.workers)
	for i := range todo {
		select {
		case <-s.interrupt:
			waitAll(&g)
			return
		default:
		}
		r := &todo[i]
		g.Go(func() error {
			select {
			case <-s.interrupt:
				return nil
			default:
			}
			s.finished(r.Key, s.runOne(r))
			return nil
		})
	}
	waitAll(&g)
}

// waitAll waits for the runs started; their outcomes are counted by
// finished, not returned.
func waitAll(g *errgroup.Group) { _ = g.Wait() }

// finished counts a run's outcome and reports a failure.
func (s *sweeper) finished(key string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if errors.Is(err, sim.ErrInterrupted) {
		return
	}
	if err != nil {
		s.failures = append(s.failures, runFailure{key, err})
		if s.bar != nil {
			s.bar.Clear()
		}
		fmt.Fprintf(s.stderr, "schedsim sweep: run %s failed: %s\n", key, run.Escape(err.Error()))
	} else {
		s.ran++
	}
	if s.bar != nil {
		if n := len(s.failures); n > 0 {
			s.bar.Describe(fmt.Sprintf("sweep (%d failed)", n))
		}
		s.bar.Add(1)
	}
}

// runOne replays one run into its stage directory and renames it into
// place whole: DIR/runs/<key> exists only once complete. A panic of the
// run is its failure, not the sweep's.
func (s *sweeper) runOne(r *sweepRun) (err error) {
	stage := experiment.StageDir(s.dir, r.Key)
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
		if err != nil {
			os.RemoveAll(stage)
		}
	}()
	select {
	case <-s.interrupt:
		return sim.ErrInterrupted
	default:
	}
	if r.profile != nil {
		if err := writeProfile(r.cfg.Profile, r.profile); err != nil {
			return err
		}
	}
	cfg := r.cfg
	if err := run.Replay(s.ctx, &cfg, run.Options{Dir: stage, Traces: s.traces}); err != nil {
		return err
	}
	final := experiment.RunDir(s.dir, r.Key)
	if err := os.RemoveAll(final); err != nil { // an incomplete leftover, not Done
		return err
	}
	if err := os.Rename(stage, final); err != nil {
		return err
	}
	metrics.SyncDir(filepath.Dir(final))
	return nil
}

// writeSpecCopy writes DIR/experiment.yaml, or checks that the one there
// is this experiment's: finished runs of another experiment must not be
// mistaken for this one's.
func writeSpecCopy(dir string, spec *experiment.Spec) error {
	data, err := spec.Marshal()
	if err != nil {
		return run.Failed(err)
	}
	path := filepath.Join(dir, experiment.SpecFile)
	old, err := os.ReadFile(path)
	switch {
	case err == nil && bytes.Equal(old, data):
		return nil
	case err == nil:
		return run.BadInput(fmt.Errorf("%s holds another experiment than %s (%s differs): use another --out, or remove it", dir, spec.File, path))
	case !errors.Is(err, os.ErrNotExist):
		return run.Failed(err)
	}
	return metrics.WriteFileAtomic(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// writeSweepSummary writes DIR/summary.parquet and DIR/summary.csv.
func writeSweepSummary(dir string, spec *experiment.Spec, runs []experiment.Run) error {
	cols, err := spec.Summary(dir, runs)
	if err != nil {
		return err
	}
	return metrics.WriteSweepSummary(dir, cols)
}

// writeShardSummary writes a shard's summary CSV (its runs only).
func writeShardSummary(path string, spec *experiment.Spec, dir string, runs []experiment.Run) error {
	cols, err := spec.Summary(dir, runs)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return metrics.WriteSweepSummaryCSV(path, cols)
}
