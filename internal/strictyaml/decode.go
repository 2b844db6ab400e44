package strictyaml

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/schedsim/schedsim/internal/words"
)

// Decoder decodes the nodes of one file, collecting its problems.
type Decoder struct {
	File     string
	problems Problems
}

// NewDecoder starts decoding file (named in every problem).
func NewDecoder(file string) *Decoder { return &Decoder{File: file} }

// Unmarshaler is a type with a YAML syntax of its own (a name or a
// block, an ordered mapping): it decodes n, reporting through d under
// path, and may decode parts of itself with d.Decode.
type Unmarshaler interface {
	UnmarshalStrict(d *Decoder, n *yaml.Node, path string)
}

// Keyed is a struct field tagged `yaml:",inline"` that holds the keys it
// names itself beside the struct's own (a policy's argument block, keyed
// by the policy's registered name): Keys lists them, UnmarshalKey decodes
// one.
type Keyed interface {
	Keys() []string
	UnmarshalKey(d *Decoder, key string, n *yaml.Node, path string)
}

var (
	keyedType = reflect.TypeFor[Keyed]()
	nodeType  = reflect.TypeFor[yaml.Node]()
)

// Errorf records a problem at n's line under path.
func (d *Decoder) Errorf(n *yaml.Node, path, format string, args ...any) {
	line := 0
	if n != nil {
		line = n.Line
	}
	d.problems = append(d.problems, Problem{File: d.File, Line: line, Path: path, Msg: fmt.Sprintf(format, args...)})
}

// Problems are the problems found so far, in the order found.
func (d *Decoder) Problems() Problems { return d.problems }

// Err is the problems found so far in line order, nil without any.
func (d *Decoder) Err() error { return d.problems.Err() }

// Unmarshal parses data (one YAML document) and decodes it into v, a
// pointer; an empty document leaves v as it is. Every problem at once.
func Unmarshal(file string, data []byte, v any) error {
	root, err := Parse(file, data)
	if err != nil || root == nil {
		return err
	}
	d := NewDecoder(file)
	d.Decode(root, "", v)
	return d.Err()
}

// Decode decodes n into v (a pointer) by its `yaml` tags; path names n
// in problems ("" for the document).
func (d *Decoder) Decode(n *yaml.Node, path string, v any) {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		panic(fmt.Sprintf("strictyaml: Decode into %T, not a non-nil pointer", v))
	}
	d.value(Resolve(n), path, rv.Elem())
}

func (d *Decoder) value(n *yaml.Node, path string, v reflect.Value) {
	if n == nil {
		return
	}
	if v.CanAddr() {
		if u, ok := v.Addr().Interface().(Unmarshaler); ok && v.Type().Kind() != reflect.Pointer {
			u.UnmarshalStrict(d, n, path)
			return
		}
		if u, ok := v.Addr().Interface().(yaml.Unmarshaler); ok && v.Type().Kind() != reflect.Pointer {
			if err := u.UnmarshalYAML(n); err != nil {
				d.Errorf(n, path, "%v", err)
			}
			return
		}
	}
	if v.Type() == nodeType {
		v.Set(reflect.ValueOf(*n))
		return
	}
	if IsNull(n) {
		switch v.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
			v.SetZero()
		case reflect.Struct:
		default:
			v.SetZero()
		}
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		d.value(n, path, v.Elem())
	case reflect.Struct:
		d.structure(n, path, v)
	case reflect.Slice:
		d.list(n, path, v)
	case reflect.Map:
		d.dict(n, path, v)
	case reflect.Interface:
		var x any
		if err := n.Decode(&x); err != nil {
			d.Errorf(n, path, "want a plain value, got %s", Describe(n))
			return
		}
		if x != nil {
			v.Set(reflect.ValueOf(x))
		}
	default:
		d.scalar(n, path, v)
	}
}

// scalar decodes a string, boolean or number with the YAML library's
// own reading of scalars; a failure is worded here, from the kinds.
func (d *Decoder) scalar(n *yaml.Node, path string, v reflect.Value) {
	if n.Kind != yaml.ScalarNode {
		d.Errorf(n, path, "want %s, got %s", want(v.Type()), Describe(n))
		return
	}
	p := reflect.New(v.Type())
	if err := n.Decode(p.Interface()); err != nil {
		d.Errorf(n, path, "want %s, got %q", want(v.Type()), n.Value)
		return
	}
	v.Set(p.Elem())
}

