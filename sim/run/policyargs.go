package run

import (
	"maps"
	"reflect"
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/schedsim/schedsim/internal/strictyaml"
	"github.com/schedsim/schedsim/policies/registry"
)

// PolicyArgs are the argument blocks of the policies that take some: the
// queue orders' (lattice:, multifactor:, an order registered at run time)
// and the backfills' (conservative:). Each sits in the spec under its
// policy's name, typed by the policy (registry.Block's NewArgs) and
// decoded strictly; a block's flat keys (lattice's profile, conservative's
// reservations, planning_delay_s and compat) may also sit at the spec's
// top level, where run.yaml writes them. The spec has no field for any
// one policy: adding a policy with arguments changes nothing here.
//
// Copying a Spec shares the blocks until one side changes one: Edit hands
// out a private copy first, so a sweep's runs never see each other's.
type PolicyArgs struct {
	byName map[string]registry.Args
}

// Get returns the arguments given to policy name, nil when none were; the
// caller must not change them (Edit).
func (a PolicyArgs) Get(name string) registry.Args { return a.byName[name] }

// Of returns the arguments of order o: those given, else its zero value;
// nil when o takes none.
func (a PolicyArgs) Of(o registry.Order) registry.Args {
	if got := a.byName[o.Name]; got != nil {
		return got
	}
	if o.NewArgs == nil {
		return nil
	}
	return o.NewArgs()
}

// given says whether the block of policy name sets something.
func (a PolicyArgs) given(name string) bool {
	got := a.byName[name]
	return got != nil && !got.IsZero()
}

// Edit returns policy name's arguments for the caller to change: a copy
// of those given (or the zero value), now the spec's own. nil when the
// policy takes none.
func (a *PolicyArgs) Edit(name string) registry.Args {
	b, ok := registry.LookupBlock(name)
	if !ok {
		return nil
	}
	fresh := b.NewArgs()
	if old := a.byName[name]; old != nil {
		reflect.ValueOf(fresh).Elem().Set(reflect.ValueOf(old).Elem())
	}
	m := maps.Clone(a.byName)
	if m == nil {
		m = map[string]registry.Args{}
	}
	m[name] = fresh
	a.byName = m
	return fresh
}

// Keys are the spec keys of the blocks: the policies that take arguments,
// and the blocks' flat keys (strictyaml.Keyed).
func (a PolicyArgs) Keys() []string {
	var keys []string
	for _, b := range registry.Blocks() {
		keys = append(keys, b.Name)
		keys = append(keys, b.Flat...)
	}
	return keys
}

// UnmarshalKey decodes the block of policy key, or the flat key of a
// block, over the arguments given so far (strictyaml.Keyed).
func (a *PolicyArgs) UnmarshalKey(d *strictyaml.Decoder, key string, n *yaml.Node, path string) {
	for _, b := range registry.Blocks() {
		if slices.Contains(b.Flat, key) {
			// key: value at the top level is the block {key: value}, its
			// problems named by the top-level key as before the blocks.
			k := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key, Line: n.Line, Column: n.Column}
			one := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: n.Line, Column: n.Column, Content: []*yaml.Node{k, n}}
			d.Decode(one, "", a.Edit(b.Name))
			return
		}
	}
	d.Decode(n, path, a.Edit(key))
}

// flatKey is the block of flat key key, "" when key is no block's.
func flatKey(key string) string {
	for _, b := range registry.Blocks() {
		if slices.Contains(b.Flat, key) {
			return b.Name
		}
	}
	return ""
}

// paths are the file paths of every block, in registry order (each block
// made the spec's own: the paths are changed in place).
func (a *PolicyArgs) paths() []*string {
	var ps []*string
	for _, b := range registry.Blocks() {
		if a.byName[b.Name] == nil {
			continue
		}
		if p, ok := a.Edit(b.Name).(interface{ Paths() []*string }); ok {
			ps = append(ps, p.Paths()...)
		}
	}
	return ps
}

// MarshalYAML writes the spec with the blocks that set something, each
// under its policy's name after the spec's own keys, and their flat keys
// at the top level after the policy's own key, where specs written
// before the blocks had them (run.yaml).
func (c Spec) MarshalYAML() (any, error) {
	type plain Spec // without this method
	var n yaml.Node
	if err := n.Encode(plain(c)); err != nil {
		return nil, err
	}
	for _, b := range registry.Blocks() {
		if !c.Args.given(b.Name) {
			continue
		}
		var v yaml.Node
		if err := v.Encode(c.Args.Get(b.Name)); err != nil {
			return nil, err
		}
		var flat []*yaml.Node
		rest := v.Content[:0:0]
		for i := 0; i+1 < len(v.Content); i += 2 {
			if slices.Contains(b.Flat, v.Content[i].Value) {
				flat = append(flat, v.Content[i], v.Content[i+1])
			} else {
				rest = append(rest, v.Content[i], v.Content[i+1])
			}
		}
		if len(flat) > 0 {
			n.Content = insertAfter(n.Content, b.After, flat)
			v.Content = rest
			left := b.NewArgs()
			if err := v.Decode(left); err != nil {
				return nil, err
			}
			if left.IsZero() {
				continue // the flat keys were all the block set
			}
		}
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: b.Name}, &v)
	}
	return &n, nil
}

// insertAfter inserts the key-value pairs kv into the mapping content m
// after key's pair and the pairs inserted there before (at the end when
// key is absent).
func insertAfter(m []*yaml.Node, key string, kv []*yaml.Node) []*yaml.Node {
	at := len(m)
	for i := 0; i+1 < len(m); i += 2 {
		if m[i].Value == key {
			at = i + 2
			for at+1 < len(m) && flatKey(m[at].Value) != "" {
				at += 2
			}
			break
		}
	}
	return slices.Insert(m, at, kv...)
}

// ArgsOf returns the arguments of policy name (a queue order or a
// backfill), typed, for a Go program to set:
// run.ArgsOf[lattice.Args](&spec, "lattice").Shares = …
// nil when the policy takes none or they are not an A.
func ArgsOf[A any](c *Spec, name string) *A {
	a, _ := any(c.Args.Edit(name)).(*A)
	return a
}
