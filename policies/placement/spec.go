package placement

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
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
	Resources  Weights   `yaml:"resources"`
	Attribute  string    `yaml:"attribute"`
	Calculator string    `yaml:"calculator"`
	Limit      Limit     `yaml:"limit"`
	Scorers    []Scoring `yaml:"scorers"`
	// Seed seeds random choices; the replay's --seed fills it.
	Seed uint64 `yaml:"-"`
}

// Scoring is one extra scorer of a pipeline with its weight and arguments.
type Scoring struct {
	Name       string  `yaml:"name"`
	Weight     float64 `yaml:"weight"`
	Resources  Weights `yaml:"resources"`
	Attribute  string  `yaml:"attribute"`
	Calculator string  `yaml:"calculator"`
}

// Weights is a resource → weight mapping that keeps the file's order.
type Weights []ResourceWeight

// UnmarshalYAML reads a mapping in order.
func (w *Weights) UnmarshalYAML(v *yaml.Node) error {
	if v.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: want a mapping of resource: weight", v.Line)
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		var f float64
		if err := v.Content[i+1].Decode(&f); err != nil {
			return fmt.Errorf("line %d: %s: weight must be a number", v.Content[i+1].Line, v.Content[i].Value)
		}
		*w = append(*w, ResourceWeight{Name: v.Content[i].Value, Weight: f})
	}
	return nil
}

// Limit is the candidate limit: 0 for a full scan, Auto for Nomad's
// max(2, ⌈log₂ n⌉), or a count.
type Limit int

// Auto asks for CandidateLimit(nodes).
const Auto Limit = -1

// UnmarshalYAML reads "auto", "none", or a count ≥ 0.
func (l *Limit) UnmarshalYAML(v *yaml.Node) error {
	got, err := ParseLimit(v.Value)
	if err != nil {
		return fmt.Errorf("line %d: %w", v.Line, err)
	}
	*l = got
	return nil
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
