package run

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/schedsim/schedsim/internal/strictyaml"
	"github.com/schedsim/schedsim/policies/script"
)

// scriptConfig is the replay's placement script: --script PATH sets the
// path; in a --config file `script:` is a path or a block with on_error,
// step_budget, memory_budget_mib, time_budget_ms, log_max_mib and weight
// (script.Config).
type scriptConfig struct{ script.Config }

// String implements pflag.Value.
func (s *scriptConfig) String() string { return s.Path }

// Set implements pflag.Value.
func (s *scriptConfig) Set(v string) error { s.Path = strings.TrimSpace(v); return nil }

// Type implements pflag.Value.
func (s *scriptConfig) Type() string { return "string" }

// UnmarshalStrict reads a path or a block.
func (s *scriptConfig) UnmarshalStrict(d *strictyaml.Decoder, v *yaml.Node, path string) {
	if v.Kind == yaml.ScalarNode {
		if !strictyaml.IsNull(v) {
			s.Path = v.Value
		}
		return
	}
	d.Decode(v, path, &s.Config)
}

// MarshalYAML writes the block (run.yaml).
func (s scriptConfig) MarshalYAML() (any, error) {
	if s.Path == "" {
		return "", nil
	}
	return s.Config, nil
}
