package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/schedsim/schedsim/metrics"
	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/sim/calibrate"
	"github.com/schedsim/schedsim/sim/run"
)

// newCalibrateCommand is `schedsim calibrate TRACE --space SPACE.yaml`:
// replays every candidate baseline of a declared space and ranks them by
// how well they reproduce the recorded waits.
func newCalibrateCommand() *cobra.Command {
	cfg := run.Default()
	var spacePath, out string
	var holdout float64
	var workers, blocks int
	cmd := &cobra.Command{
		Use:   "calibrate [TRACE] --space SPACE.yaml",
		Short: "Rank candidate baselines by how well they reproduce a trace's recorded waits, checked on held-out months",
		Long: `calibrate replays every candidate baseline of a search space (SPACE.yaml) on a trace that
records its jobs' real starts, and ranks them by

    objective = calib_wait_ks + |ln calib_mean_wait_ratio| + |ln calib_p95_wait_ratio|

(0 is a replay whose wait distribution, mean and 95th percentile all match the record; a
candidate whose metrics are null ranks last). Waits are compared at the trace's recorded time
resolution, detected from its recorded waits: the largest of 3600, 600, 300, 60, 30, 10, 5, 2, 1 s
that divides 99 % of the nonzero ones (--calib-resolution sets it).

With --holdout H (default 0.4) the trace's submit span is cut at its (1 − H) point: candidates
are chosen on the jobs submitted before (fit_*) and every metric is reported on those after
(holdout_*), which the choice never saw. Each candidate replays the whole trace once per part.
--holdout 0 chooses and reports on the whole log: in-sample, and labelled so.

The choice (--blocks B, default 3): the choosing part is cut into B blocks of equal submit span
(fit_block1…, each one more replay per candidate); a candidate's choice objective is the mean of
its block objectives, with their standard error. Chosen is the candidate with the fewest knobs
(axes not at their first listed value: list the reference, simplest value first) among those within one
standard error of the best mean, ties to the lower mean. A candidate that left recorded jobs of a
part waiting for ever (it started fewer of them than another candidate did) has a null objective
there. --blocks 0: the lowest objective on the whole choosing part.

SPACE.yaml (see docs/what-if.md):

    base: {swf_model: nodes}            # run spec keys every candidate shares (optional)
    axes:                               # run spec keys, each a list of values
      queue: [fcfs, sjf]
      backfill: [easy, none]
      scheduling_interval_s: [0, 60]
      availability: [off, on, 0.3/2]    # inferred availability (schedsim availability) as node events: on is
                                        # its default rule, 0.3/2 at most 30 % busy for at least 2 h
      max_jobs_per_user: [0, inferred]  # inferred: the most any user had running at once in the record
                                        # of the choosing part

Flags set the run spec the candidates start from, as for replay. It writes into --out:
calibration.csv (one row a candidate, the chosen first, then by choice objective; the choice's
objective, standard error, knobs and jobs left waiting; every calibration metric of each part),
best.yaml (the best candidate's complete run spec: 'schedsim replay --config best.yaml'
reproduces its holdout_* columns, or with --holdout 0 its all_* ones), calibration.png, and
runs/ (each candidate's summary; an interrupted calibrate resumes from them).

Exit status: 0 done, 1 a replay failed, 2 bad input.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				cfg.Trace = args[0]
			}
			if spacePath == "" {
				return run.BadInput(errors.New("--space: give the search space YAML file"))
			}
			if holdout < 0 || holdout >= 1 {
				return run.BadInput(fmt.Errorf("--holdout: want a share in [0, 1), got %s", sim.FormatNumber(holdout)))
			}
			if blocks < 0 || blocks == 1 || blocks > 12 {
				return run.BadInput(fmt.Errorf("--blocks: want 0 (no blocks) or 2 to 12 (one block has no standard error), got %d", blocks))
			}
			if workers < 1 {
				return run.BadInput(fmt.Errorf("--workers: want ≥ 1, got %d", workers))
			}
			out, cfg.Out = cfg.Out, ""
			if out == "" {
				return run.BadInput(errors.New("--out: give the directory to write into"))
			}
			if err := cfg.Validate(); err != nil {
				return run.BadInput(err)
			}
			space, err := calibrate.LoadSpace(spacePath)
			if err != nil {
				return run.BadInput(err)
			}
			defer runtimeForManyRuns(workers)()
			ctx, stop := interruptible()
			defer stop()
			resolutionSet := cmd.Flags().Changed("calib-resolution")
			c, err := calibrate.New(cfg, space, out, holdout, blocks, resolutionSet)
			if err != nil {
				return err
			}
			stdout := cmd.OutOrStdout()
			if cfg.Quiet {
				stdout = io.Discard // --quiet: the files say it all
			}
			fmt.Fprintf(stdout, "calibrate %s: %d candidates × %d parts; recorded resolution %s; %s\n",
				c.Record.Trace, len(c.Candidates), len(c.Parts)+len(c.Blocks), resolutionText(c.Base.CalibResolutionS, resolutionSet), splitText(c))
			var progress io.Writer
			if run.IsTerminal(os.Stderr) {
				progress = cmd.ErrOrStderr()
			}
			ranked, err := c.Run(ctx, workers, progress)
			if err != nil {
				return err
			}
			printCalibration(stdout, c, ranked)
			return nil
		},
	}
	cfg.BindFlags(cmd.Flags())
	cmd.Flags().Lookup("out").Usage = "directory for calibration.csv, best.yaml, calibration.png and runs/ (resumed when it holds an earlier calibrate's runs)"
	cmd.Flags().StringVar(&spacePath, "space", "", "search space YAML: base: and axes: of run spec keys (see --help)")
	cmd.Flags().Float64Var(&holdout, "holdout", 0.4, "choose on the earlier 1−H of the submit span, report on the later H (0: in-sample)")
	cmd.Flags().IntVar(&blocks, "blocks", 3, "cut the choosing part into this many blocks of equal submit span and choose by the one-standard-error rule over them (0: the lowest objective on the whole part)")
	cmd.Flags().IntVar(&workers, "workers", runtime.NumCPU(), "replays at once")
	return cmd
}

// printCalibration prints the best candidates.
func printCalibration(w io.Writer, c *calibrate.Calibration, ranked []*calibrate.Candidate) {
	parts := c.Parts
	fmt.Fprintf(w, "objective = wait KS + |ln mean-wait ratio| + |ln p95-wait ratio|; chosen: %s\n", c.RuleText())
	fmt.Fprintf(w, "%-5s %-40s %13s %5s", "rank", strings.Join(c.Space.Keys(), " / "), "choice ± se", "knobs")
	for _, p := range parts {
		fmt.Fprintf(w, " | %-7s %9s %6s %6s %6s", p, "objective", "KS", "mean", "p95")
	}
	fmt.Fprintln(w)
	for i, cd := range ranked {
		if i == 10 {
			fmt.Fprintf(w, "… %d more in calibration.csv\n", len(ranked)-10)
			break
		}
		se := ""
		if !math.IsNaN(cd.Choice.SE) {
			se = " ± " + strconv.FormatFloat(cd.Choice.SE, 'f', 2, 64)
		}
		fmt.Fprintf(w, "%-5d %-40s %13s %5d", i+1, strings.Join(cd.Values, " / "), fmtNum(cd.Choice.Objective)+se, cd.Choice.Knobs)
		for _, p := range parts {
			fmt.Fprintf(w, " | %-7s %9s %6s %6s %6s", "", fmtNum(calibrate.PartObjective(cd.Result[p])),
				short(cd.Value(p, metrics.ColCalibWaitKS)), short(cd.Value(p, metrics.ColCalibMeanWaitRatio)), short(cd.Value(p, metrics.ColCalibP95WaitRatio)))
		}
		fmt.Fprintln(w)
	}
	best := filepath.Join(c.Out, "best.yaml")
	fmt.Fprintf(w, "best: %s → %s (schedsim replay --config %s reproduces its %s columns)\n",
		strings.Join(ranked[0].Values, " / "), best, best, parts[len(parts)-1])
}

func fmtNum(f float64) string {
	if math.IsNaN(f) {
		return "n/a"
	}
	return strconv.FormatFloat(f, 'f', 3, 64)
}

func short(s string) string {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return "n/a"
	}
	return strconv.FormatFloat(f, 'f', 3, 64)
}

func resolutionText(r float64, set bool) string {
	how := "detected"
	if set {
		how = "given"
	}
	if r == 0 {
		return "exact (" + how + ")"
	}
	return fmt.Sprintf("%s s (%s)", sim.FormatNumber(r), how)
}

func splitText(c *calibrate.Calibration) string {
	if c.Holdout == 0 {
		return "chosen and reported on the whole log (in-sample)"
	}
	return fmt.Sprintf("chosen on the jobs submitted before %.0f s (the first %.0f %% of the submit span), reported on those after (held out)",
		c.Cut(), 100*(1-c.Holdout))
}
