package placement

import (
	"math"
	"slices"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

// The balanced host attribute constraint's table from the Fenzo seed
// (../shared/seeds/fenzo-constraints.txt): three scenarios of co-tasks
// spread over the groups red, green and blue, and what happens when a new
// task is offered a blue host. The hard constraint's evaluation is
// success, failure, success; the soft form's fitness in Scenario 3 is
// red 0.0, green ≈ 0.67, blue ≈ 0.33.

// colorCluster has one host per color, in the order red, green, blue, with
// room for any number of tasks.
func colorCluster(t *testing.T) *sim.Cluster {
	t.Helper()
	var nodes []sim.NodeSpec
	for _, color := range []string{"red", "green", "blue"} {
		nodes = append(nodes, sim.NodeSpec{Name: color + "-1",
			Capacity:   []sim.Quantity{{Resource: "cpu", Amount: sim.Units(100)}},
			Attributes: map[string]string{"color": color}})
	}
	c, err := sim.NewCluster(nodes)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

const (
	seedRed, seedGreen, seedBlue = 0, 1, 2 // node indices of colorCluster
)

// balancedTask is a task of a job with a balanced-attribute constraint on
// color whose earlier tasks sit on the hosts given, as many per color as
// the counts say.
func balancedTask(soft bool, reds, greens, blues int) (*Task, *sim.Constraint) {
	job := &sim.Job{ID: "co", Tasks: reds + greens + blues + 1, Traits: &sim.Traits{Constraints: []sim.Constraint{
		{Kind: BalancedAttribute, Attribute: "color", Groups: 3, Soft: soft}}}}
	t := &Task{Job: job}
	for n, k := range []int{reds, greens, blues} {
		for i := 0; i < k; i++ {
			t.Co = append(t.Co, int32(n))
		}
	}
	return t, &job.Traits.Constraints[0]
}

func TestBalancedAttributeHardSeedScenarios(t *testing.T) {
	c := colorCluster(t)
	l := NewLedger(c)
	cases := []struct {
		name                string
		reds, greens, blues int
		// want is the evaluation of a red, green and blue host.
		want [3]bool
	}{
		// Scenario 1: balanced (1,1,1); blue goes to 2 and the spread
		// max − min stays 1: success. Every group is among the least
		// loaded, so all pass.
		{"scenario 1", 1, 1, 1, [3]bool{true, true, true}},
		// Scenario 2: (1,1,2); blue to 3 widens the spread from 1 to 2:
		// failure. Red and green are the least loaded: success.
		{"scenario 2", 1, 1, 2, [3]bool{true, true, false}},
		// Scenario 3: (3,1,2), already unbalanced; blue to 3 leaves the
		// spread at 3 − 1 = 2: success. Red (the most loaded, to 4)
		// fails; green (the least) passes.
		{"scenario 3", 3, 1, 2, [3]bool{false, true, true}},
	}
	for _, tc := range cases {
		task, con := balancedTask(false, tc.reds, tc.greens, tc.blues)
		for n, want := range tc.want {
			if got := constraintHolds(l, task, con, n); got != want {
				t.Errorf("%s: host %s: got %v, want %v", tc.name, c.Nodes[n].Name, got, want)
			}
		}
		// The filter keeps exactly the passing hosts, in node order.
		var wantKept []int32
		for n, ok := range tc.want {
			if ok {
				wantKept = append(wantKept, int32(n))
			}
		}
		got := constraintFilter{}.Keep(l, task, []int32{seedRed, seedGreen, seedBlue})
		if !slices.Equal(got, wantKept) {
			t.Errorf("%s: filter keeps %v, want %v", tc.name, got, wantKept)
		}
	}
}

func TestBalancedAttributeSoftSeedScenario3(t *testing.T) {
	c := colorCluster(t)
	l := NewLedger(c)
	task, con := balancedTask(true, 3, 1, 2)
	// avg = ⌈(3 + 1 + 2 + 1) / 3⌉ = ⌈7/3⌉ = 3; fitness = (avg − in group) / avg.
	want := map[int]float64{
		seedRed:   0,       // (3 − 3) / 3
		seedGreen: 2.0 / 3, // (3 − 1) / 3 ≈ 0.67
		seedBlue:  1.0 / 3, // (3 − 2) / 3 ≈ 0.33
	}
	for n := seedRed; n <= seedBlue; n++ {
		if got := constraintFitness(l, task, con, n); math.Abs(got-want[n]) > 1e-12 {
			t.Errorf("host %s: fitness %v, want %v", c.Nodes[n].Name, got, want[n])
		}
	}
	// The seed rounds to two places: ≈ 0.67 and ≈ 0.33.
	if g, b := constraintFitness(l, task, con, seedGreen), constraintFitness(l, task, con, seedBlue); math.Round(g*100) != 67 || math.Round(b*100) != 33 {
		t.Errorf("rounded fitness green %.2f, blue %.2f; the seed says 0.67 and 0.33", g, b)
	}
	// Fenzo's scorer with no fitness calculator is the soft constraint
	// alone, and picks green, the best group.
	f, err := NewFenzoFitness(c, "none", "", "")
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, 3)
	f.Score(l, task, []int32{seedRed, seedGreen, seedBlue}, out)
	for n, v := range out {
		if math.Abs(v-want[n]) > 1e-12 {
			t.Errorf("fenzo-fitness on %s: %v, want %v", c.Nodes[n].Name, v, want[n])
		}
	}
	if best(out) != seedGreen {
		t.Errorf("fenzo-fitness picks %s, want green-1", c.Nodes[best(out)].Name)
	}
	// A group above the average scores 0, not a negative number: red
	// holding 5 of 7 (avg ⌈8/3⌉ = 3).
	task, con = balancedTask(true, 5, 1, 1)
	if got := constraintFitness(l, task, con, seedRed); got != 0 {
		t.Errorf("red above the average: fitness %v, want 0", got)
	}
}

func TestBalancedAttributeSoftWithCalculator(t *testing.T) {
	// Soft constraints are averaged with the fitness calculator: Scenario
	// 3 on empty 100-cpu hosts and a 1-cpu task, calculator cpu: the
	// packing fitness is 1/100 on every host, so the sums are red
	// (0.01 + 0) / 2, green (0.01 + 2/3) / 2, blue (0.01 + 1/3) / 2.
	c := colorCluster(t)
	l := NewLedger(c)
	task, _ := balancedTask(true, 3, 1, 2)
	need, _, err := c.Compile(&sim.Job{ID: "x", Tasks: 1, Request: []sim.Quantity{{Resource: "cpu", Amount: sim.Units(1)}}})
	if err != nil {
		t.Fatal(err)
	}
	task.Need = need
	f, err := NewFenzoFitness(c, "cpu", "", "")
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, 3)
	f.Score(l, task, []int32{seedRed, seedGreen, seedBlue}, out)
	want := []float64{0.01 / 2, (0.01 + 2.0/3) / 2, (0.01 + 1.0/3) / 2}
	for n := range want {
		if math.Abs(out[n]-want[n]) > 1e-12 {
			t.Errorf("host %s: %v, want %v", c.Nodes[n].Name, out[n], want[n])
		}
	}
}
