package run

import (
	"fmt"
	"math"
	"strings"

	"github.com/spf13/pflag"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces/transform"
)

// TransformSpec is the what-if of a run: the job stream and the cluster
// as the run changes them before replaying (package transform says how
// and in which order). Every key is left out of run.yaml when unset, and
// a factor of 0 (unset) means 1: a run without transforms is the plain
// replay, its files unchanged.
type TransformSpec struct {
	// From and Until bound the submit times kept: seconds on the trace's
	// clock, or RFC 3339 calendar times when the trace's epoch is known.
	From  string `yaml:"from,omitempty"`
	Until string `yaml:"until,omitempty"`
	// FirstJobs > 0 keeps the first N jobs (of the window).
	FirstJobs     int     `yaml:"first_jobs,omitempty"`
	LoadFactor    float64 `yaml:"load_factor,omitempty"`
	RuntimeFactor float64 `yaml:"runtime_factor,omitempty"`
	// WalltimeModel is traced (default), scaled, exact or a factor k ≥ 1.
	WalltimeModel string `yaml:"walltime_model,omitempty"`
	// ClusterFactor multiplies every node group; AddNodes adds COUNT:NODE
	// nodes like a named one.
	ClusterFactor float64  `yaml:"cluster_factor,omitempty"`
	AddNodes      []string `yaml:"add_nodes,omitempty"`
	// WarmUpS and CoolDownS are the spans, from the first and to the last
	// submit, whose jobs are replayed but not measured.
	WarmUpS   float64 `yaml:"warm_up_s,omitempty"`
	CoolDownS float64 `yaml:"cool_down_s,omitempty"`
	// JitterSubmitS and JitterRuntime are the seeded noise of replicas:
	// the half-width of uniform submit offsets, in seconds, and the σ of
	// mean-1 log-normal runtime factors.
	JitterSubmitS float64 `yaml:"jitter_submit_s,omitempty"`
	JitterRuntime float64 `yaml:"jitter_runtime,omitempty"`
}

// uncalibrated names the transforms that move the jobs' submit times or
// runtimes ("load_factor 1.3, jitter_runtime 0.1"), after which no job's
// recorded start can be compared with the replay; "" when there are none.
// A window (from, until, first_jobs) counts: the jobs left out held the
// recorded machine, so the kept ones waited for jobs the replay lacks.
// Walltimes, warm-up and the cluster do not: the jobs are the recorded
// ones, and comparing a changed cluster with the history is the point.
func (c *Spec) uncalibrated() string {
	t := &c.TransformSpec
	var by []string
	for _, s := range []struct {
		key string
		set bool
		v   any
	}{
		{"from", t.From != "", t.From}, {"until", t.Until != "", t.Until}, {"first_jobs", t.FirstJobs > 0, t.FirstJobs},
		{"load_factor", t.LoadFactor != 0 && t.LoadFactor != 1, t.LoadFactor},
		{"runtime_factor", t.RuntimeFactor != 0 && t.RuntimeFactor != 1, t.RuntimeFactor},
		{"jitter_submit_s", t.JitterSubmitS > 0, t.JitterSubmitS}, {"jitter_runtime", t.JitterRuntime > 0, t.JitterRuntime},
	} {
		if s.set {
			by = append(by, fmt.Sprintf("%s %v", s.key, s.v))
		}
	}
	return strings.Join(by, ", ")
}

// bindTransformFlags registers the transforms' flags on fs.
func (c *Spec) bindTransformFlags(fs *pflag.FlagSet) {
	t := &c.TransformSpec
	fs.StringVar(&t.From, "from", t.From, "what-if: replay the jobs submitted from this time on: seconds on the trace's clock, or an RFC 3339 time (2024-03-01T00:00:00Z) when the trace's epoch is known")
	fs.StringVar(&t.Until, "until", t.Until, "what-if: replay the jobs submitted before this time (seconds or RFC 3339, as --from)")
	fs.IntVar(&t.FirstJobs, "first-jobs", t.FirstJobs, "what-if: replay only the first N jobs (of the --from/--until window; 0: all)")
	fs.Float64Var(&t.LoadFactor, "load-factor", t.LoadFactor, "what-if: divide every inter-arrival time by f (as Qsim's -F): 1.3 offers 30 % more load (0: 1)")
	fs.Float64Var(&t.RuntimeFactor, "runtime-factor", t.RuntimeFactor, "what-if: multiply every runtime by f; walltimes stay as --walltime-model says (0: 1)")
	fs.StringVar(&t.WalltimeModel, "walltime-model", t.WalltimeModel, "what-if: walltimes as traced (default), scaled (× --runtime-factor), exact (= runtime), or a factor k ≥ 1 (k × runtime)")
	fs.Float64Var(&t.ClusterFactor, "cluster-factor", t.ClusterFactor, "what-if: multiply the node count of every group of identical nodes by f, rounded (0: 1)")
	fs.StringSliceVar(&t.AddNodes, "add-nodes", t.AddNodes, "what-if: add COUNT nodes like node NODE, as COUNT:NODE (16:c001); repeatable")
	fs.Float64Var(&t.WarmUpS, "warm-up", t.WarmUpS, "seconds from the first submit whose jobs run but are left out of the summary's per-job statistics (jobs table: measured)")
	fs.Float64Var(&t.CoolDownS, "cool-down", t.CoolDownS, "seconds before the last submit whose jobs run but are left out of the summary's per-job statistics")
	fs.Float64Var(&t.JitterSubmitS, "jitter-submit", t.JitterSubmitS, "replicas: move each submit by a uniform offset in [−s, s] seconds, order kept (seeded by --seed)")
	fs.Float64Var(&t.JitterRuntime, "jitter-runtime", t.JitterRuntime, "replicas: multiply each runtime by a mean-1 log-normal factor of this σ, within its walltime (seeded by --seed)")
}

