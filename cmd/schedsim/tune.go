package main

import (
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/schedsim/schedsim/sim/run"

	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"

	"github.com/schedsim/schedsim/metrics"
	"github.com/schedsim/schedsim/policies/lattice"
	"github.com/schedsim/schedsim/sim/experiment"
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
			t, err := newTuning(args[0])
			if err != nil {
				return run.BadInput(err)
			}
			if cmd.Flags().Changed("seed") {
				t.cfg.Seed = seed
			}
			if cmd.Flags().Changed("iterations") {
				if iterations < 1 {
					return run.BadInput(fmt.Errorf("--iterations: want ≥ 1, got %d", iterations))
				}
				t.cfg.Iterations = iterations
			}
			if out == "" {
				out = defaultOut("tune", t.name)
			}
			defer runtimeForManyRuns(workers)()
			return t.run(workers, out, cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "output directory (default runs/tune-<experiment name>)")
	cmd.Flags().IntVar(&workers, "workers", runtime.GOMAXPROCS(0), "replays at once, on as many cores (GOMAXPROCS, when set, decides the cores)")
	cmd.Flags().Uint64Var(&seed, "seed", 0, "optimizer seed (default: tune.seed, else the experiment's seed)")
	cmd.Flags().IntVar(&iterations, "iterations", 0, "search iterations (default: tune.iterations, else 20)")
	return cmd
}

// tuning is a tune command's resolved inputs.
type tuning struct {
	spec  *experiment.Spec
	name  string
	cfg   *tune.Config
	named []lattice.Profile
	runs  []sweepRun
}

// newTuning loads and checks the experiment: lattice queue only, no
// swept weights (tune chooses them), named profiles resolved.
func newTuning(path string) (*tuning, error) {
	spec, err := experiment.Load(path)
	if err != nil {
		return nil, err
	}
	t := &tuning{spec: spec, name: spec.Name}
	if t.name == "" {
		t.name = strings.TrimSuffix(strings.TrimSuffix(filepath.Base(path), ".yaml"), ".yml")
	}
	var errs []error
	if t.cfg, err = tune.ParseConfig(&spec.Tune, spec.File, spec.Seed); err != nil {
		errs = append(errs, err)
	}
	if q := spec.Policies.Queue; len(q) != 1 || q[0] != experiment.LatticeQueue {
		errs = append(errs, spec.Errorf("policies.queue", "tune searches lattice weights: want [%s]", experiment.LatticeQueue))
	}
	for i, r := range spec.Parameters.Ranges {
		if _, ok := experiment.Weight(r.Name); ok {
			errs = append(errs, spec.Errorf(fmt.Sprintf("parameters.ranges[%d].name", i), "tune chooses the weights: drop %s (bound it with tune.bounds)", r.Name))
		}
	}
	names := spec.Profiles
	if len(names) == 0 {
		names = lattice.BuiltinNames()
	}
	for i, n := range names {
		p, err := namedProfile(n)
		if err != nil {
			errs = append(errs, spec.Errorf(fmt.Sprintf("profiles[%d]", i), "%v", err))
			continue
		}
		t.named = append(t.named, p)
	}
	if t.cfg != nil && t.cfg.Start != "best" && !slices.ContainsFunc(t.named, func(p lattice.Profile) bool { return p.Name == t.cfg.Start }) {
		errs = append(errs, spec.Errorf("tune.start", "%q is not among the named profiles", t.cfg.Start))
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	// The profile axis is the search's: one run per remaining point.
	one := *spec
	one.Profiles = []string{lattice.DefaultProfile}
	runs, err := one.Runs()
	if err != nil {
		return nil, err
	}
	if t.runs, err = sweepRuns(&one, runs, os.TempDir()); err != nil {
		return nil, err
	}
	return t, nil
}

// namedProfile is a built-in profile, or a profile file's run profile
// (named after the file).
func namedProfile(n string) (lattice.Profile, error) {
	if !experiment.IsProfileFile(n) {
		p, ok := lattice.Builtin(n)
		if !ok {
			return p, fmt.Errorf("unknown profile %q (known: %s)", n, strings.Join(lattice.BuiltinNames(), ", "))
		}
		return p, nil
	}
	pf, err := lattice.LoadProfileFile(n)
	if err != nil {
		return lattice.Profile{}, err
	}
	ps, err := pf.Resolve(nil)
	if err != nil {
		return lattice.Profile{}, fmt.Errorf("%s: %w", n, err)
	}
	p := ps.Run
	p.Name = strings.TrimSuffix(strings.TrimSuffix(filepath.Base(n), ".yaml"), ".yml")
	return p, nil
}

func (t *tuning) run(workers int, out string, stdout io.Writer) error {
	tmp, err := os.MkdirTemp("", "schedsim-tune-")
	if err != nil {
		return run.Failed(err)
	}
	defer os.RemoveAll(tmp)
	ctx, stop := interruptible()
	interrupt := ctx.Done()
	defer stop()
	ev := &evaluator{runs: t.runs, tmp: tmp, slots: make(chan struct{}, workers), ctx: ctx, interrupt: interrupt, traces: run.NewTraceCache(),
		headers: make([][]string, len(t.runs))}
	res, err := tune.Run(t.cfg, t.named, ev.evaluate, workers)
	if err != nil {
		return run.Failed(err)
	}
	if err := res.WriteText(stdout, tune.Describe{Spec: t.spec.File, Runs: len(t.runs), Workers: workers}); err != nil {
		return run.Failed(err)
	}
	if err := writeTuneOutputs(out, res, ev.metricOrder()); err != nil {
		return run.Failed(err)
	}
	if res.Best != nil {
		if err := writeBestSpecs(out, res, t.runs); err != nil {
			return run.Failed(err)
		}
	}
	fmt.Fprintf(stdout, "\nfiles in %s/: summary.csv, summary.parquet, convergence.csv", out)
	if res.Best != nil {
		fmt.Fprint(stdout, ", best-profile.yaml, best.yaml (schedsim replay --config best.yaml")
		if len(t.runs) > 1 {
			fmt.Fprintf(stdout, " replays the first of the %d runs; best-<run>.yaml each of them", len(t.runs))
		}
		fmt.Fprint(stdout, ")")
	}
	fmt.Fprintln(stdout)
	if res.Best == nil {
		return run.Failed(errors.New("tune: no profile evaluated meets the constraints"))
	}
	return nil
}

// evaluator replays every run with a profile and averages the summaries.
type evaluator struct {
	runs      []sweepRun
	tmp       string
	slots     chan struct{} // bounds the replays running at once
	ctx       context.Context
	interrupt <-chan struct{}
	traces    *run.TraceCache

	mu      sync.Mutex
	headers [][]string // each run's summary columns, in file order
}

func (e *evaluator) evaluate(p lattice.Profile) (tune.Evaluation, error) {
	id := profileID(p)
	profile := p.Name
	if b, ok := lattice.Builtin(p.Name); !ok || b != p {
		profile = filepath.Join(e.tmp, "profiles", id+".yaml")
		if err := writeProfile(profile, tune.ProfileYAML(tune.TunedName, p)); err != nil {
			return tune.Evaluation{}, err
		}
	}
	sums := make([]map[string]float64, len(e.runs))
	variations := make([]lattice.FactorVariation, len(e.runs))
	errs := make([]error, len(e.runs))
	var wg sync.WaitGroup
	for i := range e.runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e.slots <- struct{}{}
			defer func() { <-e.slots }()
			sums[i], variations[i], errs[i] = e.replay(i, profile, filepath.Join(e.tmp, "evals", id, e.runs[i].Key))
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return tune.Evaluation{}, err
	}
	var variation lattice.FactorVariation
	for _, v := range variations {
		variation.Add(v)
	}
	mean := map[string]float64{}
	count := map[string]int{}
	for _, s := range sums {
		for k, v := range s {
			if _, ok := mean[k]; !ok {
				mean[k] = 0
			}
			if !math.IsNaN(v) {
				mean[k] += v
				count[k]++
			}
		}
	}
	for k := range mean {
		if count[k] == 0 {
			mean[k] = math.NaN()
		} else {
			mean[k] /= float64(count[k])
		}
	}
	return tune.Evaluation{Metrics: mean, Variation: variation}, nil
}

