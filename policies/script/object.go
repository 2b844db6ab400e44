package script

import (
	"fmt"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// object is a read-only record with a fixed list of fields, the form LXD's
// API structs take in a scriptlet. It answers attribute access
// (member.server_name) and indexing (member["server_name"]) alike, since
// LXD's documentation uses the one and its users' scripts the other;
// iterating it yields the field names, as a dict would.
//
// Fields are either stored (vals) or computed on access from the node's
// live state (kind.get): a script that asks get_cluster_member_state of
// 100 members and reads one field of each must not pay for building every
// field of 100 records.
type object struct {
	kind *kind
	vals []starlark.Value // stored fields, in kind.fields order; nil when computed
	env  *env
	n    int // the node a computed object describes
}

// kind is an object's type: its name (as type() shows it), its fields and,
// for computed objects, how to get field i.
type kind struct {
	name   string
	fields []string
	get    func(e *env, n, i int) starlark.Value
	id     int // position in env.views
}

// staticKinds counts the package's kinds (made at init, ids from 0); an
// env's own kinds (newEnv) take the ids after them.
var staticKinds int

func newKind(name string, fields []string, get func(e *env, n, i int) starlark.Value) *kind {
	staticKinds++
	return &kind{name: name, fields: fields, get: get, id: staticKinds - 1}
}

// newEnvKind is a kind of env's own, with id staticKinds+i.
func newEnvKind(name string, fields []string, i int, get func(e *env, n, i int) starlark.Value) *kind {
	return &kind{name: name, fields: fields, get: get, id: staticKinds + i}
}

// record returns a stored object of kind k; vals are in k.fields order.
func (k *kind) record(vals ...starlark.Value) *object {
	if len(vals) != len(k.fields) {
		panic(fmt.Sprintf("script: %s has %d fields, given %d", k.name, len(k.fields), len(vals)))
	}
	return &object{kind: k, vals: vals}
}

// view returns the computed object of kind k describing node n. A view
// reads the live ledger on every access, so one object per node and kind
// (env.views by kind id, made on first use) serves every call, and a
// script asking 100 members for their state allocates nothing.
func (k *kind) view(e *env, n int) *object {
	if k.id >= len(e.views) {
		e.views = append(e.views, make([][]*object, k.id+1-len(e.views))...)
	}
	vs := e.views[k.id]
	if vs == nil {
		vs = make([]*object, len(e.c.Nodes))
		e.views[k.id] = vs
	}
	if vs[n] == nil {
		vs[n] = &object{kind: k, env: e, n: n}
	}
	return vs[n]
}

// lookup returns the position of field name, or −1. A linear scan beats
// a map on a dozen fields, and the names a script uses are constants of
// its program, so the comparison usually stops at equal pointers.
func (k *kind) lookup(name string) int {
	for i, f := range k.fields {
		if f == name {
			return i
		}
	}
	return -1
}

func (o *object) field(i int) starlark.Value {
	if o.vals != nil {
		return o.vals[i]
	}
	return o.kind.get(o.env, o.n, i)
}

var (
	_ starlark.HasAttrs        = (*object)(nil)
	_ starlark.IterableMapping = (*object)(nil)
	_ starlark.Sequence        = (*object)(nil)
)

func (o *object) String() string {
	var b strings.Builder
	b.WriteByte('{')
	for i, f := range o.kind.fields {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(syntax.Quote(f, false))
		b.WriteString(": ")
		b.WriteString(o.field(i).String())
	}
	b.WriteByte('}')
	return b.String()
}

func (o *object) Type() string { return o.kind.name }

// Freeze freezes the stored fields; computed fields are made afresh on
// every access and cannot be mutated through the object.
func (o *object) Freeze() {
	for _, v := range o.vals {
		v.Freeze()
	}
}

func (o *object) Truth() starlark.Bool { return true }

func (o *object) Hash() (uint32, error) {
	return 0, fmt.Errorf("unhashable type: %s", o.kind.name)
}

func (o *object) Attr(name string) (starlark.Value, error) {
	if i := o.kind.lookup(name); i >= 0 {
		return o.field(i), nil
	}
	return nil, nil // starlark reports the missing attribute
}

func (o *object) AttrNames() []string { return o.kind.fields }

func (o *object) Get(k starlark.Value) (starlark.Value, bool, error) {
	s, ok := k.(starlark.String)
	if !ok {
		return nil, false, fmt.Errorf("%s: key must be a string, not %s", o.kind.name, k.Type())
	}
	if i := o.kind.lookup(string(s)); i >= 0 {
		return o.field(i), true, nil
	}
	return nil, false, nil
}

func (o *object) Len() int { return len(o.kind.fields) }

func (o *object) Iterate() starlark.Iterator { return &fieldIter{o: o} }

func (o *object) Items() []starlark.Tuple {
	out := make([]starlark.Tuple, len(o.kind.fields))
	for i, f := range o.kind.fields {
		out[i] = starlark.Tuple{starlark.String(f), o.field(i)}
	}
	return out
}

type fieldIter struct {
	o *object
	i int
}

func (it *fieldIter) Next(p *starlark.Value) bool {
	if it.i >= len(it.o.kind.fields) {
		return false
	}
	*p = starlark.String(it.o.kind.fields[it.i])
	it.i++
	return true
}

func (it *fieldIter) Done() {}
