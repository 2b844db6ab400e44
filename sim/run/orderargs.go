package run

import (
	"maps"
	"reflect"

	"go.yaml.in/yaml/v3"

	"github.com/schedsim/schedsim/internal/strictyaml"
	"github.com/schedsim/schedsim/policies/registry"
)

// OrderArgs are the argument blocks of the queue orders that take some
// (lattice:, multifactor:, an order registered at run time): each sits
// in the spec under its order's name, typed by the order
// (registry.Order.NewArgs) and decoded strictly. The spec has no field
// for any one order: adding an order with arguments changes nothing here.
//
// Copying a Spec shares the blocks until one side changes one: Edit hands
// out a private copy first, so a sweep's runs never see each other's.
type OrderArgs struct {
	byName map[string]registry.Args
}

// Get returns the arguments given to order name, nil when none were; the
// caller must not change them (Edit).
func (a OrderArgs) Get(name string) registry.Args { return a.byName[name] }

// Of returns the arguments of order o: those given, else its zero value;
// nil when o takes none.
func (a OrderArgs) Of(o registry.Order) registry.Args {
	if got := a.byName[o.Name]; got != nil {
		return got
	}
	if o.NewArgs == nil {
		return nil
	}
	return o.NewArgs()
}

// Edit returns order name's arguments for the caller to change: a copy of
// those given (or the zero value), now the spec's own. nil when the order
// takes none.
func (a *OrderArgs) Edit(name string) registry.Args {
	o, err := registry.LookupOrder(name)
	if err != nil || o.NewArgs == nil {
		return nil
	}
	fresh := o.NewArgs()
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

// Keys are the spec keys of the blocks: the orders that take arguments
// (strictyaml.Keyed).
func (a OrderArgs) Keys() []string {
	var keys []string
	for _, o := range registry.Orders() {
		if o.NewArgs != nil {
			keys = append(keys, o.Name)
		}
	}
	return keys
}

// UnmarshalKey decodes the block of order key over the arguments given
// so far (strictyaml.Keyed).
func (a *OrderArgs) UnmarshalKey(d *strictyaml.Decoder, key string, n *yaml.Node, path string) {
	d.Decode(n, path, a.Edit(key))
}

// set are the blocks that set something, in registry order, for run.yaml
// and for the check that a block belongs to the run's order.
func (a OrderArgs) set() []string {
	var names []string
	for _, name := range a.Keys() {
		if got := a.byName[name]; got != nil && !got.IsZero() {
			names = append(names, name)
		}
	}
	return names
}

// paths are the file paths of every block, in registry order (each block
// made the spec's own: the paths are changed in place).
func (a *OrderArgs) paths() []*string {
	var ps []*string
	for _, name := range a.Keys() {
		if a.byName[name] == nil {
			continue
		}
		if p, ok := a.Edit(name).(interface{ Paths() []*string }); ok {
			ps = append(ps, p.Paths()...)
		}
	}
	return ps
}

// MarshalYAML writes the spec with the blocks that set something, each
// under its order's name, after the spec's own keys (run.yaml).
func (c Spec) MarshalYAML() (any, error) {
	type plain Spec // without this method
	var n yaml.Node
	if err := n.Encode(plain(c)); err != nil {
		return nil, err
	}
	for _, name := range c.Args.set() {
		var v yaml.Node
		if err := v.Encode(c.Args.Get(name)); err != nil {
			return nil, err
		}
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: name}, &v)
	}
	return &n, nil
}

// ArgsOf returns the arguments of queue order name, typed, for a Go
// program to set: run.ArgsOf[lattice.Args](&spec, "lattice").Shares = …
// nil when the order takes none or they are not an A.
func ArgsOf[A any](c *Spec, name string) *A {
	a, _ := any(c.Args.Edit(name)).(*A)
	return a
}
