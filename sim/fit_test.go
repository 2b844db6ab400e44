package sim

import "testing"

// fitCluster builds a cluster from specs or fails the test.
func fitCluster(t *testing.T, nodes ...NodeSpec) *Cluster {
	t.Helper()
	c, err := NewCluster(nodes)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func q(name string, units float64) Quantity {
	return Quantity{Resource: name, Amount: Amount(units * 1000)}
}

// fits compiles j against c and asks how many of its tasks fit on node n
// of the empty cluster.
func fits(t *testing.T, c *Cluster, n int, j *Job, limit int) int {
	t.Helper()
	req, immune, err := c.compile(j)
	if err != nil {
		t.Fatal(err)
	}
	return c.TasksFitting(c.capacity, n, req, immune, limit)
}

func TestFitSemantics(t *testing.T) {
	c := fitCluster(t,
		NodeSpec{Name: "plain", Capacity: []Quantity{q("cpu", 4)}},
		NodeSpec{Name: "tagged", Capacity: []Quantity{q("cpu", 4), q("castle", 0)}},
		NodeSpec{Name: "flies", Capacity: []Quantity{q("cpu", 4), q("flies", -5)}},
		NodeSpec{Name: "spiders", Capacity: []Quantity{q("cpu", 4), {Resource: "spiders", Amount: Ward}}},
	)
	cpu := []Quantity{q("cpu", 1)}
	cases := []struct {
		name string
		node int
		job  Job
		want int
	}{
		// 4 cpu / 1 cpu per task = 4 tasks.
		{"plain", 0, Job{Request: cpu}, 4},
		// A tag: only the tagged node has castle (0 − 0 ≥ 0).
		{"tag missing", 0, Job{Request: []Quantity{q("cpu", 1), q("castle", 0)}}, 0},
		{"tag present", 1, Job{Request: []Quantity{q("cpu", 1), q("castle", 0)}}, 4},
		// A shortcoming blocks a task that does not list it…
		{"shortcoming blocks", 2, Job{Request: cpu}, 0},
		// …and is overcome by a matching negative requirement: −5 − (−5) = 0.
		{"shortcoming overcome", 2, Job{Request: []Quantity{q("cpu", 1), q("flies", -5)}}, 4},
		// −5 − (−4) = −1 < 0: not enough tolerance.
		{"shortcoming too big", 2, Job{Request: []Quantity{q("cpu", 1), q("flies", -4)}}, 0},
		// A ward blocks even a large finite tolerance…
		{"ward blocks", 3, Job{Request: []Quantity{q("cpu", 1), q("spiders", -1e6)}}, 0},
		// …but not an immunity.
		{"immunity", 3, Job{Request: cpu, Traits: &Traits{Immunities: []string{"spiders"}}}, 4},
	}
	for _, tc := range cases {
		if got := fits(t, c, tc.node, &tc.job, 100); got != tc.want {
			t.Errorf("%s: %d tasks fit, want %d", tc.name, got, tc.want)
		}
	}
}

func TestFitHierarchy(t *testing.T) {
	// Two hosts under one rack whose uplink allows 3 tasks of 1 slot each;
	// each host has 2 cpu.
	c := fitCluster(t,
		NodeSpec{Name: "h1", Capacity: []Quantity{q("cpu", 2)}, Parent: "rack"},
		NodeSpec{Name: "h2", Capacity: []Quantity{q("cpu", 2)}, Parent: "rack"},
		NodeSpec{Name: "rack", Capacity: []Quantity{q("uplink", 3)}},
	)
	j := &Job{Tasks: 1, Request: []Quantity{q("cpu", 1), q("uplink", 1)}}
	if got := fits(t, c, 0, j, 100); got != 2 {
		t.Errorf("h1 holds %d tasks, want 2 (its cpu)", got)
	}
	if got := fits(t, c, 2, j, 100); got != 0 {
		t.Errorf("the rack holds %d tasks, want 0: levels hold none", got)
	}
	// Consume two tasks on h1 and one on h2: the rack's uplink is used up.
	req, immune, _ := c.compile(j)
	free := append([]Amount(nil), c.capacity...)
	alloc := make([]Amount, len(c.Resources))
	for _, n := range []int{0, 0, 1} {
		c.consume(free, n, req, immune, 1, alloc)
	}
	if got := c.TasksFitting(free, 1, req, immune, 100); got != 0 {
		t.Errorf("h2 still holds %d tasks with the uplink used up", got)
	}
	// cpu is counted on the leaves (3 of 4), uplink on the rack (3 of 3).
	cpu, _ := c.ResourceIndex("cpu")
	up, _ := c.ResourceIndex("uplink")
	if alloc[cpu] != Units(3) || alloc[up] != Units(3) || c.TotalCapacity(cpu) != Units(4) || c.TotalCapacity(up) != Units(3) {
		t.Errorf("allocated cpu %s uplink %s of totals %s and %s", alloc[cpu], alloc[up], c.TotalCapacity(cpu), c.TotalCapacity(up))
	}
	// Without the uplink requirement only cpu limits.
	if got := fits(t, c, 1, &Job{Request: []Quantity{q("cpu", 1)}}, 100); got != 2 {
		t.Errorf("h2 holds %d cpu-only tasks, want 2", got)
	}
}

func TestFitDefaults(t *testing.T) {
	// Bistro's "avoid a special host": every job needs 1 avoid slot unless
	// it lists 0; the special host has 0 slots.
	c := fitCluster(t,
		NodeSpec{Name: "regular", Capacity: []Quantity{q("cpu", 1), q("avoid", 1e6)}},
		NodeSpec{Name: "special", Capacity: []Quantity{q("cpu", 1), q("avoid", 0)}},
	)
	c.Defaults = []Quantity{q("avoid", 1)}
	plain := &Job{Request: []Quantity{q("cpu", 1)}}
	allowed := &Job{Request: []Quantity{q("cpu", 1), q("avoid", 0)}}
	if fits(t, c, 0, plain, 1) != 1 || fits(t, c, 1, plain, 1) != 0 {
		t.Error("a default job must run on the regular host only")
	}
	if fits(t, c, 1, allowed, 1) != 1 {
		t.Error("a job listing avoid: 0 must run on the special host")
	}
}
