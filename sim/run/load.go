package run

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/spf13/pflag"

	"go.yaml.in/yaml/v3"
)

// source remembers where a spec's keys came from, so that a problem found
// later (Validate) names the file and line instead of a flag.
type source struct {
	file  string
	lines map[string]int // top-level key → line
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
	keyErr := c.checkKeys(file, node)
	return InLineOrder(errors.Join(keyErr, c.decodeNode(file, node)))
}

func (c *Spec) decode(file string, data []byte) error {
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil // an empty file: the defaults
		}
		return fmt.Errorf("%s: %s", file, plainYAMLError(err))
	}
	if len(doc.Content) == 0 {
		return nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return fmt.Errorf("%s:%d: want a mapping of settings (key: value)", file, root.Line)
	}
	// Unknown keys do not stop the decoding: every problem of the file
	// is reported at once, in line order.
	keyErr := c.checkKeys(file, root)
	return InLineOrder(errors.Join(keyErr, c.decodeNode(file, root)))
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

// checkKeys reports every unknown key, nested blocks included, with its
// line and the nearest known key, and records the top-level keys' lines.
func (c *Spec) checkKeys(file string, root *yaml.Node) error {
	if c.source.lines == nil {
		c.source = source{file: file, lines: map[string]int{}}
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		c.source.lines[root.Content[i].Value] = root.Content[i].Line
	}
	var errs []error
	checkNode(file, "", root, reflect.TypeOf(Spec{}), &errs)
	return errors.Join(errs...)
}

var unmarshalerType = reflect.TypeOf((*yaml.Unmarshaler)(nil)).Elem()

// checkNode checks the keys of n against the YAML fields of t, recursing
// into nested structs, lists and maps. Types that decode themselves
// (yaml.Unmarshaler) check their own keys.
func checkNode(file, path string, n *yaml.Node, t reflect.Type, errs *[]error) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(unmarshalerType) || n == nil {
		return
	}
	switch t.Kind() {
	case reflect.Slice:
		if n.Kind == yaml.SequenceNode {
			for i, item := range n.Content {
				checkNode(file, fmt.Sprintf("%s[%d]", path, i), item, t.Elem(), errs)
			}
		}
	case reflect.Map:
		if n.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(n.Content); i += 2 {
				checkNode(file, path+"."+n.Content[i].Value, n.Content[i+1], t.Elem(), errs)
			}
		}
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			return // the decoder reports the type
		}
		fields := yamlFields(t)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if path == "" && k.Value == provenanceKey {
				continue
			}
			key := strings.TrimPrefix(path+"."+k.Value, ".")
			ft, ok := fields[k.Value]
			if !ok {
				msg := fmt.Sprintf("%s:%d: unknown key %q", file, k.Line, key)
				if near := nearest(k.Value, fields); near != "" {
					msg += fmt.Sprintf(" (did you mean %q?)", strings.TrimPrefix(path+"."+near, "."))
				}
				*errs = append(*errs, errors.New(msg))
				continue
			}
			checkNode(file, key, n.Content[i+1], ft, errs)
		}
	}
}

// yamlFields maps the YAML keys of struct type t (inline parts included)
// to their types.
func yamlFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		switch {
		case strings.Contains(opts, "inline"):
			for k, v := range yamlFields(f.Type) {
				out[k] = v
			}
		case name == "-":
		case name == "":
			out[strings.ToLower(f.Name)] = f.Type
		default:
			out[name] = f.Type
		}
	}
	return out
}

// decodeNode decodes root's settings (provenance aside) into c.
func (c *Spec) decodeNode(file string, root *yaml.Node) error {
	settings := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value != provenanceKey {
			settings.Content = append(settings.Content, root.Content[i], root.Content[i+1])
		}
	}
	if err := settings.Decode(c); err != nil {
		return fmt.Errorf("%s", c.plainDecodeError(file, err))
	}
	return nil
}

// nearest is the known key closest to k by edit distance, when close
// enough to be a typo.
func nearest[V any](k string, known map[string]V) string {
	names := make([]string, 0, len(known))
	for n := range known {
		names = append(names, n)
	}
	sort.Strings(names)
	best, bestD := "", max(3, len(k)/3+1)
	for _, n := range names {
		if d := editDistance(k, n); d < bestD || (strings.Contains(n, k) && len(k) >= 3 && best == "") {
			best, bestD = n, d
		}
	}
	return best
}

// NearestName is the name of names closest to k by edit distance, when
// close enough to be a typo; "" otherwise. The CLI suggests flags with it
// as the config loader suggests keys.
func NearestName(k string, names []string) string {
	known := make(map[string]bool, len(names))
	for _, n := range names {
		known[n] = true
	}
	return nearest(k, known)
}

// editDistance is Levenshtein's distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

var (
	yamlLine      = regexp.MustCompile(`line (\d+): (.*)`)
	yamlUnmarshal = regexp.MustCompile("cannot unmarshal !!(\\w+) `(.*)` into (.+)$")
	yamlNotFound  = regexp.MustCompile(`field (\S+) not found in type \S+`)
)

// plainDecodeError rewrites the YAML library's decode errors in words:
// file:line: key: want a number, got "abc" — no Go type names.
func (c *Spec) plainDecodeError(file string, err error) string {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return file + ": " + plainYAMLError(err)
	}
	keyAt := map[int]string{}
	for k, l := range c.source.lines {
		keyAt[l] = k
	}
	var msgs []string
	for _, e := range te.Errors {
		m := yamlLine.FindStringSubmatch(e)
		if m == nil {
			msgs = append(msgs, file+": "+e)
			continue
		}
		line, _ := strconv.Atoi(m[1])
		where := fmt.Sprintf("%s:%d", file, line)
		if k, ok := keyAt[line]; ok {
			where += ": " + k
		}
		msgs = append(msgs, where+": "+wordsFor(m[2]))
	}
	return strings.Join(msgs, "\n")
}

// wordsFor turns one YAML type error into words.
func wordsFor(e string) string {
	if m := yamlUnmarshal.FindStringSubmatch(e); m != nil {
		return fmt.Sprintf("want %s, got %q", goTypeWords(m[3]), m[2])
	}
	if m := yamlNotFound.FindStringSubmatch(e); m != nil {
		return fmt.Sprintf("unknown key %q", m[1])
	}
	return e
}

func goTypeWords(t string) string {
	switch {
	case strings.HasPrefix(t, "float"):
		return "a number"
	case strings.HasPrefix(t, "uint"):
		return "a whole number ≥ 0"
	case strings.HasPrefix(t, "int"):
		return "a whole number"
	case t == "bool":
		return "true or false"
	case t == "string":
		return "a string"
	case strings.HasPrefix(t, "[]"):
		return "a list"
	case strings.HasPrefix(t, "map["):
		return "a mapping"
	}
	return "a mapping"
}

// plainYAMLError is a syntax error without the library's prefix.
func plainYAMLError(err error) string {
	return strings.TrimPrefix(err.Error(), "yaml: ")
}
