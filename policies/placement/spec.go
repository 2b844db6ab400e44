package placement

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/schedsim/schedsim/internal/strictyaml"
)

// Spec chooses a strategy by name and gives its arguments. It is what the
// `placement:` block of a replay config decodes into; Build validates it
// and returns the pipeline. The strategy's arguments (Args, typed by the
// strategy's registry entry) sit beside strategy, limit and scorers, a
// scorer's beside its name and weight:
//
//	placement:
//	  strategy: least-allocated
//	  resources: {cpu: 1, mem: 1}   # least/most/balanced-allocation; binpack's rubric
//	  limit: auto                   # or a number: stop after that many feasible nodes
//	  scorers:                      # extra weighted scorers, for any strategy
//	    - {name: spread, weight: 2, attribute: zone}
type Spec struct {
	Strategy string
	// Args are the strategy's arguments (its registry entry's NewArgs);
	// nil for its defaults.
	Args    Args
	Limit   Limit
	Scorers []Scoring
	// Seed seeds random choices; the replay's --seed fills it.
	Seed uint64
}

// Scoring is one extra scorer of a pipeline with its weight and arguments.
type Scoring struct {
	Name   string
	Weight float64
	// Args are the scorer's arguments (its registry entry's NewArgs);
	// nil for its defaults.
	Args Args
}

// specKeys are the keys of a placement: block besides the strategy's
// arguments; scoringKeys those of a scorers item.
var (
	specKeys    = []string{"strategy", "limit", "scorers"}
	scoringKeys = []string{"name", "weight"}
)

// UnmarshalStrict reads a placement: block: the strategy's name first,
// then every key, the strategy's arguments into the type its registry
// entry gives.
func (s *Spec) UnmarshalStrict(d *strictyaml.Decoder, v *yaml.Node, path string) {
	var common struct {
		Strategy string    `yaml:"strategy"`
		Limit    Limit     `yaml:"limit"`
		Scorers  []Scoring `yaml:"scorers"`
	}
	common.Strategy, common.Limit, common.Scorers = s.Strategy, s.Limit, s.Scorers
	name := strictyaml.ScalarOf(v, "strategy")
	if name == "" {
		name = s.Strategy
	}
	var newArgs func() Args
	if st, ok := strategies[strings.ToLower(strings.TrimSpace(name))]; ok {
		newArgs = st.NewArgs
	}
	s.Args = decodeArgs(d, v, path, "strategy "+name, &common, specKeys, s.Args, newArgs)
	s.Strategy, s.Limit, s.Scorers = common.Strategy, common.Limit, common.Scorers
}

// UnmarshalStrict reads a scorers item: its name first, then its weight
// and the scorer's arguments.
func (sc *Scoring) UnmarshalStrict(d *strictyaml.Decoder, v *yaml.Node, path string) {
	var common struct {
		Name   string  `yaml:"name"`
		Weight float64 `yaml:"weight"`
	}
	name := strictyaml.ScalarOf(v, "name")
	var newArgs func() Args
	if def, ok := scorers[name]; ok {
		newArgs = def.NewArgs
	}
	sc.Args = decodeArgs(d, v, path, "scorer "+name, &common, scoringKeys, sc.Args, newArgs)
	sc.Name, sc.Weight = common.Name, common.Weight
}

