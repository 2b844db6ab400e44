package sweep

import (
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/schedsim/schedsim/internal/strictyaml"
	"github.com/schedsim/schedsim/metrics"
	"github.com/schedsim/schedsim/policies/lattice"
	"github.com/schedsim/schedsim/sim/experiment"
	"github.com/schedsim/schedsim/sim/run"
)

// Run is one run of a sweep with its resolved run spec.
type Run struct {
	experiment.Run
	Spec run.Spec
	// Profile is the weight profile file to write before the run (the
	// profile with the run's w_<factor> overrides); nil when none.
	Profile []byte
}

// baseReplayConfig is the replay defaults overlaid with the spec's replay
// block, decoded strictly from the spec file itself so errors carry its
// lines; paths are relative to the spec.
func baseReplayConfig(spec *experiment.Spec) (run.Spec, error) {
	cfg := run.Default()
	if len(spec.ReplayKeys()) == 0 {
		return cfg, nil
	}
	if err := cfg.Overlay(spec.File, &spec.Replay); err != nil {
		return cfg, err
	}
	run.ResolvePaths(spec.Dir, &cfg)
	return cfg, nil
}

// Plan resolves the run spec of every run of a sweep into dir and
// validates it, every problem reported at once (each once, though many
// runs share it): for the few runs tune replays over and over. A sweep
// resolves its runs one at a time (planner) instead.
func Plan(spec *experiment.Spec, runs []experiment.Run, dir string) ([]Run, error) {
	pl, err := newPlanner(spec, dir)
	if err != nil {
		return nil, err
	}
	out := make([]Run, 0, len(runs))
	err = pl.check(func(yield func(int, experiment.Run) bool) {
		for i, r := range runs {
			if !yield(i, r) {
				return
			}
		}
	}, func(r *Run) { out = append(out, *r) })
	if err != nil {
		return nil, err
	}
	return out, nil
}

// planner resolves a sweep's runs into run specs, one at a time: a
// sweep's runs are planned (checked, counted), then resolved again as
// they are replayed, never held.
type planner struct {
	spec *experiment.Spec
	base run.Spec
	dir  string
}

func newPlanner(spec *experiment.Spec, dir string) (*planner, error) {
	base, err := baseReplayConfig(spec)
	if err != nil {
		return nil, err
	}
	return &planner{spec: spec, base: base, dir: dir}, nil
}

// resolve is run r's run spec.
func (p *planner) resolve(r experiment.Run) (Run, error) {
	return runConfig(p.spec, p.base, r, p.dir)
}

// maxProblems is how many problems check lists; the runs with more are
// counted (a setting wrong in every run of a million is one problem a
// million times, each naming its run).
const maxProblems = 20

// check opens the experiment's files and resolves every run of runs,
// calling each with those that resolve, and reports the problems at once:
// the first maxProblems distinct ones, then how many more runs have some.
func (p *planner) check(runs iter.Seq2[int, experiment.Run], each func(*Run)) error {
	var errs []error
	seen := map[string]bool{}
	more := 0
	add := func(err error) bool {
		if seen[err.Error()] {
			return true
		}
		if len(errs) == maxProblems {
			return false
		}
		seen[err.Error()] = true
		errs = append(errs, err)
		return true
	}
	spec := p.spec
	for i, tr := range spec.Traces {
		if _, err := os.Stat(tr.Path); err != nil {
			add(spec.Errorf(fmt.Sprintf("traces[%d].path", i), "%v", err))
		}
	}
	for i, c := range spec.Clusters {
		for _, f := range []struct{ key, path string }{{"cluster", c.Cluster}, {"platform", c.Platform}} {
			if f.path == "" {
				continue
			}
			if _, err := os.Stat(f.path); err != nil {
				add(spec.Errorf(fmt.Sprintf("clusters[%d].%s", i, f.key), "%v", err))
			}
		}
	}
	for _, r := range runs {
		sr, err := p.resolve(r)
		if err != nil {
			listed := true
			for _, e := range splitErrors(err) {
				listed = add(fmt.Errorf("run %s: %w", r.Key, e)) && listed
			}
			if !listed {
				more++
			}
			continue
		}
		each(&sr)
	}
	if more > 0 {
		errs = append(errs, fmt.Errorf("… and %d more runs with problems", more))
	}
	return errors.Join(errs...)
}

