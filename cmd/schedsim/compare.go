package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/schedsim/schedsim/metrics/compare"
	"github.com/schedsim/schedsim/sim/run"
)

// newCompareCommand is `schedsim compare BASE CANDIDATE`, the CI
// gate: exit 1 when a metric regresses past its tolerance, 2 on bad input.
func newCompareCommand() *cobra.Command {
	var (
		tolFile   string
		tolFlags  []string
		only      []string
		format    string
		targets   []string
		allowDiff bool
	)
	cmd := &cobra.Command{
		Use:   "compare BASE CANDIDATE",
		Short: "Compare two sweeps or runs metric by metric; exit 1 when one regresses past its tolerance",
		Long: `compare matches the runs of BASE and CANDIDATE by key (a sweep's run column without its seed; a run
directory's trace, queue, backfill and profile) and prints, per metric, the base and candidate means over
seeds, the change, a 95% t-interval of the change (paired by seed when both sides ran the same seeds)
and a verdict. Each side is a sweep directory (summary.csv with a run column), a run directory, a
directory of run directories, or run directories joined by commas.

Its header says what is compared, from each side's run.yaml: the workload (trace and its SHA-256) and
what differs (cluster, what-if transforms, policies). Sides that replay different workloads are refused
unless --allow-different-workloads. A metric that a side cannot compute (energy without a power model,
calibration after a what-if) is "not comparable", never scored. --target "p95_wait_s <= 3600" answers a
planner's question per scenario: the replicas that meet it, each replica's value, the interval of the mean.

Exit status: 0 no regression, 1 a metric is worse than the base by more than its tolerance (and, with
three or more replicas a side that differ, its interval excludes zero), 2 bad input.

Default tolerances (lower is better unless said):
` + defaultTolerancesHelp(),
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 2 {
				return run.BadInput(fmt.Errorf("compare: want BASE and CANDIDATE, got %d argument(s)", len(args)))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			tols := compare.DefaultTolerances()
			if tolFile != "" {
				if err := tols.LoadFile(tolFile); err != nil {
					return run.BadInput(err)
				}
			}
			for _, f := range tolFlags {
				if err := tols.SetFlag(f); err != nil {
					return run.BadInput(err)
				}
			}
			if len(only) > 0 {
				if err := tols.Only(only); err != nil {
					return run.BadInput(err)
				}
			}
			if format != "text" && format != "markdown" && format != "csv" {
				return run.BadInput(fmt.Errorf("--format: want text, markdown or csv, got %q", format))
			}
			opt := compare.Options{AllowDifferentWorkloads: allowDiff, Targets: tols.Targets}
			for _, t := range targets {
				parsed, err := compare.ParseTarget(t)
				if err != nil {
					return run.BadInput(fmt.Errorf("--target: %w", err))
				}
				opt.Targets = append(opt.Targets, parsed)
			}
			base, err := compare.Load(args[0])
			if err != nil {
				return run.BadInput(fmt.Errorf("base: %w", err))
			}
			cand, err := compare.Load(args[1])
			if err != nil {
				return run.BadInput(fmt.Errorf("candidate: %w", err))
			}
			res, err := compare.Compare(base, cand, tols, opt)
			if err != nil {
				return run.BadInput(err)
			}
			write := res.WriteText
			switch format {
			case "markdown":
				write = res.WriteMarkdown
			case "csv":
				write = res.WriteCSV
			}
			if err := write(cmd.OutOrStdout()); err != nil {
				return run.Failed(err)
			}
			if n := len(res.Regressions); n > 0 {
				return run.Failed(fmt.Errorf("compare: %d metric(s) regressed past tolerance", n))
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&tolFile, "tolerances", "", "YAML file: metric → tolerance (5% of the base, 0.02 absolute, off) or {tolerance, direction}")
	f.StringArrayVar(&tolFlags, "tolerance", nil, "NAME=VALUE[,lower|higher|near1], repeatable; wins over --tolerances (mean_bsld=5%, jain_bsld=0.01)")
	f.StringSliceVar(&only, "metrics", nil, "compare only these metrics, in this order (comma-separated)")
	f.StringVar(&format, "format", "text", "output: text, markdown (for a pull-request comment) or csv (every row unrounded, for tools)")
	f.StringArrayVar(&targets, "target", nil, `a planner's question, "METRIC OP VALUE" ("p95_wait_s <= 3600"), repeatable; also target: in --tolerances`)
	f.BoolVar(&allowDiff, "allow-different-workloads", false, "compare sides that replay different traces (refused otherwise)")
	return cmd
}

// defaultTolerancesHelp lists the default metrics for --help.
func defaultTolerancesHelp() string {
	s := ""
	for _, m := range compare.Defaults() {
		s += fmt.Sprintf("  %-27s %-7s %s\n", m.Name, m.Direction, m.Tolerance)
	}
	return s
}
