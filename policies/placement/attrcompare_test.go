package placement

import (
	"testing"

	"github.com/schedsim/schedsim/sim"
)

// TestAttributeComparisonFilter: the pipeline keeps the nodes whose
// attribute "gen" satisfies a task's comparison. Nodes: gen 3, gen 5,
// gen 8, no gen. "gen < 6" keeps n0, n1; "gen > 4" and "gen ≠ 3" (absent
// reads as "") keep n1, n2 and, for ≠, n3; a hard comparison no node meets
// places nowhere. With first fit the first kept node is chosen.
func TestAttributeComparisonFilter(t *testing.T) {
	var nodes []sim.NodeSpec
	for i, gen := range []string{"3", "5", "8", ""} {
		attrs := map[string]string{}
		if gen != "" {
			attrs["gen"] = gen
		}
		nodes = append(nodes, sim.NodeSpec{Name: string(rune('a' + i)), Attributes: attrs,
			Capacity: []sim.Quantity{{Resource: "cpu", Amount: sim.Units(4)}}})
	}
	c, err := sim.NewCluster(nodes)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Build(c, Spec{Strategy: "first-fit"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cons []sim.Constraint
		want int // chosen node, -1 none
	}{
		{[]sim.Constraint{{Kind: sim.AttributeLess, Attribute: "gen", Value: "6"}}, 0},
		{[]sim.Constraint{{Kind: sim.AttributeGreater, Attribute: "gen", Value: "4"}}, 1},
		{[]sim.Constraint{{Kind: sim.AttributeGreater, Attribute: "gen", Value: "4"}, {Kind: sim.AttributeNotEqual, Attribute: "gen", Value: "5"}}, 2},
		{[]sim.Constraint{{Kind: sim.AttributeAbsent, Attribute: "gen"}}, 3},
		{[]sim.Constraint{{Kind: sim.AttributeAtLeast, Attribute: "gen", Value: "9"}}, -1},
	} {
		job := &sim.Job{ID: "j", Tasks: 1, Request: []sim.Quantity{{Resource: "cpu", Amount: sim.Units(1)}},
			Traits: &sim.Traits{Constraints: tc.cons}}
		l := NewLedger(c)
		need, immune, err := c.Compile(job)
		if err != nil {
			t.Fatal(err)
		}
		task := &Task{Job: job, Need: need, Immune: immune}
		if got := p.Place(l, task, nil); got != tc.want {
			t.Errorf("%+v: placed on %d, want %d", tc.cons, got, tc.want)
		}
	}
}
