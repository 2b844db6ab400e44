package strictyaml

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

type inner struct {
	HalfLife float64            `yaml:"half_life_s"`
	Shares   map[string]float64 `yaml:"shares"`
}

type part struct {
	Queue string `yaml:"queue"`
}

type doc struct {
	part    `yaml:",inline"`
	Seed    uint64    `yaml:"seed"`
	Check   bool      `yaml:"check"`
	Names   []string  `yaml:"names"`
	Inner   inner     `yaml:"lattice"`
	Ptr     *inner    `yaml:"ptr"`
	Skipped string    `yaml:"-"`
	Any     []any     `yaml:"values"`
	Raw     yaml.Node `yaml:"raw"`
	Custom  upper     `yaml:"custom"`
}

// upper is a type with its own syntax: a string, stored upper-cased.
type upper string

func (u *upper) UnmarshalStrict(d *Decoder, n *yaml.Node, path string) {
	if n.Kind != yaml.ScalarNode {
		d.Errorf(n, path, "want a word")
		return
	}
	*u = upper(strings.ToUpper(n.Value))
}

func TestDecodeValues(t *testing.T) {
	in := `queue: fcfs
seed: 7
check: true
names: [a, b]
lattice: {half_life_s: 2.5, shares: {t0: 0.5}}
ptr: {half_life_s: 1}
values: [1, x]
raw: {anything: [goes]}
custom: easy
`
	var v doc
	if err := Unmarshal("f.yaml", []byte(in), &v); err != nil {
		t.Fatal(err)
	}
	if v.Queue != "fcfs" || v.Seed != 7 || !v.Check || len(v.Names) != 2 || v.Inner.HalfLife != 2.5 ||
		v.Inner.Shares["t0"] != 0.5 || v.Ptr == nil || v.Ptr.HalfLife != 1 || len(v.Any) != 2 || v.Raw.Kind != yaml.MappingNode || v.Custom != "EASY" {
		t.Errorf("decoded %+v", v)
	}
}

// Every problem is reported at once, in line order, with file, line and
// key path, whatever order the decoder met them in.
func TestDecodeProblems(t *testing.T) {
	in := `seed: -1
lattice:
  half_lif_s: 3
  shares: {t0: lots}
queue: [a]
check: yes please
seed: 2
custom: {a: 1}
ptr: 3
"<<": {}
`
	var v doc
	err := Unmarshal("f.yaml", []byte(in), &v)
	want := strings.Join([]string{
		`f.yaml:1: seed: want a whole number ≥ 0, got "-1"`,
		`f.yaml:3: unknown key "lattice.half_lif_s" (did you mean "lattice.half_life_s"?)`,
		`f.yaml:4: lattice.shares.t0: want a number, got "lots"`,
		`f.yaml:5: queue: want a string, got a list`,
		`f.yaml:6: check: want true or false, got "yes please"`,
		`f.yaml:7: seed: given twice (first at line 1)`,
		`f.yaml:8: custom: want a word`,
		`f.yaml:9: ptr: want a mapping, got a number`,
		`f.yaml:10: unknown key "<<"`,
	}, "\n")
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
}

func TestParse(t *testing.T) {
	if n, err := Parse("f.yaml", nil); n != nil || err != nil {
		t.Errorf("empty file: %v %v", n, err)
	}
	if _, err := Parse("f.yaml", []byte("a: 1\n---\nb: 2\n")); err == nil || err.Error() != "f.yaml:2: a second YAML document; the file holds one" {
		t.Errorf("two documents: %v", err)
	}
	if _, err := Parse("f.yaml", []byte("a: [1\n")); err == nil || !strings.HasPrefix(err.Error(), "f.yaml: bad YAML: ") {
		t.Errorf("syntax: %v", err)
	}
}

func TestAliasAndMerge(t *testing.T) {
	var v doc
	err := Unmarshal("f.yaml", []byte("lattice: &l {half_life_s: 4}\nptr: *l\n"), &v)
	if err != nil || v.Ptr.HalfLife != 4 {
		t.Errorf("alias: %v %+v", err, v.Ptr)
	}
	err = Unmarshal("f.yaml", []byte("lattice: &l {half_life_s: 4}\nptr:\n  <<: *l\n"), &v)
	if err == nil || err.Error() != "f.yaml:3: ptr.<<: merge keys (<<) are not supported" {
		t.Errorf("merge: %v", err)
	}
}
