package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"go.yaml.in/yaml/v3"

	"github.com/schedsim/schedsim/metrics"
	"github.com/schedsim/schedsim/policies"
	"github.com/schedsim/schedsim/policies/placement"
	"github.com/schedsim/schedsim/policies/script"
	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/nodeevents"
)

// version is stamped into run.yaml.
const version = "0.1.0"

func newReplayCommand() *cobra.Command {
	cfg := defaultConfig()
	var configPath string
	cmd := &cobra.Command{
		Use:   "replay",
		Short: "Replay one trace on one cluster under one policy",
		Long: `Replay one trace on one cluster under one policy and write a run directory:
jobs, timeseries, nodes and summary tables (Parquet by default), summary.csv and run.yaml.

With no arguments it replays the embedded KTH-SP2 log (Parallel Workloads Archive)
on the cluster its header describes, with FCFS and EASY backfilling.

` + policyHelp(),
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if configPath != "" {
				fileCfg := defaultConfig()
				if err := loadConfigFile(configPath, &fileCfg); err != nil {
					return badInput(err)
				}
				// Flags given on the command line win over the file.
				over := pflag.NewFlagSet("config", pflag.ContinueOnError)
				fileCfg.bindFlags(over)
				var setErr error
				cmd.Flags().Visit(func(f *pflag.Flag) {
					if over.Lookup(f.Name) != nil {
						setErr = errors.Join(setErr, over.Set(f.Name, f.Value.String()))
					}
				})
				if setErr != nil {
					return badInput(setErr)
				}
				cfg = fileCfg
			}
			if err := cfg.validate(); err != nil {
				return badInput(err)
			}
			return runReplay(&cfg, cmd.ErrOrStderr(), cmd.OutOrStdout())
		},
	}
	cfg.bindFlags(cmd.Flags())
	cmd.Flags().StringVar(&configPath, "config", "", "YAML file with the same keys as the flags (trace, backfill, swf_model, …); flags win")
	cmd.Flags().StringVar(&cpuProfile, "cpuprofile", "", "write a Go CPU profile of the run to this file")
	cmd.Flags().MarkHidden("cpuprofile")
	return cmd
}

// policyHelp lists the queue orders and backfill disciplines with a line
// of doc each, for --help.
func policyHelp() string {
	var b strings.Builder
	b.WriteString("  queue orders (--queue):\n")
	for _, name := range policies.OrderNames() {
		fmt.Fprintf(&b, "    %-13s %s\n", name, policies.OrderDoc(name))
	}
	fmt.Fprintf(&b, "    %-13s %s\n", latticeQueue, latticeDoc)
	b.WriteString("  backfilling (--backfill):\n")
	for _, bf := range []policies.Backfill{policies.NoBackfill, policies.EASY, policies.Conservative} {
		fmt.Fprintf(&b, "    %-13s %s\n", bf, policies.BackfillDoc(bf))
	}
	return strings.TrimRight(b.String(), "\n")
}

// cpuProfile is a developer flag: where to write a CPU profile.
var cpuProfile string

// runReplay runs one replay end to end. Ctrl-C (or SIGTERM) stops it
// cleanly: no partial file remains under a final name.
func runReplay(cfg *replayConfig, stderr, stdout io.Writer) error {
	interrupt, stop := interruptOnSignal()
	defer stop()
	return replayRun(cfg, replayOptions{interrupt: interrupt}, stderr, stdout)
}

// replayOptions are what a driver of many replays (sweep) sets.
type replayOptions struct {
	// interrupt, when closed, stops the run between two instants.
	interrupt <-chan struct{}
	// dir, when set, is where the files are written instead of cfg.Out,
	// which run.yaml still records: sweep renames dir to cfg.Out once the
	// run is complete.
	dir string
	// traces, when set, serves traces read once for many runs.
	traces *traceCache
}

// interruptOnSignal returns a channel closed at the first SIGINT or
// SIGTERM; a second one exits at once (one scheduling pass can be long;
// temp files may remain, never under a final name). stop releases the
// signals.
func interruptOnSignal() (interrupt <-chan struct{}, stop func()) {
	ch := make(chan struct{})
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	go func() {
		if _, ok := <-signals; ok {
			close(ch)
		}
		if _, ok := <-signals; ok {
			os.Exit(exitFailed)
		}
	}()
	return ch, func() { signal.Stop(signals) }
}

