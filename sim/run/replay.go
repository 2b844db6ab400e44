package run

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/schedsim/schedsim/metrics"
	"github.com/schedsim/schedsim/policies"
	"github.com/schedsim/schedsim/policies/placement"
	"github.com/schedsim/schedsim/policies/script"
	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces"
	"github.com/schedsim/schedsim/traces/embedded"
	"github.com/schedsim/schedsim/traces/formats"
	"github.com/schedsim/schedsim/traces/nodeevents"
	"github.com/schedsim/schedsim/traces/transform"
)

// Replay runs one replay end to end, writes its run directory and returns
// what it wrote (the summary row) and counted. When ctx is cancelled
// (Ctrl-C) it stops between two instants and leaves no run directory
// behind (nor any partial file under a final name). A run that --fail-on
// fails is complete: its Result comes with the error.
func Replay(ctx context.Context, cfg *Spec, opt Options) (*Result, error) {
	stdout, stderr := writerOr(opt.Stdout), writerOr(opt.Stderr)
	w, err := OpenWorkload(cfg, opt.Traces)
	if err != nil {
		return nil, err
	}
	defer w.Close()
	measured, err := cfg.applyTransforms(w)
	if err != nil {
		return nil, BadInput(err)
	}
	cluster, err := sim.NewCluster(w.Nodes)
	if err != nil {
		return nil, BadInput(fmt.Errorf("cluster (%s): %w", w.Cluster, err))
	}
	cluster.Defaults = w.Defaults
	backfill, _ := policies.ParseBackfill(cfg.Backfill)
	pipe, err := buildPipeline(cfg, w, cluster)
	if err != nil {
		return nil, BadInput(err)
	}
	if w.script != nil {
		// A script's call can be long (up to its time budget): Ctrl-C
		// cancels it at once rather than after it.
		defer context.AfterFunc(ctx, w.script.Interrupt)()
	}
	var sched sim.Scheduler
	var order policies.Order
	if !cfg.External() {
		if sched, order, err = newScheduler(cfg, backfill, cluster, pipe); err != nil {
			return nil, BadInput(err)
		}
	}
	dir := opt.Dir
	var target *runDir
	if dir == "" {
		if target, err = claimRunDir(cfg, w, opt.Overwrite); err != nil {
			return nil, err
		}
		defer target.abandon()
		dir = target.stage
	}
	engineCfg := sim.Config{KillAtWalltime: cfg.KillAtWalltime, Less: order, Interrupt: ctx.Done(), NoDependencies: w.NoDependencies,
		Limits: cfg.LimitsSpec.limits(w.Limits)}
	if engineCfg.Cycle, err = cfg.cycle(); err != nil {
		return nil, BadInput(err)
	}
	if engineCfg.Calendar, err = siteCalendar(cfg, w); err != nil {
		return nil, BadInput(err)
	}
	price, carbon, err := energyConfig(cfg, &engineCfg)
	if err != nil {
		return nil, BadInput(err)
	}
	tenants, buckets, shares := cfg.metricsTenants()
	rec, err := metrics.NewRecorder(dir, cluster, metrics.Options{
		Price:         price,
		Carbon:        carbon,
		Format:        cfg.Format,
		Epoch:         w.Epoch,
		TimeZone:      w.TimeZone,
		Tau:           sim.SecondsToTime(cfg.TauS),
		Tenants:       tenants,
		TenantBuckets: buckets,
		Shares:        shares,
		Measured:      measured,
		ExpectedJobs:  w.Records,
		// After a transform of the jobs' timing no recorded start applies.
		CalibrationOff:  cfg.uncalibrated() != "",
		CalibResolution: sim.SecondsToTime(cfg.CalibResolutionS),
		CalibFrom:       sim.SecondsToTime(cfg.CalibFromS),
		CalibUntil:      sim.SecondsToTime(cfg.CalibUntilS),
		Labels: []metrics.Label{
			{Name: "trace", Value: traceLabel(cfg)},
			{Name: "queue", Value: queueLabel(cfg)},
			{Name: "backfill", Value: backfillLabel(cfg)},
		},
	})
	if err != nil {
		return nil, Failed(err)
	}
	var decisions *metrics.DecisionLog
	if cfg.Explain && pipe != nil {
		var names []string
		for _, s := range pipe.Scorers {
			names = append(names, s.Name())
		}
		if decisions, err = rec.Decisions(names); err != nil {
			rec.Abort()
			return nil, Failed(err)
		}
		pipe.Explain = func(t *placement.Task, node int, total float64, scores []float64) {
			rec.Fail(decisions.Add(t.At, t.Job.ID, t.Index, int32(node), total, scores))
		}
	}
	tally := &failureTally{}
	observers := []sim.Observer{rec, tally}
	var checker *sim.Checker
	if cfg.Check {
		checker = sim.NewChecker(cluster)
		observers = append(observers, checker)
	}
	var bar *progress
	if !cfg.Quiet && IsTerminal(os.Stderr) {
		bar = newProgress(w.Records, stderr)
		observers = append(observers, bar)
	}
	source := w.Source
	if _, inMemory := source.(*cachedSource); !inMemory {
		// Read ahead on another core while the engine runs. Batches of
		// 1,024 jobs (at most five in flight) keep the reader ahead; of
		// 4,096 they held 20k parsed jobs, 6 MB.
		p := traces.Prefetch(w.Source, 1024)
		defer p.Close()
		source = p
	}
	if err := nodeEventsConfig(cfg, &engineCfg); err != nil {
		rec.Abort()
		return nil, BadInput(err)
	}
	engineCfg.NodeEvents = slices.Concat(w.NodeEvents, engineCfg.NodeEvents)
	var jobs sim.Source = source
	if cfg.CheckpointS > 0 || w.format().JobCheckpoints {
		jobs = transform.Checkpoints(source, sim.SecondsToTime(cfg.CheckpointS), w.Name)
	}
	var ext *externalRun
	if cfg.External() {
		if ext, err = startExternal(cfg, w, cluster, &engineCfg, dir, opt.SchedulerTranscript); err != nil {
			rec.Abort()
			return nil, err
		}
		sched = ext.sched
		defer ext.close(false) // a no-op once closed below
	}
	engine := sim.NewEngine(cluster, jobs, sched, engineCfg, observers...)

	startedAt := time.Now()
	sim.LabelGoroutine("engine")
	runErr := engine.Run()
	if ext != nil {
		if runErr == nil {
			runErr = ext.sched.End(engine.Now())
		}
		ext.close(runErr == nil)
		ext = nil
	}
	sim.LabelGoroutine("finish")
	wall := time.Since(startedAt).Seconds()
	bar.finish()
	if runErr == nil && checker != nil {
		runErr = checker.Err()
	}
	if runErr != nil {
		rec.Abort()
		var pe *traces.ParseError
		if errors.As(runErr, &pe) || errors.Is(runErr, traces.ErrRecordTooLong) || isProtocolError(runErr) {
			return nil, BadInput(runErr)
		}
		var re *transform.RewriteError
		if errors.As(runErr, &re) {
			return nil, BadInput(cfg.rewriteProblem(re))
		}
		var ne *sim.NegativeRequestError
		if errors.As(runErr, &ne) {
			return nil, BadInput(&traces.ParseError{File: w.Name, Line: ne.Job.Line, Field: "request",
				Err: fmt.Errorf("%w, on %s", ne, w.Cluster)})
		}
		return nil, Failed(fmt.Errorf("replay of %s: %w", w.Name, runErr))
	}
	if decisions != nil {
		if err := decisions.Flush(); err != nil {
			rec.Abort()
			return nil, Failed(err)
		}
	}
	if err := writeOrderTables(cfg, rec, sched, cluster, engine.Now()); err != nil {
		rec.Abort()
		return nil, Failed(err)
	}
	if err := writeScriptLog(dir, w.script); err != nil {
		rec.Abort()
		return nil, Failed(err)
	}
	skips := w.Skips()
	final := cfg.Out
	if target != nil {
		final = target.final
	}
	if err := writeRunYAML(dir, final, cfg, w, cluster, skips, provenance{started: startedAt, wall: wall}); err != nil {
		rec.Abort()
		return nil, Failed(err)
	}
	if err := rec.Close(metrics.FinalInfo{Skipped: int64(skips.Total), Events: engine.EventsApplied(), WallSeconds: wall}); err != nil {
		return nil, Failed(err)
	}
	if target != nil {
		if err := target.commit(); err != nil {
			return nil, Failed(err)
		}
	}
	// Ids, names and reasons come from the trace: escaped for the terminal.
	tally.report(SafeWriter(stderr), w.Name)
	printNotices(SafeWriter(stderr), cfg, w, cluster, skips)
	res := &Result{Dir: target.finalDir(), Summary: rec.Summary(), Skips: skips, Events: engine.EventsApplied(), Failed: tally.counts}
	if !cfg.Quiet {
		if err := printSummary(SafeWriter(stdout), cfg, w, cluster, res); err != nil {
			return nil, Failed(err)
		}
	}
	return res, tally.failOn(cfg.FailOn)
}

