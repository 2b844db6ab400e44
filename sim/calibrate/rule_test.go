package calibrate

import (
	"fmt"
	"math"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/schedsim/schedsim/sim"
)

// ruleCandidate is a candidate with the given axis values whose block
// parts had these objectives (as KS alone, both ratios 1) and compared
// jobs jobs each.
func ruleCandidate(id string, values []string, jobs int, blockObjs ...float64) *Candidate {
	cd := &Candidate{ID: id, Values: values, Result: map[string][]string{}}
	row := func(ks float64) []string {
		return []string{fmt.Sprint(jobs), fmt.Sprint(ks), "1", "1", "0", "0", "0", "0", "0.5"}
	}
	cd.Result["fit"], cd.Result["holdout"] = row(blockObjs[0]), row(blockObjs[0])
	for i, o := range blockObjs {
		cd.Result[fmt.Sprintf("fit_block%d", i+1)] = row(o)
	}
	return cd
}

// The rule by hand: the best mean is b's (0.2, standard error 0.1); a,
// with no knob, is within it (0.25 ≤ 0.3) and chosen; c, the simplest of
// all but outside the margin, is not; d, which left jobs waiting, has a
// null choice objective and ranks last whatever its numbers. Without
// blocks the lowest objective on the whole part wins.
func TestChooseRule(t *testing.T) {
	scalar := func(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Value: v} }
	sp := &Space{axes: []axis{
		{key: "scheduling_interval_s", values: []*yaml.Node{scalar("0"), scalar("60")}},
		{key: "max_jobs_per_user", values: []*yaml.Node{scalar("0"), scalar("4")}},
	}}
	c := &Calibration{Space: sp, Holdout: 0.4, blocks: 3}
	a := ruleCandidate("a", []string{"60", "0"}, 100, 0.25, 0.25, 0.25) // 1 knob, mean 0.25
	b := ruleCandidate("b", []string{"60", "4"}, 100, 0.1, 0.2, 0.3)    // 2 knobs, mean 0.2, se 0.0577
	cc := ruleCandidate("c", []string{"0", "0"}, 100, 0.5, 0.5, 0.5)    // 0 knobs, mean 0.5
	d := ruleCandidate("d", []string{"0", "4"}, 90, 0.01, 0.01, 0.01)   // left 10 jobs waiting
	ranked := c.choose([]*Candidate{cc, d, a, b})
	var order []string
	for _, cd := range ranked {
		order = append(order, cd.ID)
	}
	// The margin is b's standard error, 0.0577: a (0.25) is within it.
	if got := fmt.Sprint(order); got != "[a b c d]" {
		t.Errorf("ranked %s, want [a b c d]", got)
	}
	if !math.IsNaN(d.Choice.Objective) || d.Choice.Left != 10 {
		t.Errorf("d: choice objective %g, left %d; want null and 10", d.Choice.Objective, d.Choice.Left)
	}
	if a.Choice.Knobs != 1 || b.Choice.Knobs != 2 || cc.Choice.Knobs != 0 {
		t.Errorf("knobs a %d b %d c %d", a.Choice.Knobs, b.Choice.Knobs, cc.Choice.Knobs)
	}
	if se := b.Choice.SE; math.Abs(se-0.1/math.Sqrt(3)) > 1e-12 {
		t.Errorf("b's standard error %g, want %g", se, 0.1/math.Sqrt(3))
	}
	// A narrower margin leaves a out: only b itself is within 0.2 + 0.
	flat := ruleCandidate("flat", []string{"60", "4"}, 100, 0.2, 0.2, 0.2)
	a2 := ruleCandidate("a2", []string{"60", "0"}, 100, 0.25, 0.25, 0.25)
	if got := c.choose([]*Candidate{a2, flat}); got[0].ID != "flat" {
		t.Errorf("zero margin: chose %s, want flat", got[0].ID)
	}
	// Without blocks: the lowest whole-part objective, knobs aside.
	c.blocks = 0
	if got := c.choose([]*Candidate{cc, a, b}); got[0].ID != "b" {
		t.Errorf("--blocks 0: chose %s, want b (lowest objective on the fit part)", got[0].ID)
	}
}

// The block windows cut the choosing part's submit span in equal shares,
// the first from the trace's start and the last to the cut.
func TestBlockWindows(t *testing.T) {
	c := &Calibration{Holdout: 0.4, blocks: 3, Record: &Record{firstSubmit: 100 * sim.Second, lastSubmit: 1100 * sim.Second}}
	var got []string
	for i := range 3 {
		from, until := c.blockWindow(i)
		got = append(got, fmt.Sprintf("%g-%g", from, until))
	}
	if fmt.Sprint(got) != "[0-300 300-500 500-700]" {
		t.Errorf("blocks %v, want [0-300 300-500 500-700] (cut at 700)", got)
	}
}
