package experiment

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/schedsim/schedsim/metrics"
	"github.com/schedsim/schedsim/metrics/compare"
	"github.com/schedsim/schedsim/policies"
	"github.com/schedsim/schedsim/policies/lattice"
	"github.com/schedsim/schedsim/policies/placement"
	"github.com/schedsim/schedsim/policies/registry"
	"github.com/schedsim/schedsim/traces/formats"
)

// LatticeQueue is the queue name of Lattice's multi-factor queue, the one
// queue that profiles and weights apply to.
const LatticeQueue = "lattice"

// axisKeys are the replay settings the experiment's axes set; a replay
// block or a parameter may not set them.
var axisKeys = []string{"trace", "trace_format", "cluster", "platform", "max_hosts", "swf_model", "swf_procs_per_node",
	"queue", "profile", "backfill", "placement", "seed", "out", "quiet"}

// runLabels are the string columns a replay adds to its summary.
var runLabels = []string{"trace", "queue", "backfill"}

// Validate reports every problem of the spec at once, each with its line.
// It checks names against the known policies, profiles, factors and
// summary columns, but not the files (the sweep opens them).
func (s *Spec) Validate() error {
	var errs []error
	add := func(path, format string, args ...any) { errs = append(errs, s.Errorf(path, format, args...)) }

	if s.Seeds < 0 {
		add("seeds", "want a count ≥ 1, got %d", s.Seeds)
	}
	if len(s.Traces) == 0 {
		add("traces", "give at least one trace")
	}
	traceNames := map[string]bool{}
	for i, t := range s.Traces {
		p := fmt.Sprintf("traces[%d]", i)
		if t.Path == "" {
			add(p+".path", "missing")
		}
		if t.Format != "" {
			if err := formats.Check(t.Format); err != nil {
				add(p+".format", "%v", err)
			}
		}
		name := s.TraceName(i)
		if err := checkKeyPart(name); err != nil {
			add(p+".name", "%v", err)
		}
		if traceNames[name] {
			add(p+".name", "trace %q given twice (give each a distinct name)", name)
		}
		traceNames[name] = true
	}
	clusterNames := map[string]bool{}
	for i, c := range s.Clusters {
		p := fmt.Sprintf("clusters[%d]", i)
		if err := checkKeyPart(c.Name); err != nil {
			add(p+".name", "%v", err)
		}
		if clusterNames[c.Name] {
			add(p+".name", "cluster %q given twice", c.Name)
		}
		clusterNames[c.Name] = true
		if c.Cluster != "" && c.Platform != "" {
			add(p, "give cluster or platform, not both")
		}
		switch c.SWFModel {
		case "", "pool", "nodes":
		default:
			add(p+".swf_model", "want pool or nodes, got %q", c.SWFModel)
		}
		if c.MaxHosts < 0 {
			add(p+".max_hosts", "must be ≥ 0")
		}
		if c.ProcsPerNode < 0 {
			add(p+".swf_procs_per_node", "must be ≥ 0")
		}
	}
	checkAxis(s, "policies.queue", s.Policies.Queue, func(v string) error {
		_, err := registry.LookupOrder(v)
		return err
	}, &errs)
	checkAxis(s, "policies.backfill", s.Policies.Backfill, func(v string) error {
		_, err := policies.ParseBackfill(v)
		return err
	}, &errs)
	checkAxis(s, "policies.placement", s.Policies.Placement, func(v string) error {
		if !slices.Contains(placement.Strategies(), v) {
			return fmt.Errorf("unknown strategy %q (known: %s)", v, strings.Join(placement.Strategies(), ", "))
		}
		return nil
	}, &errs)
	lat, nonLat := 0, 0
	for _, q := range s.queues() {
		if readsProfiles(q) {
			lat++
		} else {
			nonLat++
		}
	}
	profileNames := map[string]bool{}
	for i, p := range s.Profiles {
		path := fmt.Sprintf("profiles[%d]", i)
		if !IsProfileFile(p) {
			if _, ok := lattice.Builtin(p); !ok {
				add(path, "unknown profile %q (known: %s, or a profile YAML file)", p, strings.Join(lattice.BuiltinNames(), ", "))
			}
		}
		name := profileName(p)
		if profileNames[name] {
			add(path, "profile %q given twice", name)
		}
		profileNames[name] = true
	}
	if len(s.Profiles) > 0 && lat == 0 {
		add("profiles", "weight profiles need queue lattice in policies.queue")
	}
	errs = append(errs, s.validateParameters(nonLat > 0)...)
	if s.Replay.Kind != 0 && s.Replay.Kind != yaml.MappingNode {
		add("replay", "want a mapping of replay settings (the keys of schedsim replay --config)")
	}
	for _, k := range s.ReplayKeys() {
		if slices.Contains(axisKeys, k) {
			add("replay."+k, "set by the experiment's axes (traces, clusters, policies, profiles, seed); remove it here")
		}
	}
	seen := map[string]bool{}
	for i, m := range s.Metrics {
		p := fmt.Sprintf("metrics[%d]", i)
		if _, known := metrics.RunSummaryKind(m); !known && !slices.Contains(runLabels, m) {
			add(p, "unknown summary column %q (see the README's summary columns)", m)
		} else if metrics.IsTimingColumn(m) {
			add(p, "%q measures the machine, not the schedule; the sweep summary leaves it out", m)
		}
		if seen[m] {
			add(p, "%q given twice", m)
		}
		seen[m] = true
	}
	if s.Objective != "" {
		if _, known := metrics.RunSummaryKind(s.Objective); !known {
			add("objective", "unknown summary column %q (see the README's summary columns)", s.Objective)
		} else if _, ok := compare.DirectionOf(s.Objective); !ok {
			add("objective", "%q has no known better direction; rank by one of %s", s.Objective, strings.Join(compare.RankableMetrics(), ", "))
		}
	}
	if s.Target != "" {
		if t, err := compare.ParseTarget(s.Target); err != nil {
			add("target", "%v", err)
		} else if _, known := metrics.RunSummaryKind(t.Metric); !known {
			add("target", "unknown summary column %q", t.Metric)
		}
	}
	// Two runs of one key are found by planning the runs (one at a
	// time); a plan larger than the limit is left to the sweep, which
	// knows --max-runs.
	if len(errs) == 0 && s.Count() <= int64(s.runLimit()) {
		if _, err := s.Plan(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// checkAxis checks one policy axis's values and that none repeats.
func checkAxis(s *Spec, path string, values []string, check func(string) error, errs *[]error) {
	seen := map[string]bool{}
	for i, v := range values {
		p := fmt.Sprintf("%s[%d]", path, i)
		if err := check(v); err != nil {
			*errs = append(*errs, s.Errorf(p, "%v", err))
		}
		if seen[v] {
			*errs = append(*errs, s.Errorf(p, "%q given twice", v))
		}
		seen[v] = true
	}
}

// validateParameters checks the sampling and every range.
func (s *Spec) validateParameters(nonLattice bool) []error {
	var errs []error
	add := func(path, format string, args ...any) { errs = append(errs, s.Errorf(path, format, args...)) }
	ps := &s.Parameters
	switch ps.Sampling {
	case "", Grid:
		if ps.Samples != 0 {
			add("parameters.samples", "only for sampling random or lhs")
		}
	case Random, LHS:
		if ps.Samples < 1 {
			add("parameters.samples", "sampling %s needs samples ≥ 1", ps.Sampling)
		}
	default:
		add("parameters.sampling", "want grid, random or lhs, got %q", ps.Sampling)
	}
	grid := ps.Sampling == "" || ps.Sampling == Grid
	names := map[string]bool{}
	factors := lattice.FactorNames()
	for i, r := range ps.Ranges {
		p := fmt.Sprintf("parameters.ranges[%d]", i)
		switch {
		case r.Name == "":
			add(p+".name", "missing")
		case names[r.Name]:
			add(p+".name", "parameter %q given twice", r.Name)
		case slices.Contains(axisKeys, r.Name):
			add(p+".name", "%q is an axis of the experiment (traces, clusters, policies, profiles, seeds), not a parameter", r.Name)
		}
		names[r.Name] = true
		if err := checkKeyPart(r.Name); r.Name != "" && err != nil {
			add(p+".name", "%v", err)
		}
		if f, ok := Weight(r.Name); ok {
			if !slices.Contains(factors, f) {
				add(p+".name", "unknown lattice factor %q (known: %s)", f, strings.Join(factors, ", "))
			}
			if nonLattice {
				add(p+".name", "weights apply to queue lattice only; every queue of policies.queue must be lattice")
			}
		}
		hasBounds := r.Min != nil || r.Max != nil
		switch {
		case len(r.Values) > 0 && (hasBounds || r.Steps != 0):
			add(p, "give values, or min and max, not both")
		case len(r.Values) > 0:
			for j, v := range r.Values {
				if _, err := scalarValue(v); err != nil {
					add(fmt.Sprintf("%s.values[%d]", p, j), "%v", err)
				} else if r.Integer && !isWhole(v) {
					add(fmt.Sprintf("%s.values[%d]", p, j), "integer: want a whole number, got %v", v)
				}
			}
		case r.Min == nil || r.Max == nil:
			add(p, "give values, or min and max")
		default:
			lo, hi := *r.Min, *r.Max
			if math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) || lo > hi {
				add(p, "want finite min ≤ max, got min %v, max %v", lo, hi)
			}
			if r.Steps < 0 || (grid && r.Steps < 1) {
				add(p+".steps", "a grid needs steps ≥ 1 (evenly spaced values from min to max)")
			}
		}
	}
	return errs
}

// isWhole says whether a values entry is a whole number.
func isWhole(v any) bool {
	x, err := scalarValue(v)
	return err == nil && x.IsNum && x.Num == math.Trunc(x.Num)
}

// checkKeyPart checks a name used in run keys.
func checkKeyPart(name string) error {
	if name == "" {
		return errors.New("missing")
	}
	if safe(name) != name || strings.Contains(name, "__") {
		return fmt.Errorf("%q: use letters, digits and . _ + - only (no __), it becomes part of run directory names", name)
	}
	return nil
}