// splitErrors unpacks an errors.Join.
func splitErrors(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// runConfig is base with the run's axes and parameters applied.
func runConfig(spec *experiment.Spec, base run.Spec, r experiment.Run, dir string) (Run, error) {
	sr := Run{Run: r, Spec: base}
	c := &sr.Spec
	c.Trace, c.TraceFormat = r.Trace.Path, r.Trace.Format
	c.Cluster, c.Platform, c.MaxHosts, c.ProcsPerNode = r.Cluster.Cluster, r.Cluster.Platform, r.Cluster.MaxHosts, r.Cluster.ProcsPerNode
	if r.Cluster.SWFModel != "" {
		c.SWFModel = r.Cluster.SWFModel
	}
	c.Queue, c.Backfill = r.Queue, r.Backfill
	c.SetProfile(r.Profile)
	c.Placement.Set(r.Placement)
	c.Seed = r.Seed
	c.Out = experiment.RunDir(dir, r.Key)
	c.Quiet = true
	for i, p := range r.Params {
		if _, ok := experiment.Weight(p.Name); ok {
			continue
		}
		if err := setConfigKey(c, p.Name, p.Value); err != nil {
			return sr, spec.Errorf(fmt.Sprintf("parameters.ranges[%d].name", i), "%v", err)
		}
	}
	if err := c.Validate(); err != nil {
		return sr, err
	}
	if w := r.Weights(); len(w) > 0 {
		prof, err := weightProfile(c, w)
		if err != nil {
			return sr, err
		}
		if _, err := lattice.ParseProfiles(prof); err != nil {
			return sr, fmt.Errorf("weights %v: %w", w, err)
		}
		sr.Profile = prof
		c.SetProfile(filepath.Join(dir, "profiles", r.Key+".yaml"))
	}
	return sr, nil
}

// setConfigKey sets one replay --config key ("checkpoint_s",
// "lattice.half_life_s") to v, by decoding it strictly like a --config file.
func setConfigKey(c *run.Spec, key string, v experiment.Value) error {
	// A dotted key nests: lattice.half_life_s: 60 → {lattice: {half_life_s: 60}}.
	var node any = v.String()
	if v.IsNum {
		node = v.Num
	}
	parts := strings.Split(key, ".")
	for i := len(parts) - 1; i >= 0; i-- {
		node = map[string]any{parts[i]: node}
	}
	var doc yaml.Node
	if err := doc.Encode(node); err != nil {
		return err
	}
	d := strictyaml.NewDecoder(key)
	d.Decode(&doc, "", c)
	if ps := d.Problems(); len(ps) > 0 {
		return fmt.Errorf("%s = %s: not a replay setting of that type (the keys of schedsim replay --config): %s", key, v, strings.TrimPrefix(ps[0].Error(), key+": "))
	}
	return nil
}

// weightProfile writes the run's profile (its --profile, or the default)
// with the given weights overriding the profile's.
func weightProfile(c *run.Spec, weights map[string]float64) ([]byte, error) {
	args, _ := c.Args.Get("lattice").(*lattice.Args)
	if args == nil {
		args = &lattice.Args{}
	}
	ps, err := args.Profiles(c.Profile())
	if err != nil {
		return nil, fmt.Errorf("--profile: %w", err)
	}
	if len(ps.ByQueue) > 0 {
		return nil, fmt.Errorf("--profile %s: weights (w_<factor>) override one profile; this one maps queues to other profiles", c.Profile())
	}
	names := lattice.FactorNames()
	w := map[string]float64{}
	for i, name := range names {
		w[name] = ps.Run.Weights[i]
	}
	for f, x := range weights {
		w[f] = x
	}
	conformance := "preferred"
	if ps.Run.RequireConformance {
		conformance = "required"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s with the sweep's weights\nprofile: swept\nprofiles:\n  swept:\n    conformance: %s\n    weights:\n", ps.Run.Name, conformance)
	for _, name := range names {
		fmt.Fprintf(&b, "      %s: %s\n", name, formatFloat(w[name]))
	}
	return []byte(b.String()), nil
}

// formatFloat prints a number the way keys and columns do.
func formatFloat(f float64) string { return experiment.Value{Num: f, IsNum: true}.String() }

// WriteProfile writes a weight profile file atomically (the same bytes
// for the same run, so concurrent shards writing it agree).
func WriteProfile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return metrics.WriteFileAtomic(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}