// want words what a value of type t is.
func want(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "a whole number"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number ≥ 0"
	case reflect.Bool:
		return "true or false"
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "a list"
	}
	return "a mapping"
}

func (d *Decoder) list(n *yaml.Node, path string, v reflect.Value) {
	if n.Kind != yaml.SequenceNode {
		d.Errorf(n, path, "want a list, got %s", Describe(n))
		return
	}
	out := reflect.MakeSlice(v.Type(), len(n.Content), len(n.Content))
	for i, item := range n.Content {
		d.value(Resolve(item), fmt.Sprintf("%s[%d]", path, i), out.Index(i))
	}
	v.Set(out)
}

// dict decodes a mapping into a Go map, adding to the entries it holds.
func (d *Decoder) dict(n *yaml.Node, path string, v reflect.Value) {
	if v.IsNil() {
		v.Set(reflect.MakeMap(v.Type()))
	}
	kt, et := v.Type().Key(), v.Type().Elem()
	d.Mapping(n, path, nil, func(key string, k, val *yaml.Node) {
		kv := reflect.New(kt).Elem()
		d.value(k, Join(path, key), kv)
		ev := reflect.New(et).Elem()
		d.value(val, Join(path, key), ev)
		v.SetMapIndex(kv, ev)
	})
}

// structure decodes a mapping into a struct's `yaml` fields.
func (d *Decoder) structure(n *yaml.Node, path string, v reflect.Value) {
	fields := fieldsOf(v.Type())
	known := make([]string, 0, len(fields))
	for k := range fields {
		known = append(known, k)
	}
	d.Mapping(n, path, known, func(key string, _, val *yaml.Node) {
		f := fieldByIndex(v, fields[key].index)
		if fields[key].keyed {
			f.Addr().Interface().(Keyed).UnmarshalKey(d, key, val, Join(path, key))
			return
		}
		d.value(val, Join(path, key), f)
	})
}

// field is where a key of a struct goes: the field at index, or the
// Keyed field at index that decodes the key itself.
type field struct {
	index []int
	keyed bool
}

// fieldByIndex is the field at index, allocating nil embedded pointers.
func fieldByIndex(v reflect.Value, index []int) reflect.Value {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				v.Set(reflect.New(v.Type().Elem()))
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v
}

// fieldsOf maps the YAML keys of struct type t, inline parts included,
// to their fields: the key of `yaml:"name"`, the lower-cased field name
// without one, none for `yaml:"-"`, a Keyed field's keys.
func fieldsOf(t reflect.Type) map[string]field {
	out := map[string]field{}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() && !f.Anonymous {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		switch {
		case name == "-":
		case slices.Contains(strings.Split(opts, ","), "inline") && reflect.PointerTo(f.Type).Implements(keyedType):
			for _, k := range reflect.New(f.Type).Interface().(Keyed).Keys() {
				out[k] = field{[]int{i}, true}
			}
		case slices.Contains(strings.Split(opts, ","), "inline"):
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			for k, in := range fieldsOf(ft) {
				out[k] = field{append([]int{i}, in.index...), in.keyed}
			}
		case name == "":
			out[strings.ToLower(f.Name)] = field{index: []int{i}}
		default:
			out[name] = field{index: []int{i}}
		}
	}
	return out
}

// Mapping calls each for every key of the mapping n in file order, after
// checking it: a scalar, given once, not a merge key (<<), and one of
// known (unless known is nil) — else a problem, with the nearest known
// key. Null is an empty mapping. It reports whether n is a mapping.
func (d *Decoder) Mapping(n *yaml.Node, path string, known []string, each func(key string, k, v *yaml.Node)) bool {
	n = Resolve(n)
	if n == nil || IsNull(n) {
		return true
	}
	if n.Kind != yaml.MappingNode {
		d.Errorf(n, path, "want a mapping, got %s", Describe(n))
		return false
	}
	seen := make(map[string]int, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := Resolve(n.Content[i]), Resolve(n.Content[i+1])
		switch {
		case k.Kind != yaml.ScalarNode:
			d.Errorf(k, path, "want a key, got %s", Describe(k))
			continue
		case k.ShortTag() == "!!merge":
			d.Errorf(k, Join(path, k.Value), "merge keys (<<) are not supported")
			continue
		case seen[k.Value] > 0:
			d.Errorf(k, Join(path, k.Value), "given twice (first at line %d)", seen[k.Value])
			continue
		case known != nil && !slices.Contains(known, k.Value):
			d.Unknown(k, path, known)
			continue
		}
		seen[k.Value] = k.Line
		if v == nil {
			v = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Line: k.Line}
		}
		each(k.Value, k, v)
	}
	return true
}

