package experiment

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/schedsim/schedsim/internal/strictyaml"
	"github.com/schedsim/schedsim/metrics"
)

// DefaultObjective is what a sweep ranks its groups by when the spec
// names no objective: the mean bounded slowdown, lower is better.
const DefaultObjective = metrics.ColMeanBSLD

// Spec is an experiment as written in its YAML file.
type Spec struct {
	// Name labels the experiment (reports, compare); optional.
	Name string `yaml:"name,omitempty"`
	// Seed is the base seed every run's seed derives from.
	Seed uint64 `yaml:"seed"`
	// Seeds is the number of replicas of every point (default 1).
	Seeds int `yaml:"seeds,omitempty"`
	// MaxRuns bounds the runs Runs plans (DefaultMaxRuns when 0); the
	// sweep's --max-runs sets it, the file cannot.
	MaxRuns  int       `yaml:"-"`
	Traces   []Trace   `yaml:"traces"`
	Clusters []Cluster `yaml:"clusters,omitempty"`
	Policies Policies  `yaml:"policies,omitempty"`
	// Profiles are lattice weight profiles: built-in names or profile
	// YAML files (paths relative to the spec). Queue lattice only.
	Profiles   []string   `yaml:"profiles,omitempty"`
	Parameters Parameters `yaml:"parameters,omitempty"`
	// Replay holds replay settings shared by every run, with the keys of
	// `schedsim replay --config` (the caller decodes and checks them).
	Replay yaml.Node `yaml:"replay,omitempty"`
	// Metrics are the run summary columns kept in the sweep summary
	// (default: all but the machine-timing ones).
	Metrics []string `yaml:"metrics,omitempty"`
	// Objective is the summary column the sweep ranks its groups by
	// (default mean_bsld); its direction is compare's (lower is better
	// for waits, higher for utilization).
	Objective string `yaml:"objective,omitempty"`
	// Target is the planner's question, "p95_wait_s <= 3600": the sweep
	// prints how many replicas of each group meet it, and compare and
	// report answer it.
	Target string `yaml:"target,omitempty"`
	// Tune is the `schedsim tune` block, read by tune only.
	Tune yaml.Node `yaml:"tune,omitempty"`

	// File is the spec's path and Dir its directory, against which the
	// relative paths were resolved. Set by Load and Parse.
	File string `yaml:"-"`
	Dir  string `yaml:"-"`
	// lines maps a key path ("traces[1].path") to its line in File.
	lines map[string]int
}

// Trace is one trace of the experiment.
type Trace struct {
	// Name is the trace's part of the run keys (default: the file name
	// without its extensions).
	Name string `yaml:"name,omitempty"`
	Path string `yaml:"path"`
	// Format forces the trace format: a name of the format registry
	// (traces/formats), as --trace-format.
	Format string `yaml:"format,omitempty"`
}

// Cluster is one cluster of the experiment: a cluster YAML file, a Batsim
// platform, or an SWF cluster model; none of them means the trace's own
// cluster (the SWF header in the pool model, a Batsim workload's nb_res).
type Cluster struct {
	Name         string `yaml:"name"`
	Cluster      string `yaml:"cluster,omitempty"`
	Platform     string `yaml:"platform,omitempty"`
	MaxHosts     int    `yaml:"max_hosts,omitempty"`
	SWFModel     string `yaml:"swf_model,omitempty"`
	ProcsPerNode int    `yaml:"swf_procs_per_node,omitempty"`
}

// Policies are the policy axes; an empty axis is the replay default.
type Policies struct {
	Queue     []string `yaml:"queue,omitempty"`
	Backfill  []string `yaml:"backfill,omitempty"`
	Placement []string `yaml:"placement,omitempty"`
}

// Sampling methods of Parameters.
const (
	Grid   = "grid"   // the product of every range's values
	Random = "random" // Samples points, each value uniform in its range
	LHS    = "lhs"    // Samples points, a Latin hypercube: each range cut into Samples strata, each stratum used once
)

// Parameters are the swept replay parameters and how points are drawn.
type Parameters struct {
	Sampling string  `yaml:"sampling,omitempty"` // grid (default), random, lhs
	Samples  int     `yaml:"samples,omitempty"`  // points, for random and lhs
	Seed     *uint64 `yaml:"seed,omitempty"`     // sampling seed (default: the spec's seed)
	Ranges   []Range `yaml:"ranges,omitempty"`
}