// validateTransform reports every problem of the transforms, naming the
// key's file and line or its flag.
func (c *Spec) validateTransform() []error {
	t := &c.TransformSpec
	var errs []error
	addAt := func(key, format string, args ...any) { errs = append(errs, c.problem(key, format, args...)) }
	for _, w := range []struct{ key, value string }{{"from", t.From}, {"until", t.Until}} {
		if w.value != "" {
			if err := transform.CheckInstant(w.value); err != nil {
				addAt(w.key, "%v", err)
			}
		}
	}
	if t.FirstJobs < 0 {
		addAt("first_jobs", "want a count ≥ 0 (0: all), got %d", t.FirstJobs)
	}
	for _, f := range []struct {
		key string
		v   float64
	}{{"load_factor", t.LoadFactor}, {"runtime_factor", t.RuntimeFactor}, {"cluster_factor", t.ClusterFactor}} {
		_, inFile := c.source.lines[f.key]
		switch {
		case f.v < 0 || math.IsNaN(f.v) || math.IsInf(f.v, 0):
			addAt(f.key, "want a factor > 0, got %s", sim.FormatNumber(f.v))
		case f.v == 0 && inFile:
			addAt(f.key, "want a factor > 0 (1 leaves things as traced), got 0")
		}
	}
	if _, err := transform.ParseWalltime(t.WalltimeModel); err != nil {
		addAt("walltime_model", "%v", err)
	}
	for _, a := range t.AddNodes {
		if _, err := transform.ParseAddition(a); err != nil {
			addAt("add_nodes", "%v", err)
		}
	}
	for _, d := range []struct {
		key string
		v   float64
	}{{"warm_up_s", t.WarmUpS}, {"cool_down_s", t.CoolDownS}, {"jitter_submit_s", t.JitterSubmitS}, {"jitter_runtime", t.JitterRuntime}} {
		if d.v < 0 || math.IsNaN(d.v) || math.IsInf(d.v, 0) {
			addAt(d.key, "want a number ≥ 0, got %s", sim.FormatNumber(d.v))
		}
	}
	return errs
}

// stream is the job-stream part of the transforms; the calendar times of
// the window need the trace's epoch.
func (c *Spec) stream(w *Workload) (transform.Stream, error) {
	t := &c.TransformSpec
	st := transform.Stream{
		FirstJobs:     t.FirstJobs,
		LoadFactor:    t.LoadFactor,
		RuntimeFactor: t.RuntimeFactor,
		WarmUp:        sim.SecondsToTime(t.WarmUpS),
		CoolDown:      sim.SecondsToTime(t.CoolDownS),
		Jitter: transform.Jitter{SubmitSpread: sim.SecondsToTime(t.JitterSubmitS), RuntimeSigma: t.JitterRuntime,
			Seed: c.Seed},
	}
	var err error
	if st.Walltime, err = transform.ParseWalltime(t.WalltimeModel); err != nil {
		return st, c.problem("walltime_model", "%v", err)
	}
	for _, b := range []struct {
		key, value string
		dst        **sim.Time
	}{{"from", t.From, &st.From}, {"until", t.Until, &st.Until}} {
		if b.value == "" {
			continue
		}
		at, err := transform.ParseInstant(b.value, w.Epoch)
		if err != nil {
			return st, c.problem(b.key, "%s: %v", w.Name, err)
		}
		*b.dst = &at
	}
	if err := st.Check(); err != nil {
		return st, fmt.Errorf("transforms: %w", err)
	}
	return st, nil
}

// applyTransforms rewrites w's cluster and job stream as the spec's
// transforms ask. It returns which jobs the metrics measure, nil for all.
func (c *Spec) applyTransforms(w *Workload) (measured func(*sim.JobRun) bool, err error) {
	t := &c.TransformSpec
	var changes []string
	if t.ClusterFactor != 0 && t.ClusterFactor != 1 {
		if w.Nodes, err = transform.Scale(w.Nodes, t.ClusterFactor); err != nil {
			return nil, fmt.Errorf("%s: %w", c.where("cluster_factor"), err)
		}
		changes = append(changes, fmt.Sprintf("× %s", sim.FormatNumber(t.ClusterFactor)))
	}
	for _, s := range t.AddNodes {
		a, err := transform.ParseAddition(s)
		if err == nil {
			w.Nodes, err = transform.Add(w.Nodes, a)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.where("add_nodes"), err)
		}
		changes = append(changes, fmt.Sprintf("+%d like %s", a.Count, a.Like))
	}
	if len(changes) > 0 {
		w.Cluster += ", " + strings.Join(changes, ", ")
	}
	st, err := c.stream(w)
	if err != nil || st.Identity() {
		return nil, err
	}
	src := transform.NewSource(w.Source, st)
	w.Source = src
	if st.FirstJobs > 0 && w.Records > st.FirstJobs {
		w.Records = st.FirstJobs
	}
	if !st.Measuring() {
		return nil, nil
	}
	return func(j *sim.JobRun) bool { return src.Measured(j.TraceSubmit) }, nil
}

// rewriteProblem names the flags (or the spec file's lines) of the
// transforms that made a job's times nonsense.
func (c *Spec) rewriteProblem(re *transform.RewriteError) error {
	var where []string
	for _, key := range strings.Split(re.Setting, ", ") {
		where = append(where, c.where(key))
	}
	return fmt.Errorf("%s: job %s: %w", strings.Join(where, ", "), re.JobName(), re.Err)
}
