package calibrate

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces/availability"
)

// Space is a search space file: run spec keys every candidate shares
// (base:) and axes of run spec keys, each a list of values.
type Space struct {
	file string
	base *yaml.Node
	axes []axis
}

// Keys are the axes' run spec keys, in file order.
func (s *Space) Keys() []string {
	var keys []string
	for _, a := range s.axes {
		keys = append(keys, a.key)
	}
	return keys
}

type axis struct {
	key    string
	values []*yaml.Node
}

// LoadSpace reads a search space file; errors name its line.
func LoadSpace(path string) (*Space, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--space: %w", err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s:1: want a mapping with axes: (and optionally base:)", path)
	}
	s := &Space{file: path}
	root := doc.Content[0]
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		switch k.Value {
		case "base":
			if v.Kind != yaml.MappingNode {
				return nil, fmt.Errorf("%s:%d: base: want a mapping of run spec keys", path, v.Line)
			}
			s.base = v
		case "axes":
			if v.Kind != yaml.MappingNode {
				return nil, fmt.Errorf("%s:%d: axes: want a mapping of run spec keys to lists of values", path, v.Line)
			}
			for j := 0; j+1 < len(v.Content); j += 2 {
				ak, av := v.Content[j], v.Content[j+1]
				if av.Kind != yaml.SequenceNode || len(av.Content) == 0 {
					return nil, fmt.Errorf("%s:%d: axes.%s: want a list of values", path, av.Line, ak.Value)
				}
				s.axes = append(s.axes, axis{key: ak.Value, values: av.Content})
			}
		default:
			return nil, fmt.Errorf("%s:%d: unknown key %q (known: base, axes)", path, k.Line, k.Value)
		}
	}
	if len(s.axes) == 0 {
		return nil, fmt.Errorf("%s: no axes: nothing to search", path)
	}
	return s, nil
}

// availabilityRule reads a value of the availability axis: off, on (the
// default rule: at most 20 % busy for at least an hour), or a rule of its
// own as BUSY_SHARE/MIN_HOURS (0.3/2: at most 30 % busy for at least 2 h).
func availabilityRule(v string) (*availability.Rule, bool, error) {
	switch v {
	case "off", "false":
		return nil, false, nil
	case "on", "true":
		r := availability.DefaultRule
		return &r, true, nil
	}
	share, hours, ok := strings.Cut(v, "/")
	b, err1 := strconv.ParseFloat(share, 64)
	h, err2 := strconv.ParseFloat(hours, 64)
	if !ok || err1 != nil || err2 != nil || !(b > 0 && b < 1) || !(h > 0 && h <= 1e6) {
		return nil, false, fmt.Errorf("want off, on, or BUSY_SHARE/MIN_HOURS with a share in (0, 1) and hours > 0 (0.3/2), got %q", v)
	}
	d, err := sim.CheckSeconds(h * 3600)
	if err != nil {
		return nil, false, fmt.Errorf("%q: %v", v, err)
	}
	return &availability.Rule{BusyShare: b, MinDuration: d}, true, nil
}

// axisValueText is how calibration.csv and the table print an axis value:
// a scalar as written ("" for the empty one), a list in YAML's flow style
// ([submit, end]).
func axisValueText(v *yaml.Node) string {
	if v.Kind != yaml.SequenceNode {
		if v.Value == "" {
			return `""` // none, as a file path axis's first value
		}
		return v.Value
	}
	var items []string
	for _, it := range v.Content {
		items = append(items, axisValueText(it))
	}
	return "[" + strings.Join(items, ", ") + "]"
}
