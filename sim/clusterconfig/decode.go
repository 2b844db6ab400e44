package clusterconfig

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"go.yaml.in/yaml/v3"

	"github.com/schedsim/schedsim/internal/strictyaml"
	"github.com/schedsim/schedsim/internal/words"
	"github.com/schedsim/schedsim/sim"
)

// decoder walks the YAML tree. It reads the tree by hand rather than with
// yaml's struct decoding so that every problem gets its line and key path,
// all problems are reported, and mappings keep the order they are written in.
type decoder struct {
	*problems
}

func decode(data []byte, name string) (*Config, *problems) {
	p := &problems{file: name}
	root, err := strictyaml.Parse(name, data)
	var two strictyaml.Problems
	switch {
	case errors.As(err, &two):
		for _, q := range two {
			p.add(q.Line, q.Path, "%s", strings.Replace(q.Msg, "the file holds one", "a cluster file holds one", 1))
		}
		return nil, p
	case err != nil:
		p.add(0, "", "%s", strings.TrimPrefix(err.Error(), name+": "))
		return nil, p
	}
	d := decoder{p}
	c := &Config{File: name}
	d.config(c, root)
	return c, p
}

// resolve, isNull and kindName are the strict decoder's.
var (
	resolve  = strictyaml.Resolve
	isNull   = strictyaml.IsNull
	kindName = strictyaml.Describe
)

// mapping calls f for each key of the mapping n, in file order, after
// checking that keys are strings and not repeated. path names n.
func (d decoder) mapping(n *yaml.Node, path string, f func(key string, k, v *yaml.Node)) bool {
	n = resolve(n)
	if n == nil || isNull(n) {
		return true // an empty mapping
	}
	if n.Kind != yaml.MappingNode {
		d.add(n.Line, path, "must be a mapping, not %s", kindName(n))
		return false
	}
	seen := make(map[string]bool, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], resolve(n.Content[i+1])
		if k.Kind != yaml.ScalarNode {
			d.add(k.Line, path, "keys must be strings, not %s", kindName(k))
			continue
		}
		if k.ShortTag() == "!!merge" {
			d.add(k.Line, join(path, k.Value), "merge keys (<<) are not supported")
			continue
		}
		if seen[k.Value] {
			d.add(k.Line, join(path, k.Value), "given twice")
			continue
		}
		seen[k.Value] = true
		if v == nil {
			v = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Line: k.Line}
		}
		f(k.Value, k, v)
	}
	return true
}

// sequence calls f for each item of the list n.
func (d decoder) sequence(n *yaml.Node, path string, f func(i int, v *yaml.Node)) {
	n = resolve(n)
	if n == nil || isNull(n) {
		return
	}
	if n.Kind != yaml.SequenceNode {
		d.add(n.Line, path, "must be a list, not %s", kindName(n))
		return
	}
	for i, v := range n.Content {
		if v = resolve(v); v != nil {
			f(i, v)
		}
	}
}

// join names key under path. A key that would not print as itself on
// one line of an error (a line break, a tab or another control character:
// YAML allows them in quoted or multi-line keys) is quoted, so that every
// line of an error still starts with the file's name.
func join(path, key string) string {
	if strings.ContainsFunc(key, func(r rune) bool { return !unicode.IsPrint(r) }) {
		key = strconv.Quote(key)
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

// unknown reports the key k at path p as unknown, with the nearest of
// the keys known there.
func (d decoder) unknown(k *yaml.Node, p string, known []string) {
	msg := fmt.Sprintf("unknown key %q", p)
	if near := words.Nearest(k.Value, known); near != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", strings.TrimSuffix(p, join("", k.Value))+near)
	}
	d.add(k.Line, "", "%s", msg)
}

// The keys of each mapping of a cluster file, for "did you mean".
var (
	configKeys = []string{"name", "power", "defaults", "limits", "node_groups", "nodes"}
	nodeKeys   = []string{"resources", "attributes", "power", "parent", "taints"}
	groupKeys  = append([]string{"prefix", "count", "start"}, nodeKeys...)
	singleKeys = append([]string{"name"}, nodeKeys...)
	taintKeys  = []string{"key", "value", "effect"}
	powerKeys  = []string{"idle_w", "max_w", "resource", "off_w", "switch_off_s", "switch_off_j", "switch_on_s", "switch_on_j", "switch_off_w", "switch_on_w"}
	limitKeys  = []string{"max_jobs_per_user", "max_procs_per_user", "max_jobs_per_queue", "max_procs_per_queue"}
)

// str reads a string value.
func (d decoder) str(v *yaml.Node, path string) (string, bool) {
	if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!str" {
		if v.Kind == yaml.ScalarNode && !isNull(v) {
			d.add(v.Line, path, "must be a string, not %s (quote it)", kindName(v))
		} else {
			d.add(v.Line, path, "must be a string, not %s", kindName(v))
		}
		return "", false
	}
	return v.Value, true
}