// Result is what a replay wrote and counted, for its caller to use
// without reading the run directory back.
type Result struct {
	// Dir is the run directory, once renamed into place; "" when the
	// caller staged the run (Options.Dir).
	Dir string
	// Summary is the row written to summary.csv, each cell as written.
	Summary metrics.SummaryRow
	// Skips are the trace records the reader skipped, by reason.
	Skips traces.Skips
	// Events is how many engine events the run applied.
	Events int64
	// Failed counts the failed jobs by --fail-on kind (rejected, killed
	// other than at walltime, script-error); nil when none failed.
	Failed map[string]int
}

// Options are what a caller sets beyond the spec.
type Options struct {
	// Dir, when set, is where the files are written as they are made: a
	// driver of many runs (sweep) stages each run itself. Otherwise the
	// run is written into a hidden staging directory beside its final
	// one and renamed into place once complete.
	Dir string
	// Overwrite lets a run replace an earlier run in its directory.
	Overwrite bool
	// Traces, when set, serves traces read once for many runs.
	Traces *TraceCache
	// Stdout and Stderr receive the summary and the warnings (nil:
	// discarded).
	Stdout, Stderr io.Writer
	// SchedulerTranscript, when set, receives every message exchanged
	// with an external scheduler, one a line ("> " to it, "< " from it).
	SchedulerTranscript io.Writer
}

