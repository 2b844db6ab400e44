package run

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/schedsim/schedsim/metrics"
	"github.com/schedsim/schedsim/policies"
	"github.com/schedsim/schedsim/policies/placement"
	"github.com/schedsim/schedsim/policies/registry"
	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces/formats"
	"github.com/schedsim/schedsim/traces/swf"
)

// Spec is everything a replay needs: a run is one Spec, and run.yaml is
// the Spec resolved (plus a provenance section that loading ignores). Its
// parts are typed by concern; in YAML their keys sit side by side, and
// each key is the flag of the same name with '_' for '-' (a few carry the
// unit: mtbf_s for --mtbf). Flags are a view of it (BindFlags).
type Spec struct {
	// SpecVersion is the version of this format run.yaml is written in
	// (SpecVersion); 0 for a hand-written spec or a run.yaml written
	// before versions, read as version 1. A newer one is refused.
	SpecVersion int `yaml:"spec_version,omitempty"`

	TraceSpec     `yaml:",inline"`
	ClusterSpec   `yaml:",inline"`
	QueueSpec     `yaml:",inline"`
	SchedulerSpec `yaml:",inline"`
	PlacementSpec `yaml:",inline"`
	EngineSpec    `yaml:",inline"`
	MetricsSpec   `yaml:",inline"`
	OutputSpec    `yaml:",inline"`
	TransformSpec `yaml:",inline"`

	// source is where the spec was loaded from, for error messages.
	source source
}

// SpecVersion is the version of the run spec this schedsim writes and
// reads. It changes only when a key's meaning changes, so that an old
// run.yaml is never read as something else.
const SpecVersion = 1

// TraceSpec is the workload: which trace and how to read it.
type TraceSpec struct {
	Trace       string `yaml:"trace"`
	TraceFormat string `yaml:"trace_format"`
	GoogleScale string `yaml:"google_scale,omitempty"`
	Strict      bool   `yaml:"strict"`
	// TimeZone is the site's IANA time zone, for traces whose calendar
	// times carry none (Slurm accounting); "" is UTC.
	TimeZone string `yaml:"time_zone,omitempty"`
}

// ClusterSpec is the machine: a cluster file, a Batsim platform, or the
// cluster the trace describes (an SWF header, in one of two models).
type ClusterSpec struct {
	Cluster      string `yaml:"cluster"`
	Platform     string `yaml:"platform"`
	MaxHosts     int    `yaml:"max_hosts"`
	SWFModel     string `yaml:"swf_model"`
	ProcsPerNode int    `yaml:"swf_procs_per_node"`
}

// QueueSpec is the queue order and backfilling.
type QueueSpec struct {
	Queue    string `yaml:"queue"`
	Backfill string `yaml:"backfill"`
	// Args are the argument blocks of the queue orders and backfills
	// that take some (lattice:, multifactor:, conservative:), each under
	// its policy's name; lattice's profile and conservative's
	// reservations, planning_delay_s and compat may also sit at the top
	// level.
	Args PolicyArgs `yaml:",inline"`
}

// PlacementSpec is how a started job's tasks find nodes.
type PlacementSpec struct {
	Placement      placementConfig `yaml:"placement"`
	CandidateLimit string          `yaml:"candidate_limit"`
	Script         scriptConfig    `yaml:"script,omitempty"`
}

// EngineSpec is the engine's options: walltimes, node events, failures,
// checkpoints, power-down, the seed of everything random.
type EngineSpec struct {
	KillAtWalltime bool    `yaml:"kill_at_walltime"`
	NodeEvents     string  `yaml:"node_events"`
	MTBFs          float64 `yaml:"mtbf_s"`
	MTTRs          float64 `yaml:"mttr_s"`
	CheckpointS    float64 `yaml:"checkpoint_s"`
	MaxRestarts    int     `yaml:"max_restarts"`
	PowerDownS     float64 `yaml:"power_down_s"` // < 0: never
	Seed           uint64  `yaml:"seed"`
	Check          bool    `yaml:"check"`
	// SchedulingIntervalS > 0 runs the scheduler only at its multiples
	// (and on ScheduleOn's events): Slurm's sched_interval, Maui's
	// polling (sim.Cycle).
	SchedulingIntervalS float64  `yaml:"scheduling_interval_s,omitempty"`
	ScheduleOn          []string `yaml:"schedule_on,omitempty"`
	// Calendar is a calendar file (sim/calendar): the site's run-time
	// limits by the time of day and its synchronization points.
	Calendar string `yaml:"calendar,omitempty"`
	// LimitsSpec caps the running jobs and processors of a user and of
	// a queue (sim.Limits); a cluster file's limits: block sets those it
	// leaves at 0.
	LimitsSpec `yaml:",inline"`
}

