package transform

import (
	"slices"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

func node(name string, cpu int64, attrs ...string) sim.NodeSpec {
	n := sim.NodeSpec{Name: name, Capacity: []sim.Quantity{{Resource: "cpu", Amount: sim.Amount(cpu * 1000)}}}
	if len(attrs) > 0 {
		n.Attributes = map[string]string{}
		for _, a := range attrs {
			k, v, _ := strings.Cut(a, "=")
			n.Attributes[k] = v
		}
	}
	return n
}

func names(nodes []sim.NodeSpec) []string {
	var out []string
	for _, n := range nodes {
		out = append(out, n.Name)
	}
	return out
}

// twoGroups: four 64-cpu nodes and two GPU nodes, interleaved at the end.
func twoGroups() []sim.NodeSpec {
	return []sim.NodeSpec{
		node("c1", 64), node("c2", 64), node("c3", 64), node("g1", 32, "gpu=a100"),
		node("c4", 64), node("g2", 32, "gpu=a100"),
	}
}

// × 1.5 on a 2-group cluster: 4 → 6 and 2 → 3, each group's copies after
// its last node.
func TestScaleTwoGroups(t *testing.T) {
	in := twoGroups()
	if g := Groups(in); !slices.EqualFunc(g, [][]int{{0, 1, 2, 4}, {3, 5}}, slices.Equal) {
		t.Fatalf("groups %v", g)
	}
	out, err := Scale(in, 1.5)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"c1", "c2", "c3", "g1", "c4", "c1+1", "c1+2", "g2", "g1+1"}
	if got := names(out); !slices.Equal(got, want) {
		t.Fatalf("nodes %v, want %v", got, want)
	}
	if specKey(out[5]) != specKey(in[0]) || specKey(out[8]) != specKey(in[3]) {
		t.Error("a copy differs from its group's nodes")
	}
	out[8].Attributes["gpu"] = "h100"
	if in[3].Attributes["gpu"] != "a100" {
		t.Error("a copy shares its attributes with the original")
	}
	// × 0.5 halves each group, dropping its last nodes.
	out, err = Scale(in, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	if got := names(out); !slices.Equal(got, []string{"c1", "c2", "g1"}) {
		t.Errorf("× 0.5: nodes %v, want [c1 c2 g1]", got)
	}
}

func TestScaleRefusesGroupsTooSmall(t *testing.T) {
	// One pool node: × 1.2 rounds back to one node.
	if _, err := Scale([]sim.NodeSpec{node("pool", 100)}, 1.2); err == nil || !strings.Contains(err.Error(), "leaves the cluster as it is") {
		t.Errorf("pool × 1.2: %v", err)
	}
	// Ten nodes that differ in a serial number: × 1.5 would double them.
	var serial []sim.NodeSpec
	for i := range 10 {
		serial = append(serial, node("n"+string(rune('a'+i)), 8, "serial="+string(rune('a'+i))))
	}
	if _, err := Scale(serial, 1.5); err == nil || !strings.Contains(err.Error(), "too small") {
		t.Errorf("10 groups of one × 1.5: %v", err)
	}
	if _, err := Scale(twoGroups(), 0); err == nil {
		t.Error("factor 0 accepted")
	}
}

func TestScaleKeepsParents(t *testing.T) {
	in := []sim.NodeSpec{node("rack", 0), node("a", 4), node("b", 4)}
	in[1].Parent, in[2].Parent = "rack", "rack"
	out, err := Scale(in, 2)
	if err != nil {
		t.Fatal(err)
	}
	if got := names(out); !slices.Equal(got, []string{"rack", "a", "b", "a+1", "a+2"}) {
		t.Errorf("nodes %v", got)
	}
	if out[4].Parent != "rack" {
		t.Errorf("copy's parent %q, want rack", out[4].Parent)
	}
}

func TestAdd(t *testing.T) {
	a, err := ParseAddition("2:g2")
	if err != nil {
		t.Fatal(err)
	}
	out, err := Add(twoGroups(), a)
	if err != nil {
		t.Fatal(err)
	}
	if got := names(out); !slices.Equal(got, []string{"c1", "c2", "c3", "g1", "c4", "g2", "g2+1", "g2+2"}) {
		t.Errorf("nodes %v", got)
	}
	// The copies' names skip taken ones.
	in := append(twoGroups(), node("c1+1", 64))
	out, err = Add(in, Addition{Count: 1, Like: "c1"})
	if err != nil {
		t.Fatal(err)
	}
	if got := names(out); !slices.Contains(got, "c1+2") || len(got) != 8 {
		t.Errorf("nodes %v, want c1+2 added", got)
	}
	for _, bad := range []string{"c1", "0:c1", "x:c1", "3:"} {
		if _, err := ParseAddition(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if _, err := Add(twoGroups(), Addition{Count: 1, Like: "zz"}); err == nil {
		t.Error("an unknown node accepted")
	}
}