// replayRun runs one replay with opt's interrupt and output directory.
func replayRun(cfg *replayConfig, opt replayOptions, stderr, stdout io.Writer) error {
	w, err := openWorkload(cfg, opt.traces)
	if err != nil {
		return err
	}
	defer w.close()
	cluster, err := sim.NewCluster(w.nodes)
	if err != nil {
		return badInput(fmt.Errorf("cluster (%s): %w", w.cluster, err))
	}
	cluster.Defaults = w.defaults
	order, _ := policies.OrderByName(cfg.Queue)
	backfill, _ := policies.ParseBackfill(cfg.Backfill)
	pipe, err := buildPipeline(cfg, w, cluster)
	if err != nil {
		return badInput(err)
	}
	sched, err := newScheduler(cfg, backfill, cluster, pipe)
	if err != nil {
		return badInput(err)
	}
	if cfg.Out == "" {
		cfg.Out = defaultRunDir(cfg, w)
	}
	dir := cfg.Out
	if opt.dir != "" {
		dir = opt.dir
	}
	engineCfg := sim.Config{KillAtWalltime: cfg.KillAtWalltime, Less: order, Interrupt: opt.interrupt}
	price, carbon, err := energyConfig(cfg, &engineCfg)
	if err != nil {
		return badInput(err)
	}
	tenants, buckets, shares := cfg.metricsTenants()
	rec, err := metrics.NewRecorder(dir, cluster, metrics.Options{
		Price:         price,
		Carbon:        carbon,
		Format:        cfg.Format,
		Tau:           sim.SecondsToTime(cfg.TauS),
		Tenants:       tenants,
		TenantBuckets: buckets,
		Shares:        shares,
		Labels: []metrics.Label{
			{Name: "trace", Value: traceLabel(cfg)},
			{Name: "queue", Value: cfg.Queue},
			{Name: "backfill", Value: cfg.Backfill},
		},
	})
	if err != nil {
		return failed(err)
	}
	var decisions *metrics.DecisionLog
	if cfg.Explain && pipe != nil {
		var names []string
		for _, s := range pipe.Scorers {
			names = append(names, s.Name())
		}
		if decisions, err = rec.Decisions(names); err != nil {
			rec.Abort()
			return failed(err)
		}
		pipe.Explain = func(t *placement.Task, node int, total float64, scores []float64) {
			rec.Fail(decisions.Add(t.At, t.Job.ID, t.Index, int32(node), total, scores))
		}
	}
	observers := []sim.Observer{rec}
	var checker *sim.Checker
	if cfg.Check {
		checker = sim.NewChecker(cluster)
		observers = append(observers, checker)
	}
	var bar *progress
	if !cfg.Quiet && isTerminal(os.Stderr) {
		bar = newProgress(w.records, stderr)
		observers = append(observers, bar)
	}
	source := w.source
	if _, inMemory := source.(*cachedSource); !inMemory {
		// Read ahead on another core while the engine runs.
		p := traces.Prefetch(w.source, 4096)
		defer p.Close()
		source = p
	}
	if err := nodeEventsConfig(cfg, &engineCfg); err != nil {
		rec.Abort()
		return badInput(err)
	}
	engineCfg.NodeEvents = slices.Concat(w.nodeEvents, engineCfg.NodeEvents)
	var jobs sim.Source = source
	if cfg.CheckpointS > 0 || w.format == "native" {
		jobs = &checkpointed{Source: source, every: sim.SecondsToTime(cfg.CheckpointS), file: w.name}
	}
	engine := sim.NewEngine(cluster, jobs, sched, engineCfg, observers...)

	if cpuProfile != "" {
		f, err := os.Create(cpuProfile)
		if err != nil {
			return failed(err)
		}
		defer f.Close()
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	start := time.Now()
	runErr := engine.Run()
	wall := time.Since(start).Seconds()
	bar.finish()
	if runErr == nil && checker != nil {
		runErr = checker.Err()
	}
	if runErr != nil {
		rec.Abort()
		var pe *traces.ParseError
		if errors.As(runErr, &pe) {
			return badInput(runErr)
		}
		return failed(fmt.Errorf("replay of %s: %w", w.name, runErr))
	}
	if decisions != nil {
		if err := decisions.Flush(); err != nil {
			rec.Abort()
			return failed(err)
		}
	}
	if err := writeOwnership(rec, sched); err != nil {
		rec.Abort()
		return failed(err)
	}
	if err := writeScriptLog(dir, w.script); err != nil {
		rec.Abort()
		return failed(err)
	}
	skips := w.skips()
	if err := writeRunYAML(dir, cfg, w, cluster, skips); err != nil {
		rec.Abort()
		return failed(err)
	}
	if err := rec.Close(metrics.FinalInfo{Skipped: int64(skips.Total), Events: engine.EventsApplied(), WallSeconds: wall}); err != nil {
		return failed(err)
	}
	if cfg.Quiet {
		return nil
	}
	return printSummary(stdout, cfg, w, cluster, skips)
}

// writeScriptLog writes what the placement script logged, one line a
// message, to script.log in the run directory (only when it logged).
func writeScriptLog(dir string, s *script.Script) error {
	if s == nil || (len(s.Log()) == 0 && s.Dropped() == 0) {
		return nil
	}
	return metrics.WriteFileAtomic(filepath.Join(dir, "script.log"), func(out io.Writer) error {
		for _, e := range s.Log() {
			if _, err := fmt.Fprintln(out, e.String()); err != nil {
				return err
			}
		}
		if n := s.Dropped(); n > 0 {
			_, err := fmt.Fprintf(out, "(%d more messages dropped)\n", n)
			return err
		}
		return nil
	})
}

// nodeEventsConfig loads --node-events and sets the failure model.
func nodeEventsConfig(cfg *replayConfig, e *sim.Config) error {
	if cfg.NodeEvents != "" {
		evs, err := nodeevents.Load(cfg.NodeEvents)
		if err != nil {
			return fmt.Errorf("--node-events: %w", err)
		}
		e.NodeEvents = evs
	}
	if cfg.MTBFs > 0 {
		e.Failures = &sim.FailureModel{MTBF: sim.SecondsToTime(cfg.MTBFs), MTTR: sim.SecondsToTime(cfg.MTTRs), Seed: cfg.Seed}
	}
	e.MaxRestarts = cfg.MaxRestarts
	return nil
}

// checkpointed sets each job's checkpoint interval and restore cost from
// its labels checkpoint_s and checkpoint_cost_s (native traces), else the
// interval from --checkpoint.
type checkpointed struct {
	sim.Source
	every sim.Time
	file  string
}

func (c *checkpointed) Next() (*sim.Job, error) {
	j, err := c.Source.Next()
	if err != nil {
		return j, err
	}
	interval, cost := j.CheckpointInterval, j.CheckpointCost
	if j.Traits != nil {
		for _, l := range j.Traits.Labels {
			var dst *sim.Time
			switch l.Key {
			case "checkpoint_s":
				dst = &interval
			case "checkpoint_cost_s":
				dst = &cost
			default:
				continue
			}
			t, perr := sim.ParseSeconds(l.Value)
			if perr != nil || t < 0 {
				return nil, &traces.ParseError{File: c.file, Field: "labels." + l.Key,
					Err: fmt.Errorf("job %s: want seconds ≥ 0, got %q", j.ID, l.Value)}
			}
			*dst = t
		}
	}
	if interval == 0 {
		interval = c.every
	}
	if interval != j.CheckpointInterval || cost != j.CheckpointCost {
		// The reader's job may be shared by runs (traceCache): change a copy.
		cp := *j
		cp.CheckpointInterval, cp.CheckpointCost = interval, cost
		j = &cp
	}
	return j, nil
}

// buildPipeline returns the placement pipeline of the run, or nil for the
// plain first fit, which is faster and enough when nothing else is asked
// for: the first-fit strategy with no scorers and no candidate limit, on a
// cluster without taints, parents, shortcomings or wards, with a trace
// format that carries no placement constraints (SWF, Batsim, a Parquet
// trace without trait columns).
func buildPipeline(cfg *replayConfig, w *workload, c *sim.Cluster) (*placement.Pipeline, error) {
	spec := cfg.Placement.Spec
	spec.Seed = cfg.Seed
	if cfg.CandidateLimit != "" {
		spec.Limit, _ = placement.ParseLimit(cfg.CandidateLimit)
	}
	tainted := false
	for _, n := range c.Nodes {
		tainted = tainted || len(n.Taints) > 0
	}
	plain := cfg.Placement.String() == "first-fit" && len(spec.Scorers) == 0 && spec.Limit == 0 && !cfg.Explain && cfg.Script.Path == ""
	if plain && !tainted && !c.Special() && (w.format != "native" || w.traitless) && !isGoogleFormat(w.format) {
		return nil, nil
	}
	p, err := placement.Build(c, spec)
	if err != nil {
		return nil, fmt.Errorf("--placement: %w", err)
	}
	if cfg.Script.Path != "" {
		sc := cfg.Script.Config
		sc.Seed = cfg.Seed
		s, err := script.Load(sc)
		if err != nil {
			return nil, fmt.Errorf("--script: %w", err)
		}
		if err := script.Attach(p, s); err != nil {
			return nil, fmt.Errorf("--script: %w", err)
		}
		w.script = s
	}
	return p, nil
}

// defaultRunDir names the run after its inputs: runs/<trace>-<queue>-<backfill>.
func defaultRunDir(cfg *replayConfig, w *workload) string {
	name := traceLabel(cfg)
	parts := []string{name, cfg.Queue, cfg.Backfill}
	if w.format == "swf" && cfg.Cluster == "" && cfg.Platform == "" {
		parts = append(parts, cfg.SWFModel)
	}
	return filepath.Join("runs", strings.Join(parts, "-"))
}

// traceLabel is the trace's file name without format extensions.
func traceLabel(cfg *replayConfig) string {
	name := defaultTraceName
	if cfg.Trace != "" {
		name = filepath.Base(cfg.Trace)
	}
	for _, ext := range []string{".gz", ".swf", ".json", ".jsonl", ".ndjson", ".csv", ".parquet"} {
		name = strings.TrimSuffix(name, ext)
	}
	return name
}

// runRecord is run.yaml: what is needed to reproduce and identify a run.
type runRecord struct {
	Schedsim string       `yaml:"schedsim"`
	Go       string       `yaml:"go"`
	Config   replayConfig `yaml:"config"`
	Trace    struct {
		Name    string         `yaml:"name"`
		Format  string         `yaml:"format"`
		SHA256  string         `yaml:"sha256"`
		Skipped int            `yaml:"skipped_records"`
		Reasons map[string]int `yaml:"skip_reasons,omitempty"`
	} `yaml:"trace"`
	Cluster struct {
		Source    string   `yaml:"source"`
		Nodes     int      `yaml:"nodes"`
		Resources []string `yaml:"resources"`
		Totals    []string `yaml:"totals"`
	} `yaml:"cluster"`
}

func writeRunYAML(dir string, cfg *replayConfig, w *workload, c *sim.Cluster, skips traces.Skips) error {
	var r runRecord
	r.Schedsim, r.Go = version, runtime.Version()
	r.Config = *cfg
	r.Trace.Name, r.Trace.Format, r.Trace.SHA256 = w.name, w.format, w.sha256
	r.Trace.Skipped, r.Trace.Reasons = skips.Total, skips.ByReason
	r.Cluster.Source, r.Cluster.Nodes, r.Cluster.Resources = w.cluster, len(c.Nodes), c.Resources
	for i, name := range c.Resources {
		r.Cluster.Totals = append(r.Cluster.Totals, name+": "+c.TotalCapacity(i).String())
	}
	return metrics.WriteFileAtomic(filepath.Join(dir, "run.yaml"), func(out io.Writer) error {
		enc := yaml.NewEncoder(out)
		enc.SetIndent(2)
		if err := enc.Encode(&r); err != nil {
			return err
		}
		return enc.Close()
	})
}
