package run

import (
	"strings"

	"go.yaml.in/yaml/v3"

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

var scriptKeys = map[string]bool{"path": true, "on_error": true, "step_budget": true, "memory_budget_mib": true,
	"time_budget_ms": true, "log_max_mib": true, "weight": true}

// UnmarshalYAML reads a path or a block, rejecting unknown keys.
func (s *scriptConfig) UnmarshalYAML(v *yaml.Node) error {
	if v.Kind == yaml.ScalarNode {
		if v.Tag != "!!null" {
			s.Path = v.Value
		}
		return nil
	}
	if err := knownKeys(v, "script", scriptKeys); err != nil {
		return err
	}
	return v.Decode(&s.Config)
}

// MarshalYAML writes the block (run.yaml).
func (s scriptConfig) MarshalYAML() (any, error) {
	if s.Path == "" {
		return "", nil
	}
	return s.Config, nil
}