// MetricsSpec is what the metrics need beyond the run: the bounded
// slowdown's τ, the tenants, price and carbon series.
type MetricsSpec struct {
	TauS    float64 `yaml:"bsld_tau_s"`
	Tenants string  `yaml:"tenants"`
	Price   string  `yaml:"price"`  // CSV time_s,value: price per kWh
	Carbon  string  `yaml:"carbon"` // CSV time_s,value: gCO₂ per kWh
	// CalibResolutionS rounds the waits calib_* compare to the trace's
	// recorded resolution; CalibFromS and CalibUntilS keep them to the
	// jobs submitted in that window (metrics.Options). 0: off, unbounded.
	CalibResolutionS float64 `yaml:"calib_resolution_s,omitempty"`
	CalibFromS       float64 `yaml:"calib_from_s,omitempty"`
	CalibUntilS      float64 `yaml:"calib_until_s,omitempty"`
}

// OutputSpec is where and how the run is written. Out is not part of a
// run's identity: run.yaml leaves it out, so re-running one writes a new
// run directory.
type OutputSpec struct {
	Out     string `yaml:"out,omitempty"`
	Format  string `yaml:"format"`
	Explain bool   `yaml:"explain"`
	Quiet   bool   `yaml:"quiet,omitempty"`
	// FailOn lists what makes a completed run exit 1 (FailOnKinds).
	FailOn []string `yaml:"fail_on,omitempty"`
}

func Default() Spec {
	var c Spec
	c.SWFModel = string(swf.Pool)
	c.Queue = "fcfs"
	c.Backfill = string(policies.EASY)
	c.Format = metrics.FormatParquet
	c.KillAtWalltime = true
	c.TauS = 10
	c.PowerDownS = -1
	c.MaxRestarts = 5
	return c
}

