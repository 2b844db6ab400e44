package script

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/policies/placement"
	"github.com/schedsim/schedsim/sim"
)

// node is a test node with cpu cores, mem units and "k=v" attributes.
func node(name string, cpu, mem int64, attrs ...string) sim.NodeSpec {
	a := map[string]string{}
	for _, kv := range attrs {
		k, v, _ := strings.Cut(kv, "=")
		a[k] = v
	}
	return sim.NodeSpec{Name: name, Attributes: a, Capacity: []sim.Quantity{
		{Resource: "cpu", Amount: sim.Units(cpu)}, {Resource: "mem", Amount: sim.Units(mem)}}}
}

func cluster(t testing.TB, nodes ...sim.NodeSpec) *sim.Cluster {
	t.Helper()
	c, err := sim.NewCluster(nodes)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// job is a one-task job asking for cpu cores and mem units.
func job(id string, cpu, mem int64) *sim.Job {
	return &sim.Job{ID: id, Tasks: 1, Runtime: sim.Second, Walltime: sim.NoWalltime,
		Request: []sim.Quantity{{Resource: "cpu", Amount: sim.Units(cpu)}, {Resource: "mem", Amount: sim.Units(mem)}}}
}

var nextKey int64

// task compiles j for c.
func task(t testing.TB, c *sim.Cluster, j *sim.Job, reason string) *placement.Task {
	t.Helper()
	need, immune, err := c.Compile(j)
	if err != nil {
		t.Fatal(err)
	}
	nextKey++
	return &placement.Task{Key: nextKey, Job: j, Need: need, Immune: immune, Reason: reason, At: 7 * sim.Second}
}

// compile compiles src; a config without a time budget gets the largest,
// so that only the tests of the time budget depend on the machine's speed
// (under the race detector a call runs ten times slower).
func compile(t testing.TB, src string, cfg Config) *Script {
	t.Helper()
	if cfg.TimeBudgetMS == 0 {
		cfg.TimeBudgetMS = MaxTimeBudgetMS
	}
	s, err := Compile("test.star", []byte(src), cfg)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	return s
}

// example loads testdata/scripts/name.
func example(t testing.TB, name string, cfg Config) *Script {
	t.Helper()
	cfg.Path = filepath.Join("..", "..", "testdata", "scripts", name)
	s, err := Load(cfg)
	if err != nil {
		t.Fatalf("load %s: %v", name, err)
	}
	return s
}

// pipeline builds strategy for c with s attached.
func pipeline(t testing.TB, c *sim.Cluster, strategy string, s *Script) *placement.Pipeline {
	t.Helper()
	p, err := placement.Build(c, placement.Spec{Strategy: strategy})
	if err != nil {
		t.Fatal(err)
	}
	p.Stats = &placement.Stats{}
	if s != nil {
		if err := Attach(p, s); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// place places every task of tk's job and books it; it returns the node
// names, or the rejection or failure as a string.
func place(p *placement.Pipeline, l *placement.Ledger, tk *placement.Task) ([]string, string) {
	tasks := 1
	if tk.Job != nil && tk.Job.Tasks > 0 {
		tasks = tk.Job.Tasks
	}
	nodes, reason := p.PlaceJob(l, tk, tasks, nil, nil)
	if p.Fatal != nil {
		return nil, "fatal: " + p.Fatal.Error()
	}
	if nodes == nil {
		return nil, reason
	}
	names := make([]string, len(nodes))
	for i, n := range nodes {
		names[i] = l.Cluster.Nodes[n].Name
	}
	return names, ""
}

// fill books a task of mem units on node n.
func fill(t testing.TB, l *placement.Ledger, n int, cpu, mem int64) {
	t.Helper()
	tk := task(t, l.Cluster, job(fmt.Sprintf("fill%d", nextKey), cpu, mem), "new")
	if l.Fits(tk, n, 1) == 0 {
		t.Fatalf("fill: does not fit on node %d", n)
	}
	l.Take(tk, n)
}

func wantNodes(t *testing.T, got []string, reason string, want ...string) {
	t.Helper()
	if reason != "" || strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("placed on %v (reason %q), want %v", got, reason, want)
	}
}

func wantReject(t *testing.T, got []string, reason, want string) {
	t.Helper()
	if got != nil || !strings.Contains(reason, want) {
		t.Fatalf("placed on %v with reason %q, want a rejection containing %q", got, reason, want)
	}
}
