package placement

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/schedsim/schedsim/internal/strictyaml"
)

// Spec chooses a strategy by name and gives its arguments. It is what the
// `placement:` block of a replay config decodes into; Build validates it
// and returns the pipeline.
//
//	placement:
//	  strategy: least-allocated
//	  resources: {cpu: 1, mem: 1}   # least/most/balanced-allocation; binpack's rubric
//	  limit: auto                   # or a number: stop after that many feasible nodes
//	  scorers:                      # extra weighted scorers, for any strategy
//	    - {name: spread, weight: 2, attribute: zone}
type Spec struct {
	Strategy   string    `yaml:"strategy"`
	Resources  Weights   `yaml:"resources,omitempty"`
	Attribute  string    `yaml:"attribute,omitempty"`
	Calculator string    `yaml:"calculator,omitempty"`
	Limit      Limit     `yaml:"limit,omitempty"`
	Scorers    []Scoring `yaml:"scorers,omitempty"`
	// Seed seeds random choices; the replay's --seed fills it.
	Seed uint64 `yaml:"-"`
}

// Scoring is one extra scorer of a pipeline with its weight and arguments.
type Scoring struct {
	Name       string  `yaml:"name"`
	Weight     float64 `yaml:"weight"`
	Resources  Weights `yaml:"resources,omitempty"`
	Attribute  string  `yaml:"attribute,omitempty"`
	Calculator string  `yaml:"calculator,omitempty"`
}

// Weights is a resource → weight mapping that keeps the file's order.
type Weights []ResourceWeight

// UnmarshalStrict reads a mapping resource: weight in order. A list of
// {name, weight} is read too: run.yaml files were written so before
// Weights wrote itself as a mapping.
func (w *Weights) UnmarshalStrict(d *strictyaml.Decoder, v *yaml.Node, path string) {
	*w = nil
	switch {
	case strictyaml.IsNull(v):
	case v.Kind == yaml.SequenceNode:
		var list []ResourceWeight
		d.Decode(v, path, &list)
		*w = list
	default:
		d.Mapping(v, path, nil, func(name string, _, val *yaml.Node) {
			var f float64
			d.Decode(val, strictyaml.Join(path, name), &f)
			*w = append(*w, ResourceWeight{Name: name, Weight: f})
		})
	}
}

// MarshalYAML writes the mapping in order, on one line.
func (w Weights) MarshalYAML() (any, error) {
	m := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
	for _, rw := range w {
		m.Content = append(m.Content,
			&yaml.Node{Kind: yaml.ScalarNode, Value: rw.Name},
			&yaml.Node{Kind: yaml.ScalarNode, Value: strconv.FormatFloat(rw.Weight, 'g', -1, 64)})
	}
	return m, nil
}

// Limit is the candidate limit: 0 for a full scan, Auto for Nomad's
// max(2, ⌈log₂ n⌉), or a count.
type Limit int

// Auto asks for CandidateLimit(nodes).
const Auto Limit = -1

// UnmarshalStrict reads "auto", "none", or a count ≥ 0.
func (l *Limit) UnmarshalStrict(d *strictyaml.Decoder, v *yaml.Node, path string) {
	got, err := ParseLimit(v.Value)
	if err != nil || v.Kind != yaml.ScalarNode {
		d.Errorf(v, path, "want auto, none or a count ≥ 0, got %s", strictyaml.Describe(v))
		return
	}
	*l = got
}

// MarshalYAML writes auto, or the count.
func (l Limit) MarshalYAML() (any, error) {
	if l == Auto {
		return "auto", nil
	}
	return int(l), nil
}

// ParseLimit reads a candidate limit: auto, none, or a count ≥ 0.
func ParseLimit(s string) (Limit, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "auto":
		return Auto, nil
	case "none", "":
		return 0, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 0 {
		return 0, fmt.Errorf("candidate limit %q: want auto, none or a count ≥ 0", s)
	}
	return Limit(n), nil
}

// args lists which arguments a strategy or scorer was given, for the
// "does not take" check.
func (s *Spec) args() map[string]bool {
	return map[string]bool{"resources": len(s.Resources) > 0, "attribute": s.Attribute != "", "calculator": s.Calculator != ""}
}

func (s *Scoring) args() map[string]bool {
	return map[string]bool{"resources": len(s.Resources) > 0, "attribute": s.Attribute != "", "calculator": s.Calculator != ""}
}

// unexpected returns the given arguments not in allowed, sorted.
func unexpected(given map[string]bool, allowed []string) []string {
	var bad []string
	for k, v := range given {
		if v && !contains(allowed, k) {
			bad = append(bad, k)
		}
	}
	sort.Strings(bad)
	return bad
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func finiteWeight(w float64) bool { return w >= 0 && !math.IsNaN(w) && !math.IsInf(w, 0) }
