package run

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/spf13/pflag"

	"github.com/schedsim/schedsim/internal/strictyaml"
	"github.com/schedsim/schedsim/internal/words"

	"go.yaml.in/yaml/v3"
)

// source remembers where a spec's keys came from, so that a problem found
// later (Validate) names the file and line instead of a flag.
type source struct {
	file  string
	lines map[string]int // top-level key → line
}

// flatLines records the lines of a policy block's flat keys given inside
// it (lattice: {profile: …}) as block.key, for the problems named by the
// flat key.
func (s source) flatLines(block string, v *yaml.Node) {
	if v.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		if k := v.Content[i]; flatKey(k.Value) == block {
			s.lines[block+"."+k.Value] = k.Line
		}
	}
}

// where names a setting for an error message: file:line: key when the
// spec file set it, else the flag.
func (c *Spec) where(key string) string {
	if line, ok := c.source.lines[key]; ok {
		return fmt.Sprintf("%s:%d: %s", c.source.file, line, key)
	}
	if flagSet().Lookup(flagName(key)) != nil {
		return "--" + flagName(key)
	}
	return key // a block only a spec file can give (lattice:)
}

// problem is an error about the setting key, naming where it came from.
func (c *Spec) problem(key, format string, args ...any) error {
	return fmt.Errorf("%s: %s", c.where(key), fmt.Sprintf(format, args...))
}

// flagSet is the flags of a spec, to tell which keys have one.
var flagSet = sync.OnceValue(func() *pflag.FlagSet {
	fs := pflag.NewFlagSet("spec", pflag.ContinueOnError)
	var c Spec
	c.BindFlags(fs)
	return fs
})

// flagName is the flag of a YAML key: '-' for '_', less the unit suffix
// some keys carry.
func flagName(key string) string {
	if f, ok := keyFlags[key]; ok {
		return f
	}
	return strings.ReplaceAll(key, "_", "-")
}

// keyFlags are the keys whose flag is not the key with '-' for '_'.
var keyFlags = map[string]string{
	"mtbf_s": "mtbf", "mttr_s": "mttr", "checkpoint_s": "checkpoint", "power_down_s": "power-down", "bsld_tau_s": "bsld-tau",
	"warm_up_s": "warm-up", "cool_down_s": "cool-down", "jitter_submit_s": "jitter-submit", "planning_delay_s": "planning-delay",
	"scheduling_interval_s": "scheduling-interval", "calib_resolution_s": "calib-resolution", "calib_from_s": "calib-from", "calib_until_s": "calib-until",
	"scheduler_timeout_s": "scheduler-timeout",
}

// provenanceKey is run.yaml's record of how the run was made; loading
// skips it.
const provenanceKey = "provenance"

// Load reads a spec file (a --config file or a run's run.yaml) over the
// defaults: strictly (an unknown key is an error with its line and the
// nearest known key), with every problem at once, and with its relative
// paths made relative to the file's directory.
func Load(path string) (Spec, error) {
	c := Default()
	data, err := os.ReadFile(path)
	if err != nil {
		return c, err
	}
	err = c.decode(path, data) // on error, c holds the values that decoded
	ResolvePaths(filepath.Dir(path), &c)
	return c, err
}

// Overlay decodes the YAML mapping node of a spec (an experiment's
// replay: block) over c, strictly, naming file and lines.
func (c *Spec) Overlay(file string, node *yaml.Node) error {
	if node.Kind != yaml.MappingNode {
		return fmt.Errorf("%s:%d: want a mapping of settings (key: value)", file, node.Line)
	}
	return c.decodeNode(file, node)
}

// OverlayFrom is Overlay with the file paths node sets taken relative to
// file's directory, as a --config file's are: a search space's calendar
// or cluster beside it. What node sets is what it sets decoded alone, on
// a spec without paths: the paths it leaves keep their meaning, even when
// a policy block is copied under them, and a path it sets to the value
// the spec had is still read from file's directory.
func (c *Spec) OverlayFrom(file string, node *yaml.Node) error {
	if err := c.Overlay(file, node); err != nil {
		return err
	}
	var alone Spec
	_ = alone.Overlay(file, node) // its errors are c's, returned above
	set := map[string]bool{}
	for _, p := range alone.paths() {
		if *p != "" {
			set[*p] = true
		}
	}
	for _, p := range c.paths() {
		if set[*p] && !filepath.IsAbs(*p) {
			*p = filepath.Join(filepath.Dir(file), *p)
		}
	}
	return nil
}

func (c *Spec) decode(file string, data []byte) error {
	root, err := strictyaml.Parse(file, data)
	if err != nil || root == nil {
		return err // nil for an empty file: the defaults
	}
	if root.Kind != yaml.MappingNode {
		return fmt.Errorf("%s:%d: want a mapping of settings (key: value)", file, root.Line)
	}
	return c.decodeNode(file, root)
}

// fileLine reads the "file:line:" a problem starts with.
var fileLine = regexp.MustCompile(`^(.*?):(\d+):`)

// InLineOrder lists err's problems (one a line) in the order of their
// lines in their file, the problems of flags (no line) after them. nil
// stays nil.
func InLineOrder(err error) error {
	if err == nil {
		return nil
	}
	msgs := strings.Split(err.Error(), "\n")
	type key struct {
		file string
		line int
		ok   bool
	}
	keys := make([]key, len(msgs))
	for i, m := range msgs {
		if f := fileLine.FindStringSubmatch(m); f != nil {
			n, _ := strconv.Atoi(f[2])
			keys[i] = key{f[1], n, true}
		}
	}
	idx := make([]int, len(msgs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		ka, kb := keys[idx[a]], keys[idx[b]]
		if ka.ok != kb.ok {
			return ka.ok
		}
		if ka.file != kb.file {
			return false // files stay in the order they came
		}
		return ka.line < kb.line
	})
	out := make([]string, len(msgs))
	for i, j := range idx {
		out[i] = msgs[j]
	}
	return errors.New(strings.Join(out, "\n"))
}

// decodeNode decodes root's settings (provenance aside) into c, strictly,
// every problem at once in line order, and records the top-level keys'
// lines for the problems Validate finds later.
func (c *Spec) decodeNode(file string, root *yaml.Node) error {
	if c.source.lines == nil {
		c.source = source{file: file, lines: map[string]int{}}
	}
	settings := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: root.Line}
	for i := 0; i+1 < len(root.Content); i += 2 {
		c.source.lines[root.Content[i].Value] = root.Content[i].Line
		c.source.flatLines(root.Content[i].Value, root.Content[i+1])
		if root.Content[i].Value != provenanceKey {
			settings.Content = append(settings.Content, root.Content[i], root.Content[i+1])
		}
	}
	d := strictyaml.NewDecoder(file)
	d.Decode(settings, "", c)
	return d.Err()
}

// NearestName is the name of names closest to k by edit distance, when
// close enough to be a typo; "" otherwise. The CLI suggests flags with it
// as the config loader suggests keys.
func NearestName(k string, names []string) string { return words.Nearest(k, names) }