// Unknown records the key k under path as unknown, suggesting the
// nearest of known.
func (d *Decoder) Unknown(k *yaml.Node, path string, known []string) {
	d.Errorf(k, "", "%s", UnknownKey(path, k.Value, known))
}

// UnknownKey words an unknown key under path: `unknown key "a.b" (did
// you mean "a.c"?)`, the suggestion the nearest of known, when one is
// near enough. Readers that walk the nodes themselves word it so too.
func UnknownKey(path, key string, known []string) string {
	msg := fmt.Sprintf("unknown key %q", Join(path, key))
	if near := words.Nearest(key, known); near != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", Join(path, near))
	}
	return msg
}

// Join appends key to the key path.
func Join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// Resolve follows aliases and unwraps a document node; nil for an empty
// document.
func Resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && i < 100; i++ {
		switch n.Kind {
		case yaml.AliasNode:
			n = n.Alias
		case yaml.DocumentNode:
			if len(n.Content) == 0 {
				return nil
			}
			n = n.Content[0]
		default:
			return n
		}
	}
	return n
}

// IsNull reports an empty value (`key:`, `key: null`, `~`).
func IsNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// Describe names what a node is, for "want …, got …".
func Describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	}
	switch n.ShortTag() {
	case "!!null":
		return "an empty value"
	case "!!bool":
		return "a boolean"
	case "!!int", "!!float":
		return "a number"
	case "!!str":
		return "a string"
	case "!!timestamp":
		return "a date"
	case "!!binary":
		return "binary data"
	}
	// A custom tag may hold any character once unescaped (`!%0A`):
	// quoted, a message stays on one line.
	return "a value tagged " + fmt.Sprintf("%q", n.ShortTag())
}

// ValueOf is the value of key in the mapping n (its first, should the
// key be given twice), or nil: the node a problem found after decoding
// names the line of.
func ValueOf(n *yaml.Node, key string) *yaml.Node {
	n = Resolve(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// ItemOf is element i of the sequence n, or nil.
func ItemOf(n *yaml.Node, i int) *yaml.Node {
	n = Resolve(n)
	if n == nil || n.Kind != yaml.SequenceNode || i < 0 || i >= len(n.Content) {
		return nil
	}
	return n.Content[i]
}

// ScalarOf is the value of key in the mapping n when it is a scalar, ""
// otherwise: the name a block is typed by (a strategy's), read before
// the block is decoded.
func ScalarOf(n *yaml.Node, key string) string {
	if v := Resolve(ValueOf(n, key)); v != nil && v.Kind == yaml.ScalarNode && !IsNull(v) {
		return v.Value
	}
	return ""
}

// Split parts the mapping n into the pairs whose key is one of keys and
// the others, each in file order (a block whose keys are partly its own,
// partly a typed part's).
func Split(n *yaml.Node, keys []string) (own, rest *yaml.Node) {
	own = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	rest = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	if n = Resolve(n); n == nil || n.Kind != yaml.MappingNode {
		return own, rest
	}
	own.Line, rest.Line = n.Line, n.Line
	for i := 0; i+1 < len(n.Content); i += 2 {
		into := rest
		if slices.Contains(keys, n.Content[i].Value) {
			into = own
		}
		into.Content = append(into.Content, n.Content[i], n.Content[i+1])
	}
	return own, rest
}

// KeysOf are the YAML keys of the struct v points to, sorted; none for
// nil.
func KeysOf(v any) []string {
	t := reflect.TypeOf(v)
	if v == nil || t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct {
		return nil
	}
	var keys []string
	for k := range fieldsOf(t.Elem()) {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
