package strictyaml

import (
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// blocks is a Keyed field: the keys "a" and "b" each hold an int.
type blocks map[string]int

func (blocks) Keys() []string { return []string{"a", "b"} }

func (bs *blocks) UnmarshalKey(d *Decoder, key string, n *yaml.Node, path string) {
	if *bs == nil {
		*bs = blocks{}
	}
	var v int
	d.Decode(n, path, &v)
	(*bs)[key] = v
}

type withBlocks struct {
	Name   string `yaml:"name"`
	Blocks blocks `yaml:",inline"`
}

func TestKeyed(t *testing.T) {
	var v withBlocks
	if err := Unmarshal("f.yaml", []byte("name: x\nb: 2\n"), &v); err != nil || v.Name != "x" || v.Blocks["b"] != 2 {
		t.Errorf("%+v, %v", v, err)
	}
	err := Unmarshal("f.yaml", []byte("a: one\nc: 3\n"), &v)
	want := "f.yaml:1: a: want a whole number, got \"one\"\nf.yaml:2: unknown key \"c\" (did you mean \"a\"?)"
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
}

func TestSplitAndScalarOf(t *testing.T) {
	n, err := Parse("f.yaml", []byte("x: 1\nstrategy: s\ny: [2]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := ScalarOf(n, "strategy"); got != "s" {
		t.Errorf("ScalarOf: %q", got)
	}
	if got := ScalarOf(n, "y"); got != "" {
		t.Errorf("ScalarOf of a list: %q", got)
	}
	own, rest := Split(n, []string{"strategy"})
	keys := func(m *yaml.Node) string {
		var ks []string
		for i := 0; i < len(m.Content); i += 2 {
			ks = append(ks, m.Content[i].Value)
		}
		return strings.Join(ks, ",")
	}
	if keys(own) != "strategy" || keys(rest) != "x,y" {
		t.Errorf("own %s, rest %s", keys(own), keys(rest))
	}
	if got := KeysOf(&inner{}); !slices.Equal(got, []string{"half_life_s", "shares"}) {
		t.Errorf("KeysOf: %v", got)
	}
	if KeysOf(nil) != nil {
		t.Error("KeysOf(nil)")
	}
}