// Range is one swept parameter. Name is w_<factor> for a lattice weight
// (it overrides the profile's), else a replay --config key ("checkpoint_s",
// "lattice.half_life_s"). Give Values, or Min and Max (with Steps for a
// grid: Steps evenly spaced values from Min to Max).
type Range struct {
	Name   string   `yaml:"name"`
	Values []any    `yaml:"values,omitempty"`
	Min    *float64 `yaml:"min,omitempty"`
	Max    *float64 `yaml:"max,omitempty"`
	Steps  int      `yaml:"steps,omitempty"`
	// Integer rounds the values to whole numbers (counts, ids).
	Integer bool `yaml:"integer,omitempty"`
}

// WeightPrefix starts the name of a parameter that is a lattice weight.
const WeightPrefix = "w_"

// Weight returns the factor of a w_<factor> parameter name.
func Weight(name string) (factor string, ok bool) {
	return strings.CutPrefix(name, WeightPrefix)
}

// Load reads, decodes and validates the spec at path. Relative paths in it
// are resolved against its directory. Every problem is reported at once,
// each as "path:line: what".
func Load(path string) (*Spec, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(data, path)
}

// Parse decodes and validates a spec read from file (used for messages and
// to resolve relative paths).
func Parse(data []byte, file string) (*Spec, error) {
	s := &Spec{File: file, Dir: filepath.Dir(file)}
	var errs []error
	root, err := strictyaml.Parse(file, data)
	if err != nil {
		return nil, err
	}
	if root == nil {
		return nil, fmt.Errorf("%s: empty experiment", file)
	}
	s.lines = map[string]int{}
	indexLines(root, "", s.lines)
	d := strictyaml.NewDecoder(file)
	d.Decode(root, "", s) // goes on past a problem, so the rest is checked too
	if err := d.Err(); err != nil {
		errs = append(errs, err)
	}
	s.resolvePaths()
	if err := s.Validate(); err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return s, nil
}

// indexLines records the line of every key and list item under path.
func indexLines(n *yaml.Node, path string, lines map[string]int) {
	lines[path] = n.Line
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i].Value
			if path != "" {
				k = path + "." + k
			}
			lines[k] = n.Content[i].Line
			indexLines(n.Content[i+1], k, lines)
			lines[k] = n.Content[i].Line // the key's line, not the value's
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			indexLines(c, fmt.Sprintf("%s[%d]", path, i), lines)
		}
	}
}

// Line returns the line of a key path ("traces[1].path"), or of its
// nearest ancestor present in the file; 0 without a file.
func (s *Spec) Line(path string) int {
	for path != "" {
		if l, ok := s.lines[path]; ok {
			return l
		}
		cut := strings.LastIndexAny(path, ".[")
		if cut < 0 {
			break
		}
		path = path[:cut]
	}
	return s.lines[""]
}

// Errorf formats a problem of the spec at a key path as "file:line: path: …".
func (s *Spec) Errorf(path, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if path != "" {
		msg = path + ": " + msg
	}
	if l := s.Line(path); l > 0 {
		return fmt.Errorf("%s:%d: %s", s.File, l, msg)
	}
	return fmt.Errorf("%s: %s", s.File, msg)
}

// resolvePaths makes the spec's file paths relative to its directory.
func (s *Spec) resolvePaths() {
	rel := func(p *string) {
		if *p != "" && !filepath.IsAbs(*p) {
			*p = filepath.Join(s.Dir, *p)
		}
	}
	for i := range s.Traces {
		rel(&s.Traces[i].Path)
	}
	for i := range s.Clusters {
		rel(&s.Clusters[i].Cluster)
		rel(&s.Clusters[i].Platform)
	}
	for i, p := range s.Profiles {
		if IsProfileFile(p) {
			rel(&s.Profiles[i])
		}
	}
}

// IsProfileFile says whether a profile entry names a YAML file rather
// than a built-in profile.
func IsProfileFile(p string) bool {
	return strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml") || strings.ContainsRune(p, '/')
}

// ReplayKeys returns the replay block's keys with their lines, in file
// order, so the caller can check them against the replay's settings.
func (s *Spec) ReplayKeys() []string {
	var keys []string
	if s.Replay.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(s.Replay.Content); i += 2 {
			keys = append(keys, s.Replay.Content[i].Value)
		}
	}
	return keys
}

// Marshal encodes the spec as run, with its paths resolved, for
// DIR/experiment.yaml. The bytes depend only on the spec.
func (s *Spec) Marshal() ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(s); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// formatFloat is the one number format of keys, columns and replay values:
// the shortest text that reads back to the same float64, never with an
// exponent (YAML and the flags read it as a plain number).
func formatFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
