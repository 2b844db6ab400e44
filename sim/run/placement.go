package run

import (
	"fmt"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/schedsim/schedsim/policies/placement"
)

// placementConfig is the replay's placement: --placement NAME sets the
// strategy; in a --config file `placement:` is a name or a block with the
// strategy's arguments (placement.Spec).
type placementConfig struct{ placement.Spec }

// String implements pflag.Value.
func (p *placementConfig) String() string {
	if p.Strategy == "" {
		return "first-fit"
	}
	return p.Strategy
}

// Set implements pflag.Value.
func (p *placementConfig) Set(s string) error { p.Strategy = strings.TrimSpace(s); return nil }

// Type implements pflag.Value.
func (p *placementConfig) Type() string { return "string" }

// MarshalYAML writes the strategy's name, or the block when it has
// arguments (run.yaml).
func (p placementConfig) MarshalYAML() (any, error) {
	if p.Spec.Strategy == "" {
		p.Spec.Strategy = p.String()
	}
	if p.Resources == nil && p.Attribute == "" && p.Calculator == "" && p.Limit == 0 && len(p.Scorers) == 0 {
		return p.Spec.Strategy, nil
	}
	return p.Spec, nil
}

// placementKeys are the keys a placement block may hold.
var placementKeys = map[string]bool{"strategy": true, "resources": true, "attribute": true, "calculator": true, "limit": true, "scorers": true}

var scorerKeys = map[string]bool{"name": true, "weight": true, "resources": true, "attribute": true, "calculator": true}

// UnmarshalYAML reads a strategy name or a block, rejecting unknown keys
// (a nested Decode does not inherit the file decoder's strictness).
func (p *placementConfig) UnmarshalYAML(v *yaml.Node) error {
	if v.Kind == yaml.ScalarNode {
		if v.Tag != "!!null" {
			p.Strategy = v.Value
		}
		return nil
	}
	if err := knownKeys(v, "placement", placementKeys); err != nil {
		return err
	}
	for _, kv := range pairs(v) {
		if kv[0].Value == "scorers" && kv[1].Kind == yaml.SequenceNode {
			for i, item := range kv[1].Content {
				if err := knownKeys(item, fmt.Sprintf("placement.scorers[%d]", i), scorerKeys); err != nil {
					return err
				}
			}
		}
	}
	return v.Decode(&p.Spec)
}

func pairs(v *yaml.Node) [][2]*yaml.Node {
	var out [][2]*yaml.Node
	for i := 0; i+1 < len(v.Content); i += 2 {
		out = append(out, [2]*yaml.Node{v.Content[i], v.Content[i+1]})
	}
	return out
}

func knownKeys(v *yaml.Node, path string, known map[string]bool) error {
	if v.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: %s: want a mapping", v.Line, path)
	}
	for _, kv := range pairs(v) {
		if !known[kv[0].Value] {
			names := make([]string, 0, len(known))
			for k := range known {
				names = append(names, k)
			}
			sort.Strings(names)
			return fmt.Errorf("line %d: %s.%s: unknown field (known: %s)", kv[0].Line, path, kv[0].Value, strings.Join(names, ", "))
		}
	}
	return nil
}
