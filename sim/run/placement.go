package run

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/schedsim/schedsim/internal/strictyaml"
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
	if p.Args == nil && p.Limit == 0 && len(p.Scorers) == 0 {
		return p.Spec.Strategy, nil
	}
	return p.Spec, nil
}

// UnmarshalStrict reads a strategy name or a block.
func (p *placementConfig) UnmarshalStrict(d *strictyaml.Decoder, v *yaml.Node, path string) {
	if v.Kind == yaml.ScalarNode {
		if !strictyaml.IsNull(v) {
			p.Strategy = v.Value
		}
		return
	}
	d.Decode(v, path, &p.Spec)
}