// profileID names a profile's files: a hash of its weights and
// conformance rule.
func profileID(p lattice.Profile) string {
	h := sha256.New()
	for _, w := range p.Weights {
		h.Write([]byte(strconv.FormatFloat(w, 'g', -1, 64) + ","))
	}
	fmt.Fprint(h, p.RequireConformance)
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// replay runs run i under profile into dir and returns its summary's
// metrics (the machine-timing columns left out) and which lattice factors
// varied across the queue; dir is removed after.
func (e *evaluator) replay(i int, profile, dir string) (map[string]float64, lattice.FactorVariation, error) {
	cfg := e.runs[i].cfg
	cfg.Profile, cfg.Out, cfg.Format, cfg.Quiet, cfg.Explain = profile, dir, metrics.FormatCSV, true, false
	var sched *lattice.Scheduler
	run.ArgsOf[lattice.Args](&cfg, "lattice").Probe = func(s *lattice.Scheduler) { sched = s }
	defer os.RemoveAll(dir)
	if err := run.Replay(e.ctx, &cfg, run.Options{Traces: e.traces}); err != nil {
		return nil, lattice.FactorVariation{}, fmt.Errorf("run %s: %w", e.runs[i].Key, err)
	}
	var variation lattice.FactorVariation
	if sched != nil {
		variation = sched.Variation()
	}
	header, row, err := readSummaryRow(filepath.Join(dir, "summary.csv"))
	if err != nil {
		return nil, variation, err
	}
	m := map[string]float64{}
	var cols []string
	for j, name := range header {
		if metrics.IsTimingColumn(name) {
			continue
		}
		v := math.NaN()
		if row[j] != "" {
			x, err := strconv.ParseFloat(row[j], 64)
			if err != nil {
				continue // a label (trace, queue, backfill)
			}
			v = x
		}
		m[name] = v
		cols = append(cols, name)
	}
	e.mu.Lock()
	if e.headers[i] == nil {
		e.headers[i] = cols
	}
	e.mu.Unlock()
	return m, variation, nil
}

// readSummaryRow reads a run's summary.csv: its header and its one row.
func readSummaryRow(path string) (header, row []string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(rows) != 2 {
		return nil, nil, fmt.Errorf("%s: want a header and one row, got %d lines", path, len(rows))
	}
	return rows[0], rows[1], nil
}

// metricOrder is the union of the runs' summary columns, run by run.
func (e *evaluator) metricOrder() []string {
	var order []string
	for _, h := range e.headers {
		for _, c := range h {
			if !slices.Contains(order, c) {
				order = append(order, c)
			}
		}
	}
	return order
}

// writeTuneOutputs writes DIR/summary.{csv,parquet}, convergence.csv and
// best-profile.yaml, each atomically.
func writeTuneOutputs(dir string, res *tune.Result, order []string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := metrics.WriteSweepSummary(dir, res.SummaryColumns(order)); err != nil {
		return err
	}
	err := metrics.WriteFileAtomic(filepath.Join(dir, "convergence.csv"), func(w io.Writer) error {
		fmt.Fprintf(w, "iteration,profiles,best_%s\n", res.Config.Objective)
		for _, st := range res.Convergence {
			best := ""
			if !math.IsNaN(st.Best) {
				best = strconv.FormatFloat(st.Best, 'g', -1, 64)
			}
			if _, err := fmt.Fprintf(w, "%d,%d,%s\n", st.Iteration, st.Evaluations, best); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil || res.Best == nil {
		return err
	}
	return writeProfile(filepath.Join(dir, "best-profile.yaml"), tune.ProfileYAML(tune.TunedName, res.Best.Profile))
}

// writeBestSpecs writes best.yaml: the first run of the experiment as a
// complete run spec (the keys of run.Spec, its lattice: block included)
// with the best profile, so that `schedsim replay --config best.yaml`
// replays exactly what tune evaluated. With several runs (the objective
// is their mean) each also gets best-<run>.yaml. Paths are relative to
// the directory, where best-profile.yaml is.
func writeBestSpecs(dir string, res *tune.Result, runs []sweepRun) error {
	profile := "best-profile.yaml"
	if b, ok := lattice.Builtin(res.Best.Profile.Name); ok && b == res.Best.Profile {
		profile = b.Name
	}
	for i, r := range runs {
		cfg := r.cfg
		cfg.Out, cfg.Quiet = "", false
		run.ArgsOf[lattice.Args](&cfg, "lattice").Probe = nil
		if err := relativeTo(dir, &cfg); err != nil {
			return err
		}
		cfg.Profile = profile // a built-in name, or the file beside best.yaml
		var doc yaml.Node
		if err := doc.Encode(&cfg); err != nil {
			return err
		}
		doc.HeadComment = bestSpecComment(res, r.Key, len(runs))
		names := []string{"best-" + r.Key + ".yaml"}
		if i == 0 {
			names = append([]string{"best.yaml"}, names...)
		}
		if len(runs) == 1 {
			names = names[:1]
		}
		for _, name := range names {
			err := metrics.WriteFileAtomic(filepath.Join(dir, name), func(w io.Writer) error {
				enc := yaml.NewEncoder(w)
				enc.SetIndent(2)
				if err := enc.Encode(&doc); err != nil {
					return err
				}
				return enc.Close()
			})
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// bestSpecComment heads a best spec: what it reproduces and which weights
// were not searched.
func bestSpecComment(res *tune.Result, key string, runs int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "schedsim tune's best profile (%s) as a run spec: schedsim replay --config FILE\n", profileLabel(res))
	if runs == 1 {
		fmt.Fprintf(&b, "replays to %s = %s, the score tune reported.\n", res.Config.Objective, strconv.FormatFloat(res.Best.Objective, 'g', -1, 64))
	} else {
		fmt.Fprintf(&b, "run %s, one of %d; tune reported %s = %s, their mean.\n", key, runs, res.Config.Objective, strconv.FormatFloat(res.Best.Objective, 'g', -1, 64))
	}
	if txt := res.InertText(""); txt != "" {
		b.WriteString(txt)
	}
	return strings.TrimRight(b.String(), "\n")
}

func profileLabel(res *tune.Result) string {
	if res.Best.Name != "" {
		return "the named profile " + res.Best.Name
	}
	return "best-profile.yaml"
}

// relativeTo makes a spec's file paths relative to dir (run.Load resolves
// them against the spec file's directory).
func relativeTo(dir string, c *run.Spec) error {
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	paths := append([]*string{&c.Trace, &c.Cluster, &c.Platform, &c.Script.Path, &c.NodeEvents, &c.Price, &c.Carbon}, run.ArgsOf[lattice.Args](c, "lattice").Paths()...)
	if lattice.IsProfileFile(c.Profile) {
		paths = append(paths, &c.Profile)
	}
	for _, p := range paths {
		if *p == "" {
			continue
		}
		abs, err := filepath.Abs(*p)
		if err != nil {
			return err
		}
		if rel, err := filepath.Rel(absDir, abs); err == nil {
			*p = rel
		}
	}
	return nil
}