// decimalText matches a plain decimal number.
var decimalText = regexp.MustCompile(`^[-+]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]+)?$`)

// amount reads a resource amount in units: an integer (exact), or a
// decimal number, also quoted ("0.5"), rounded to the thousandth.
func (d decoder) amount(v *yaml.Node, path string) (sim.Amount, bool) {
	if v.Kind == yaml.ScalarNode {
		switch v.ShortTag() {
		case "!!int":
			var i int64
			if err := v.Decode(&i); err != nil || i > MaxAmount || i < -MaxAmount {
				d.add(v.Line, path, "must be at most %d", MaxAmount)
				return 0, false
			}
			return sim.Units(i), true
		case "!!float", "!!str":
			switch strings.ToLower(v.Value) {
			case "-inf", "-.inf", "-infinity":
				return sim.Ward, true // a ward
			}
			if decimalText.MatchString(v.Value) {
				a, err := sim.ParseAmount(v.Value)
				if err == nil && a <= sim.Units(MaxAmount) && a >= -sim.Units(MaxAmount) {
					return a, true
				}
				d.add(v.Line, path, "must be at most %d", MaxAmount)
				return 0, false
			}
		}
	}
	d.add(v.Line, path, "must be a number, not %s", kindName(v))
	return 0, false
}

// integer reads an integer.
func (d decoder) integer(v *yaml.Node, path string) (int, bool) {
	if v.Kind == yaml.ScalarNode && v.ShortTag() == "!!int" {
		var i int64
		if err := v.Decode(&i); err == nil && i >= math.MinInt32 && i <= math.MaxInt32 {
			return int(i), true
		}
		d.add(v.Line, path, "must be an integer between %d and %d", math.MinInt32, math.MaxInt32)
		return 0, false
	}
	d.add(v.Line, path, "must be an integer, not %s", kindName(v))
	return 0, false
}

// seconds reads a finite number of seconds, also quoted, within what the
// simulator's clock can hold (sim.CheckSeconds): a switch of 1e13 s
// would otherwise wrap around to an instant one.
func (d decoder) seconds(v *yaml.Node, path string) (float64, bool) {
	f, ok := d.watts(v, path)
	if !ok {
		return 0, false
	}
	if _, err := sim.CheckSeconds(f); err != nil {
		d.add(v.Line, path, "%v", err)
		return 0, false
	}
	return f, true
}

// watts reads a finite number, also quoted.
func (d decoder) watts(v *yaml.Node, path string) (float64, bool) {
	if v.Kind == yaml.ScalarNode {
		var f float64
		var err error
		switch v.ShortTag() {
		case "!!int", "!!float":
			err = v.Decode(&f)
		case "!!str":
			if !decimalText.MatchString(v.Value) {
				goto bad
			}
			f, err = strconv.ParseFloat(v.Value, 64)
		default:
			goto bad
		}
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			d.add(v.Line, path, "must be a finite number")
			return 0, false
		}
		return f, true
	}
bad:
	d.add(v.Line, path, "must be a number, not %s", kindName(v))
	return 0, false
}