func writerOr(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
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
		if note := s.DroppedNote(); note != "" {
			_, err := fmt.Fprintln(out, note)
			return err
		}
		return nil
	})
}

// nodeEventsConfig loads --node-events and sets the failure model.
func nodeEventsConfig(cfg *Spec, e *sim.Config) error {
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

// buildPipeline returns the placement pipeline of the run, or nil for the
// plain first fit, which is faster and enough when nothing else is asked
// for: the first-fit strategy with no scorers and no candidate limit, on a
// cluster without taints, parents, shortcomings or wards, with a trace
// format that carries no placement constraints (SWF, Batsim, a Parquet
// trace without trait columns).
func buildPipeline(cfg *Spec, w *Workload, c *sim.Cluster) (*placement.Pipeline, error) {
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
	if plain && !tainted && !c.Special() && w.Traitless && !w.Constrained {
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
func defaultRunDir(cfg *Spec, w *Workload) string {
	name := traceLabel(cfg)
	parts := []string{name, queueLabel(cfg), backfillLabel(cfg)}
	if cfg.External() {
		parts = parts[:2]
	}
	if w.ClusterModel != "" { // the SWF header's model
		parts = append(parts, cfg.SWFModel)
	}
	return filepath.Join("runs", strings.Join(parts, "-"))
}

// traceLabel is the trace's file name without format extensions.
func traceLabel(cfg *Spec) string {
	name := embedded.KTHName
	if cfg.Trace != "" {
		name = filepath.Base(cfg.Trace)
	}
	return formats.TrimExtensions(name)
}

// writeRunYAML writes run.yaml: the spec resolved, with its paths relative
// to the run directory, and the provenance section that loading skips.
func writeRunYAML(dir, final string, cfg *Spec, w *Workload, c *sim.Cluster, skips traces.Skips, p provenance) error {
	spec := *cfg
	spec.Out, spec.Quiet, spec.SpecVersion = "", false, SpecVersion
	relativePaths(final, &spec)
	var doc yaml.Node
	if err := doc.Encode(&spec); err != nil {
		return err
	}
	var prov yaml.Node
	if err := prov.Encode(p.record(cfg, w, c, skips)); err != nil {
		return err
	}
	doc.Content = append(doc.Content, prov.Content...)
	return metrics.WriteFileAtomic(filepath.Join(dir, "run.yaml"), func(out io.Writer) error {
		enc := yaml.NewEncoder(out)
		enc.SetIndent(2)
		if err := enc.Encode(&doc); err != nil {
			return err
		}
		return enc.Close()
	})
}