// BindFlags registers every flag on fs, pointing into c.
func (c *Spec) BindFlags(fs *pflag.FlagSet) {
	fs.StringVar(&c.Trace, "trace", c.Trace, "trace file or directory, its format told by its name or content (--trace-format); default: the embedded KTH-SP2 log")
	fs.StringVar(&c.TraceFormat, "trace-format", c.TraceFormat, "force the trace format: "+strings.Join(formats.Names(), ", ")+" ('schedsim policies' lists them with a line each)")
	fs.StringVar(&c.GoogleScale, "google-scale", c.GoogleScale, "Google traces: factors from normalised amounts (1 = the largest machine) to the replay's units, e.g. cpu=64,mem=256,disk=1 (default cpu=1,mem=1, no disk)")
	fs.StringVar(&c.TimeZone, "time-zone", c.TimeZone, "the site's IANA time zone for traces whose calendar times carry none (Slurm accounting; default UTC)")
	for _, o := range registry.Orders() {
		if o.Flags != nil {
			name := o.Name
			o.Flags(fs, func() registry.Args { return c.Args.Edit(name) })
		}
	}
	for _, b := range registry.Backfills() {
		if b.Flags != nil {
			name := string(b.Kind)
			b.Flags(fs, func() registry.Args { return c.Args.Edit(name) })
		}
	}
	fs.StringVar(&c.Cluster, "cluster", c.Cluster, "cluster YAML file (nodes, resources, attributes, power)")
	fs.StringVar(&c.Platform, "platform", c.Platform, "Batsim/SimGrid platform XML instead of --cluster")
	fs.IntVar(&c.MaxHosts, "max-hosts", c.MaxHosts, "keep only the first N compute hosts of --platform (0: all)")
	fs.StringVar(&c.SWFModel, "swf-model", c.SWFModel, "cluster model for SWF traces: pool (one node of MaxProcs processors) or nodes (MaxNodes whole nodes)")
	fs.IntVar(&c.ProcsPerNode, "swf-procs-per-node", c.ProcsPerNode, "processors per node in the nodes model (default ⌈MaxProcs/MaxNodes⌉)")
	fs.StringVar(&c.Queue, "queue", c.Queue, "queue order: "+strings.Join(registry.OrderNames(), ", "))
	fs.StringVar(&c.Backfill, "backfill", c.Backfill, "backfilling: none, easy, conservative")
	fs.Var(&c.Placement, "placement", "placement strategy, listed by 'schedsim policies'; arguments in --config")
	fs.StringVar(&c.CandidateLimit, "candidate-limit", c.CandidateLimit, "stop after this many feasible nodes: auto (max(2, ⌈log₂ n⌉)), none, or a count")
	fs.BoolVar(&c.Explain, "explain", c.Explain, "write the decisions table (decisions.<format>): each placed task's node and every scorer's score")
	fs.Var(&c.Script, "script", "Starlark placement script (LXD instance_placement, score, filter); on_error, step_budget, memory_budget_mib, time_budget_ms, log_max_mib, weight in --config")
	fs.StringVar(&c.NodeEvents, "node-events", c.NodeEvents, "node events file: CSV time_s,node,event(fail|recover|drain|undrain)[,deadline_s]")
	fs.Float64Var(&c.MTBFs, "mtbf", c.MTBFs, "random node failures: mean time between failures per node, seconds (with --mttr; seeded by --seed)")
	fs.Float64Var(&c.MTTRs, "mttr", c.MTTRs, "random node failures: mean time to repair, seconds")
	fs.Float64Var(&c.CheckpointS, "checkpoint", c.CheckpointS, "checkpoint interval in seconds for jobs that give none: a job stopped by a node event restarts from its last checkpoint (0: from zero)")
	fs.IntVar(&c.MaxRestarts, "max-restarts", c.MaxRestarts, "node events may stop a job and queue it again this many times; the next stop kills it (as Slurm's MaxBatchRequeue; 0: no cap)")
	fs.Float64Var(&c.SchedulingIntervalS, "scheduling-interval", c.SchedulingIntervalS, "run the scheduler only at multiples of this many seconds (Slurm's sched_interval, Maui's polling), and on --schedule-on's events; 0: at every event")
	fs.StringSliceVar(&c.ScheduleOn, "schedule-on", c.ScheduleOn, "with --scheduling-interval, also run the scheduler when a job is submitted or ends: submit, end (Slurm's event-triggered passes)")
	fs.StringVar(&c.Calendar, "calendar", c.Calendar, "calendar file (YAML): the site's run-time limits by the time of day and week, and its synchronization points; a job its window does not admit waits for one that does")
	c.LimitsSpec.bindFlags(fs)
	fs.Uint64Var(&c.Seed, "seed", c.Seed, "random seed, stored with the run")
	fs.StringVar(&c.Out, "out", c.Out, "run directory (default runs/<trace>-<queue>-<backfill>[-<swf model>], numbered -2, -3 … when taken)")
	fs.StringSliceVar(&c.FailOn, "fail-on", c.FailOn, "exit 1 when the run has any of: "+strings.Join(FailOnKinds, ", ")+" (for CI)")
	fs.StringVar(&c.Format, "format", c.Format, "table format: parquet, arrow, csv (summary.csv is always written)")
	fs.BoolVar(&c.Check, "check", c.Check, "verify the engine's invariants during the run; a violation fails it")
	fs.BoolVar(&c.Quiet, "quiet", c.Quiet, "print nothing but errors")
	fs.BoolVar(&c.Strict, "strict", c.Strict, "stop at the first bad trace record instead of skipping and counting it")
	fs.BoolVar(&c.KillAtWalltime, "kill-at-walltime", c.KillAtWalltime, "kill a job when its runtime exceeds its requested walltime")
	fs.Float64Var(&c.TauS, "bsld-tau", c.TauS, "bounded-slowdown threshold τ in seconds")
	fs.Float64Var(&c.PowerDownS, "power-down", c.PowerDownS, "switch a node off after it has been idle this many seconds (switching times and energy from the cluster's or platform's power model; < 0: never)")
	fs.StringVar(&c.Price, "price", c.Price, "electricity price series, CSV time_s,value (per kWh): energy_cost in the summary")
	fs.StringVar(&c.Carbon, "carbon", c.Carbon, "carbon intensity series, CSV time_s,value (gCO₂ per kWh): carbon_kg in the summary")
	fs.StringVar(&c.Tenants, "tenants", c.Tenants, "tenants of the tenants table and the Jain columns: user, group, queue (default: the lattice block's, else user)")
	fs.Float64Var(&c.CalibResolutionS, "calib-resolution", c.CalibResolutionS, "round the waits calib_* compare to this many seconds, the resolution the trace recorded them at (0: exact)")
	fs.Float64Var(&c.CalibFromS, "calib-from", c.CalibFromS, "compare with the recorded schedule only the jobs submitted from this second of the trace (a held-out part)")
	fs.Float64Var(&c.CalibUntilS, "calib-until", c.CalibUntilS, "… and before this second (0: to the end)")
	c.bindTransformFlags(fs)
	c.bindSchedulerFlags(fs)
}