func (d decoder) config(c *Config, doc *yaml.Node) {
	root := resolve(doc)
	if root == nil {
		d.add(0, "", "empty file: want a mapping with node_groups and/or nodes")
		c.setBad("")
		return
	}
	c.line = root.Line
	if root.Kind != yaml.MappingNode {
		c.setBad("")
		d.add(root.Line, "", "a cluster file must be a mapping with node_groups and/or nodes, not %s", kindName(root))
		return
	}
	d.mapping(root, "", func(key string, k, v *yaml.Node) {
		c.set(key, v.Line)
		switch key {
		case "name":
			if s, ok := d.str(v, key); ok {
				c.Name = s
			} else {
				c.setBad(key)
			}
		case "power":
			c.Power = d.power(v, key)
		case "defaults":
			var good bool
			if c.Defaults, good = d.resources(v, key, &c.where); !good {
				c.setBad(key)
			}
		case "limits":
			var good bool
			if c.Limits, good = d.limits(v, key); !good {
				c.setBad(key)
			}
		case "node_groups":
			d.sequence(v, key, func(i int, v *yaml.Node) {
				c.NodeGroups = append(c.NodeGroups, d.group(v, fmt.Sprintf("node_groups[%d]", i)))
			})
		case "nodes":
			d.sequence(v, key, func(i int, v *yaml.Node) {
				c.Nodes = append(c.Nodes, d.node(v, fmt.Sprintf("nodes[%d]", i)))
			})
		default:
			d.unknown(k, join("", key), configKeys)
		}
	})
}

func (d decoder) group(v *yaml.Node, path string) NodeGroup {
	g := NodeGroup{where: where{line: v.Line}}
	shared := nodeFields{&g.Resources, &g.Attributes, &g.Power, &g.Parent, &g.Taints}
	d.item(v, path, &g.where, groupKeys, func(key string, v *yaml.Node, p string) (known, good bool) {
		switch key {
		case "prefix":
			g.Prefix, good = d.str(v, p)
		case "count":
			g.Count, good = d.integer(v, p)
		case "start":
			g.Start, good = d.integer(v, p)
		default:
			return d.nodeField(key, v, p, shared, &g.where)
		}
		return true, good
	})
	return g
}

func (d decoder) node(v *yaml.Node, path string) Node {
	nd := Node{where: where{line: v.Line}}
	shared := nodeFields{&nd.Resources, &nd.Attributes, &nd.Power, &nd.Parent, &nd.Taints}
	d.item(v, path, &nd.where, singleKeys, func(key string, v *yaml.Node, p string) (known, good bool) {
		if key == "name" {
			nd.Name, good = d.str(v, p)
			return true, good
		}
		return d.nodeField(key, v, p, shared, &nd.where)
	})
	return nd
}

// nodeFields are the fields a node group and a named node share.
type nodeFields struct {
	resources  *[]sim.Quantity
	attributes *[]Attribute
	power      **Power
	parent     *string
	taints     *[]sim.Taint
}

// nodeField decodes one of the keys a node group and a named node share
// into f; known is false for any other key.
func (d decoder) nodeField(key string, v *yaml.Node, p string, f nodeFields, w *where) (known, good bool) {
	good = true
	switch key {
	case "resources":
		*f.resources, good = d.resources(v, p, w)
	case "attributes":
		*f.attributes, good = d.attributes(v, p)
	case "power":
		*f.power = d.power(v, p)
	case "parent":
		*f.parent, good = d.str(v, p)
	case "taints":
		*f.taints, good = d.taints(v, p)
	default:
		return false, false
	}
	return true, good
}

// item decodes the mapping of a node group or a node: field decodes each
// key (known false for a key it does not know, reported with its line);
// w keeps each field's line and the fields that could not be decoded.
func (d decoder) item(v *yaml.Node, path string, w *where, known []string, field func(key string, v *yaml.Node, p string) (known, good bool)) {
	ok := d.mapping(v, path, func(key string, k, v *yaml.Node) {
		p := join(path, key)
		w.set(key, v.Line)
		ok, good := field(key, v, p)
		switch {
		case !ok:
			d.unknown(k, p, known)
			delete(w.lines, key)
		case !good:
			w.setBad(key)
		}
	})
	if !ok {
		w.setBad("")
	}
}