// decodeArgs decodes the mapping v: the keys of common into common, the
// others into the arguments newArgs makes (over old when it is of that
// type), which it returns (nil when v gives none). A key of no one's
// arguments is unknown, with the nearest key of either; a key that only
// other strategies or scorers take is refused as not taken by this one.
func decodeArgs(d *strictyaml.Decoder, v *yaml.Node, path, who string, common any, commonKeys []string, old Args, newArgs func() Args) Args {
	if v.Kind != yaml.MappingNode && !strictyaml.IsNull(v) {
		d.Errorf(v, path, "want a mapping, got %s", strictyaml.Describe(v))
		return old
	}
	own, rest := strictyaml.Split(v, commonKeys)
	d.Decode(own, path, common)
	if len(rest.Content) == 0 {
		return old
	}
	var args Args
	if newArgs != nil {
		args = newArgs()
		if old != nil && reflect.TypeOf(old) == reflect.TypeOf(args) {
			reflect.ValueOf(args).Elem().Set(reflect.ValueOf(old).Elem())
		}
	}
	known := append(slices.Clone(commonKeys), strictyaml.KeysOf(args)...)
	d.Mapping(rest, path, nil, func(key string, k, val *yaml.Node) {
		switch {
		case slices.Contains(known, key):
			d.Decode(&yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: k.Line, Content: []*yaml.Node{k, val}}, path, args)
		case slices.Contains(allArgKeys(), key) && isEmpty(val):
			// run.yaml wrote every argument of every strategy, at its
			// zero when not taken (resources: [], attribute: ""): read
			// as not given, so those files still load.
		case slices.Contains(allArgKeys(), key):
			d.Errorf(k, strictyaml.Join(path, key), "%s does not take it", who)
		default:
			d.Unknown(k, path, append(known, allArgKeys()...))
		}
	})
	return args
}

// isEmpty says whether v is empty: null, "", [] or {}.
func isEmpty(v *yaml.Node) bool {
	switch v.Kind {
	case yaml.ScalarNode:
		return strictyaml.IsNull(v) || (v.Value == "" && v.ShortTag() == "!!str")
	case yaml.SequenceNode, yaml.MappingNode:
		return len(v.Content) == 0
	}
	return false
}

// allArgKeys are the argument keys of every registered strategy and
// scorer.
func allArgKeys() []string {
	var keys []string
	for _, st := range strategies {
		keys = append(keys, strictyaml.KeysOf(newOrNil(st.NewArgs))...)
	}
	for _, sc := range scorers {
		keys = append(keys, strictyaml.KeysOf(newOrNil(sc.NewArgs))...)
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

func newOrNil(newArgs func() Args) Args {
	if newArgs == nil {
		return nil
	}
	return newArgs()
}

// MarshalYAML writes the block: strategy, its arguments, limit, scorers.
func (s Spec) MarshalYAML() (any, error) {
	n := &yaml.Node{Kind: yaml.MappingNode}
	add := func(key string, v any) error {
		var val yaml.Node
		if err := val.Encode(v); err != nil {
			return err
		}
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: key}, &val)
		return nil
	}
	if err := add("strategy", s.Strategy); err != nil {
		return nil, err
	}
	if err := appendArgs(n, s.Args); err != nil {
		return nil, err
	}
	if s.Limit != 0 {
		if err := add("limit", s.Limit); err != nil {
			return nil, err
		}
	}
	if len(s.Scorers) > 0 {
		if err := add("scorers", s.Scorers); err != nil {
			return nil, err
		}
	}
	return n, nil
}

// MarshalYAML writes the item: name, weight, the scorer's arguments.
func (sc Scoring) MarshalYAML() (any, error) {
	var n yaml.Node
	if err := n.Encode(struct {
		Name   string  `yaml:"name"`
		Weight float64 `yaml:"weight"`
	}{sc.Name, sc.Weight}); err != nil {
		return nil, err
	}
	if err := appendArgs(&n, sc.Args); err != nil {
		return nil, err
	}
	return &n, nil
}

// appendArgs appends the keys of args (those not at their zero) to the
// mapping n.
func appendArgs(n *yaml.Node, args Args) error {
	if args == nil {
		return nil
	}
	var a yaml.Node
	if err := a.Encode(args); err != nil {
		return err
	}
	if a.Kind == yaml.MappingNode {
		n.Content = append(n.Content, a.Content...)
	}
	return nil
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

func finiteWeight(w float64) bool { return w >= 0 && !math.IsNaN(w) && !math.IsInf(w, 0) }