// ResolvePaths makes the config's relative file paths relative to
// dir (a --config file's, or an experiment spec's directory).
func ResolvePaths(dir string, into *Spec) {
	for _, p := range into.paths() {
		if *p != "" && !filepath.IsAbs(*p) {
			*p = filepath.Join(dir, *p)
		}
	}
}

// paths are the spec's file paths, each once.
func (c *Spec) paths() []*string {
	ps := []*string{&c.Trace, &c.Cluster, &c.Platform, &c.Script.Path, &c.NodeEvents, &c.Calendar, &c.Out, &c.Price, &c.Carbon}
	return append(ps, c.Args.paths()...)
}

// foldNames lower-cases the policy names, which are all lower case in
// the registries: --queue FCFS, --backfill EASY and --placement First-Fit
// name fcfs, easy and first-fit (and run directories and run.yaml say
// so). Profile names and files keep their case.
func (c *Spec) foldNames() {
	c.Queue = strings.ToLower(strings.TrimSpace(c.Queue))
	c.Backfill = strings.ToLower(strings.TrimSpace(c.Backfill))
	c.Placement.Strategy = strings.ToLower(c.Placement.Strategy)
}

// validate reports every problem at once.
func (c *Spec) Validate() error {
	c.foldNames()
	var errs []error
	add := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	addAt := func(key, format string, args ...any) { errs = append(errs, c.problem(key, format, args...)) }
	if c.SpecVersion < 0 || c.SpecVersion > SpecVersion {
		addAt("spec_version", "version %d is not one this schedsim reads (it reads up to %d): use the schedsim that wrote it, or a newer one", c.SpecVersion, SpecVersion)
	}
	if _, err := policies.ParseBackfill(c.Backfill); err != nil {
		addAt("backfill", "%v", err)
	}
	if _, err := swf.ParseModel(c.SWFModel); err != nil {
		addAt("swf_model", "%v", err)
	}
	switch c.Format {
	case metrics.FormatParquet, metrics.FormatArrow, metrics.FormatCSV:
	default:
		addAt("format", "unknown format %q (known: parquet, arrow, csv)", c.Format)
	}
	if c.TraceFormat != "" {
		if err := formats.Check(c.TraceFormat); err != nil {
			addAt("trace_format", "%v", err)
		}
	}
	if st := c.Placement.String(); !slices.Contains(placement.Strategies(), st) {
		addAt("placement", "unknown strategy %q (known: %s)", st, strings.Join(placement.Strategies(), ", "))
	}
	if c.CandidateLimit != "" {
		if _, err := placement.ParseLimit(c.CandidateLimit); err != nil {
			addAt("candidate_limit", "%v", err)
		}
	}
	errs = append(errs, c.validateQueue()...)
	errs = append(errs, c.validateEnergy()...)
	errs = append(errs, c.validateTransform()...)
	errs = append(errs, c.validateScheduler()...)
	if c.Script.Path != "" {
		if err := c.Script.Validate(); err != nil { // fills the defaults too, for run.yaml
			addAt("script", "%v", err)
		}
	}
	if c.MaxRestarts < 0 {
		addAt("max_restarts", "want ≥ 0 (0: no cap), got %d", c.MaxRestarts)
	}
	if (c.MTBFs > 0) != (c.MTTRs > 0) || c.MTBFs < 0 || c.MTTRs < 0 {
		add("--mtbf and --mttr: give both, in seconds > 0")
	}
	for _, d := range []struct {
		key string
		v   float64
	}{{"mtbf_s", c.MTBFs}, {"mttr_s", c.MTTRs}} {
		if d.v > 0 && sim.SecondsToTime(d.v) == 0 {
			addAt(d.key, "want at least 0.000001 s (the clock's resolution), got %s", sim.FormatNumber(d.v))
		}
	}
	if _, err := c.cycle(); err != nil {
		errs = append(errs, err)
	}
	errs = append(errs, c.LimitsSpec.validate(c)...)
	if c.CheckpointS < 0 {
		addAt("checkpoint_s", "must be ≥ 0")
	}
	if c.Calendar != "" && (c.Backfill == string(policies.Conservative) || c.External()) {
		addAt("calendar", "a calendar holds jobs back from the scheduler, which conservative backfilling's reservations and an external scheduler do not model: use backfill none or easy")
	}
	if (c.NodeEvents != "" || c.MTBFs > 0) && c.Backfill == string(policies.Conservative) {
		add("--backfill conservative: its reservations do not model node events; use none or easy with --node-events, --mtbf")
	}
	if c.Cluster != "" && c.Platform != "" {
		add("--cluster and --platform: give one, not both")
	}
	if c.MaxHosts < 0 {
		addAt("max_hosts", "must be ≥ 0")
	}
	if c.ProcsPerNode < 0 {
		addAt("swf_procs_per_node", "must be ≥ 0")
	}
	if c.CalibResolutionS < 0 || c.CalibFromS < 0 || c.CalibUntilS < 0 {
		add("--calib-resolution, --calib-from, --calib-until: want ≥ 0 seconds")
	}
	if c.CalibUntilS > 0 && c.CalibUntilS <= c.CalibFromS {
		addAt("calib_until_s", "want after calib_from_s (%s s), got %s s", sim.FormatNumber(c.CalibFromS), sim.FormatNumber(c.CalibUntilS))
	}
	if c.TauS < 0 {
		addAt("bsld_tau_s", "must be ≥ 0")
	}
	switch c.Tenants {
	case "", metrics.TenantsByUser, metrics.TenantsByGroup, metrics.TenantsByQueue:
	default:
		addAt("tenants", "want user, group or queue, got %q", c.Tenants)
	}
	if _, err := time.LoadLocation(c.TimeZone); err != nil {
		addAt("time_zone", "unknown time zone %q (want an IANA name such as Europe/Stockholm)", c.TimeZone)
	}
	for _, d := range []struct {
		key string
		v   float64
	}{{"bsld_tau_s", c.TauS}, {"calib_resolution_s", c.CalibResolutionS}, {"calib_from_s", c.CalibFromS}, {"calib_until_s", c.CalibUntilS}, {"checkpoint_s", c.CheckpointS}, {"power_down_s", c.PowerDownS}, {"mtbf_s", c.MTBFs}, {"mttr_s", c.MTTRs}} {
		if _, err := sim.CheckSeconds(d.v); err != nil {
			addAt(d.key, "%v", err)
		}
	}
	if _, err := c.batchOptions(); err != nil {
		errs = append(errs, err)
	}
	if err := checkFailOn(c.FailOn); err != nil {
		addAt("fail_on", "%v", err)
	}
	return errors.Join(errs...)
}