// resources reads a mapping of resource name → amount, in file order. The
// line of each amount is kept in w as "resources.<name>".
func (d decoder) resources(v *yaml.Node, path string, w *where) ([]sim.Quantity, bool) {
	var qs []sim.Quantity
	good := true
	ok := d.mapping(v, path, func(key string, k, v *yaml.Node) {
		p := join(path, key)
		if key == "" {
			d.add(k.Line, path, "a resource name must not be empty")
			good = false
			return
		}
		a, ok := d.amount(v, p)
		if !ok {
			good = false
			return
		}
		w.set("resources."+key, v.Line)
		qs = append(qs, sim.Quantity{Resource: key, Amount: a})
	})
	return qs, ok && good
}

// taints reads a list of {key, value, effect} with effect NoSchedule
// (default) or PreferNoSchedule.
func (d decoder) taints(v *yaml.Node, path string) ([]sim.Taint, bool) {
	var ts []sim.Taint
	good := true
	d.sequence(v, path, func(i int, v *yaml.Node) {
		p := fmt.Sprintf("%s[%d]", path, i)
		t := sim.Taint{Effect: "NoSchedule"}
		d.mapping(v, p, func(key string, k, v *yaml.Node) {
			var s string
			var ok bool
			if s, ok = d.str(v, join(p, key)); !ok {
				good = false
				return
			}
			switch key {
			case "key":
				t.Key = s
			case "value":
				t.Value = s
			case "effect":
				if s != "NoSchedule" && s != "PreferNoSchedule" {
					d.add(v.Line, join(p, key), "must be NoSchedule or PreferNoSchedule, not %q", s)
					good = false
				}
				t.Effect = s
			default:
				d.unknown(k, join(p, key), taintKeys)
				good = false
			}
		})
		if t.Key == "" {
			d.add(v.Line, p, "a taint needs a key")
			good = false
		}
		ts = append(ts, t)
	})
	return ts, good
}

// attributes reads a mapping of string → string, in file order.
func (d decoder) attributes(v *yaml.Node, path string) ([]Attribute, bool) {
	var as []Attribute
	good := true
	ok := d.mapping(v, path, func(key string, k, v *yaml.Node) {
		if key == "" {
			d.add(k.Line, path, "an attribute name must not be empty")
			good = false
			return
		}
		s, ok := d.str(v, join(path, key))
		if !ok {
			good = false
			return
		}
		as = append(as, Attribute{Key: key, Value: s})
	})
	return as, ok && good
}

// power reads a power model; nil when the value is empty or unreadable.
func (d decoder) power(v *yaml.Node, path string) *Power {
	if isNull(v) {
		return nil
	}
	pw := &Power{where: where{line: v.Line}}
	ok := d.mapping(v, path, func(key string, k, v *yaml.Node) {
		p := join(path, key)
		pw.set(key, v.Line)
		good := true
		switch key {
		case "idle_w":
			pw.IdleW, good = d.watts(v, p)
		case "max_w":
			pw.MaxW, good = d.watts(v, p)
		case "resource":
			pw.Resource, good = d.str(v, p)
		case "off_w":
			pw.OffW, good = d.watts(v, p)
		case "switch_off_s":
			pw.SwitchOffS, good = d.seconds(v, p)
		case "switch_off_j":
			pw.SwitchOffJ, good = d.watts(v, p)
		case "switch_on_s":
			pw.SwitchOnS, good = d.seconds(v, p)
		case "switch_on_j":
			pw.SwitchOnJ, good = d.watts(v, p)
		case "switch_off_w":
			pw.SwitchOffW, good = d.watts(v, p)
		case "switch_on_w":
			pw.SwitchOnW, good = d.watts(v, p)
		default:
			d.unknown(k, p, powerKeys)
			delete(pw.lines, key)
		}
		if !good {
			pw.setBad(key)
		}
	})
	if !ok {
		pw.setBad("")
	}
	return pw
}
